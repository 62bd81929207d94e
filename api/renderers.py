"""Renderers beyond JSON: Server-Sent Events and JSON Lines. Both exist so DRF's
content negotiation accepts those Accept headers; the streaming bodies are
built by the views, and errors still come out as JSON text."""

import json

from rest_framework.renderers import BaseRenderer


class _JsonTextRenderer(BaseRenderer):
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return b"" if data is None else json.dumps(data).encode()


class EventStreamRenderer(_JsonTextRenderer):
    media_type = "text/event-stream"
    format = "sse"


class JsonLinesRenderer(_JsonTextRenderer):
    media_type = "application/x-ndjson"
    format = "jsonl"
