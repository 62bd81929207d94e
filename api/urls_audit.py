"""Routes of the audit layer: abort and takebacks (audit/export/replay are in api/urls.py)."""

from collections.abc import Callable

from django.http import HttpResponseBase
from django.urls import URLPattern, path

from . import converters  # noqa: F401  (registers <int64:…>)
from .views import audit


def p(route: str, view: Callable[..., HttpResponseBase], name: str) -> list[URLPattern]:
    return [path(route, view, name=name), path(route + "/", view)]


urlpatterns = [
    *p("games/<str:game_id>/abort", audit.AbortView.as_view(), "abort"),
    *p("games/<str:game_id>/takeback", audit.TakebackView.as_view(), "takeback"),
    *p(
        "games/<str:game_id>/takeback/<int64:request_seq>/accept",
        audit.TakebackAcceptView.as_view(),
        "takeback-accept",
    ),
    *p(
        "games/<str:game_id>/takeback/<int64:request_seq>/refuse",
        audit.TakebackRefuseView.as_view(),
        "takeback-refuse",
    ),
]
