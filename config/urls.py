from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularSwaggerView

from web.views.accounts import admin_login, admin_password_change

admin.site.site_header = "Sengoku operations"
admin.site.site_title = "Sengoku admin"

urlpatterns = [
    # Swagger UI from our own template (before api.urls, whose route it replaces): drf-spectacular's
    # page has an inline script and style, which the Content-Security-Policy refuses.
    re_path(
        r"^api/v1/docs/?$",
        SpectacularSwaggerView.as_view(url_name="schema", template_name="web/api_docs.html"),
        name="docs",
    ),
    path("api/v1/", include("api.urls")),
    # the admin's login with the sign-in page's limits (issue 31: per-account lockout, per-address throttle)
    path("admin/login/", admin_login, name="admin-login"),
    path("admin/password_change/", admin_password_change, name="admin-password-change"),
    path("admin/", admin.site.urls),
    path("", include("web.urls")),  # the browser client: lobby, game, replay, audit, accounts
    # /metrics is answered by config.observability.ObservabilityMiddleware (before host checks).
]
