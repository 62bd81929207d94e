from django.contrib import admin
from django.urls import include, path

from web.views.accounts import admin_login, admin_password_change

admin.site.site_header = "Sengoku operations"
admin.site.site_title = "Sengoku admin"

urlpatterns = [
    path("api/v1/", include("api.urls")),
    # the admin's login with the sign-in page's limits (issue 31: per-account lockout, per-address throttle)
    path("admin/login/", admin_login, name="admin-login"),
    path("admin/password_change/", admin_password_change, name="admin-password-change"),
    path("admin/", admin.site.urls),
    path("", include("web.urls")),  # the browser client: lobby, game, replay, audit, accounts
    # /metrics is answered by config.observability.ObservabilityMiddleware (before host checks).
]
