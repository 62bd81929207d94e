from django.apps import AppConfig


class HeartbeatsConfig(AppConfig):
    name = "heartbeats"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # ready(): beat imports the models, which cannot load before the app registry is ready
        from . import beat

        beat.connect_celery_signals()
