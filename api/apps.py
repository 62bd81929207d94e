from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"

    def ready(self) -> None:
        # Imported here, once the apps are loaded (they need the models):
        from . import (
            auth,  # noqa: F401  (connects the token cache's invalidation signals)
            schema_extensions,  # noqa: F401  (registers the auth scheme with drf-spectacular)
        )
