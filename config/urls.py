from django.contrib import admin
from django.http import HttpResponseRedirect
from django.urls import include, path

admin.site.site_header = "Sengoku operations"
admin.site.site_title = "Sengoku admin"

urlpatterns = [
    path("", lambda request: HttpResponseRedirect("/api/v1/docs")),
    path("api/v1/", include("api.urls")),
    path("admin/", admin.site.urls),
    # /metrics is answered by config.observability.ObservabilityMiddleware (before host checks).
]
