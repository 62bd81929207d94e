"""The language of a web page: ``?lang=``, the account's setting, the browser's
``Accept-Language``, then English (games/services/language.py, the API's order).

A middleware for the pages only: it activates the language for the templates'
``{% translate %}`` and the script catalogue (``/jsi18n/``), and says so in
``Content-Language`` with ``Vary`` on the inputs, so no cache keeps one language's
page for another. The API is left alone: it chooses where a text is produced, and its
hot paths' query budgets are pinned (tests/api/test_request_costs.py)."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers

from games.services.language import language_quiet

# Not pages: the API chooses per answer; static files and the admin have no words of ours.
NOT_PAGES = ("/api/", "/static/", "/admin/", "/healthz", "/readyz", "/metrics")


class PageLanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path.startswith(NOT_PAGES):
            return self.get_response(request)
        language = language_quiet(request)
        with translation.override(language.lower()):
            request.LANGUAGE_CODE = language.lower()  # Django's own attribute name (LocaleMiddleware's)
            response = self.get_response(request)
            response["Content-Language"] = language
        # The account (cookie) and the browser's header both choose the words.
        patch_vary_headers(response, ("Cookie", "Accept-Language"))
        return response
