"""The language of a web page: ``?lang=``, the account's setting, the browser's
``Accept-Language``, then English (games/services/language.py, the API's order).

A middleware for the pages only: it activates the language for the templates'
``{% translate %}`` and the script catalogue (``/jsi18n/``), and says so in
``Content-Language`` with ``Vary`` on the inputs, and revalidate-always on pages that set
no policy, so no cache keeps one language's page for another. The catalogue has a URL
per language (base.html adds ``?lang=``) and an ETag. The API is left alone: it chooses
where a text is produced (its query budgets: tests/api/test_request_costs.py)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.views.i18n import JavaScriptCatalog

from games.services import caching
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
        if not response.has_header("Cache-Control"):
            # Switching language changes neither the URL nor the session cookie: a page kept
            # without asking again would come back in the old language.
            response["Cache-Control"] = caching.PRIVATE
        return response


class ScriptCatalogue(JavaScriptCatalog):
    """/jsi18n/: the scripts' words (locale/*/LC_MESSAGES/djangojs.po). Always revalidated,
    answered 304 while the words are the same: after a language switch or a deploy
    the next page gets the new words, and otherwise costs one short request."""

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = super().get(request, *args, **kwargs)
        etag = '"' + hashlib.sha256(response.content).hexdigest()[:32] + '"'
        response["ETag"] = etag
        response["Cache-Control"] = "no-cache"
        return get_conditional_response(request, etag=etag, response=response) or response
