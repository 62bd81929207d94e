from django.apps import AppConfig


class HeartbeatsConfig(AppConfig):
    name = "heartbeats"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import beat

        beat.connect_celery_signals()
