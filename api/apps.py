from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"

    def ready(self) -> None:
        from . import schema_extensions  # noqa: F401  (registers the auth scheme with drf-spectacular)
