from django.apps import AppConfig


class OpsConfig(AppConfig):
    """Operating the server: heartbeats, the admin site, backups and checks."""

    name = "ops"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Operations"
