"""JSON through orjson (about five times faster than the json module on our
responses), and renderers beyond JSON: Server-Sent Events and JSON Lines.
Those two exist so DRF's content negotiation accepts those Accept headers; the
streaming bodies are built by the views, and errors still come out as JSON
text."""

import json
from collections.abc import Mapping
from typing import IO, Any

import orjson
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.utils.encoders import JSONEncoder

_DEFAULT = JSONEncoder().default  # datetimes, decimals, lazy strings… exactly as DRF writes them
_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_NON_STR_KEYS


class FastJSONRenderer(JSONRenderer):
    """DRF's JSON renderer, compact, with orjson doing the encoding."""

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        if data is None:
            return b""
        if self.get_indent(accepted_media_type or "", renderer_context or {}):
            return super().render(data, accepted_media_type, renderer_context)  # ?indent: rare, keep DRF's
        return orjson.dumps(data, default=_DEFAULT, option=_OPTIONS)


class FastJSONParser(JSONParser):
    """Request bodies through orjson. Stricter than the json module where JSON
    itself is (no NaN, integers within 64 bits): those are 400 `malformed_json`."""

    def parse(
        self, stream: IO[Any], media_type: str | None = None, parser_context: Mapping[str, Any] | None = None
    ) -> Any:
        try:
            return orjson.loads(stream.read() if stream is not None else b"")
        except orjson.JSONDecodeError as exc:
            raise ParseError(f"JSON parse error - {exc}") from exc


class _JsonTextRenderer(BaseRenderer):
    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        return b"" if data is None else json.dumps(data).encode()


class EventStreamRenderer(_JsonTextRenderer):
    media_type = "text/event-stream"
    format = "sse"


class JsonLinesRenderer(_JsonTextRenderer):
    media_type = "application/x-ndjson"
    format = "jsonl"


class SvgRenderer(BaseRenderer):
    """Lets `Accept: image/svg+xml` through negotiation; the board view builds
    the body itself (errors are JSON, see JsonErrors)."""

    media_type = "image/svg+xml"
    format = "svg"
    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        return b"" if data is None else json.dumps(data).encode()
