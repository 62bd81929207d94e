from django.contrib import admin
from django.urls import include, path

admin.site.site_header = "Sengoku operations"
admin.site.site_title = "Sengoku admin"

urlpatterns = [
    path("api/v1/", include("api.urls")),
    path("admin/", admin.site.urls),
    path("", include("web.urls")),  # the browser client: lobby, game, replay, audit, accounts
    # /metrics is answered by config.observability.ObservabilityMiddleware (before host checks).
]
