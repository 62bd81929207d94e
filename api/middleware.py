"""JSON errors where Django itself answers: oversize bodies (413), unknown
/api/ URLs (404) and, as a last resort, unexpected exceptions (500)."""

from __future__ import annotations

import logging

from django.conf import settings
from django.http import JsonResponse

log = logging.getLogger(__name__)


class JsonErrorsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path.startswith("/api/"):
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                return JsonResponse({"code": "bad_request", "detail": "invalid Content-Length"}, status=400)
            if length > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
                return JsonResponse({"code": "request_too_large",
                                     "detail": f"request bodies are limited to "
                                               f"{settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes"}, status=413)
        response = self.get_response(request)
        if (request.path.startswith("/api/") and response.status_code == 404
                and not response.get("Content-Type", "").startswith("application/json")
                and not response.streaming):
            return JsonResponse({"code": "not_found", "detail": "no such endpoint"}, status=404)
        return response

    def process_exception(self, request, exception):
        if not request.path.startswith("/api/"):
            return None
        log.exception("unhandled error on %s %s", request.method, request.path)
        return JsonResponse({"code": "server_error", "detail": "an unexpected error happened; it was logged"},
                            status=500)
