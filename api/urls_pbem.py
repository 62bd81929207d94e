"""Routes of the play-by-email layer (pause, reclaim, press, notifications)."""

from collections.abc import Callable

from django.http import HttpResponseBase
from django.urls import URLPattern, path

from . import converters  # noqa: F401  (registers <int64:…>)
from .views import pbem


def p(route: str, view: Callable[..., HttpResponseBase], name: str) -> list[URLPattern]:
    """Each path without and with a trailing slash (api.md: both are accepted)."""
    return [path(route, view, name=name), path(route + "/", view)]


urlpatterns = [
    *p("games/<str:game_id>/pause", pbem.PauseView.as_view(), "pause"),
    *p("games/<str:game_id>/resume", pbem.ResumeView.as_view(), "resume"),
    *p("games/<str:game_id>/seats/<int64:index>/reclaim", pbem.ReclaimView.as_view(), "reclaim"),
    *p("games/<str:game_id>/messages", pbem.MessagesView.as_view(), "messages"),
    *p("accounts/me/notifications", pbem.NotificationsView.as_view(), "notifications"),
    *p("accounts/me/stream", pbem.UserStreamView.as_view(), "user-stream"),
    *p("accounts/me/webhook-deliveries", pbem.WebhookDeliveriesView.as_view(), "webhook-deliveries"),
    *p("accounts/unsubscribe", pbem.UnsubscribeView.as_view(), "unsubscribe"),
]
