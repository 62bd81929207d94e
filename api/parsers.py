"""The one JSON parser of the API: DRF's, made strict so that no body can reach
the services in a shape that later fails as a 500 (issue 10 item 4).

Refused with 400 `malformed_json` (`{code, detail}`):

* nesting deeper than `MAX_DEPTH` (64) objects/arrays — checked on the text
  before parsing, so a 1,000-level body never reaches the recursive decoder;
* bytes that are not UTF-8 (JSON is UTF-8, RFC 8259; another `charset` in the
  Content-Type is 415), `NaN`/`Infinity`, and numbers too large for a double;
* any string (key or value) holding a lone surrogate (`"\\ud800"`: it cannot be
  encoded, hashed or stored) or a NUL character (PostgreSQL text and jsonb
  cannot store it).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import IO, Any

from rest_framework import exceptions
from rest_framework.parsers import JSONParser

MAX_DEPTH = 64
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")
_CHARSETS = ("utf-8", "utf8")


class StrictJSONParser(JSONParser):
    def parse(
        self, stream: IO[Any], media_type: str | None = None, parser_context: Mapping[str, Any] | None = None
    ) -> Any:
        charset = (parser_context or {}).get("encoding") or "utf-8"
        if charset.lower() not in _CHARSETS:
            raise exceptions.UnsupportedMediaType(
                str(media_type), detail=f"JSON bodies must be UTF-8 (charset {charset!r} given)"
            )
        raw = stream.read() if stream is not None else b""
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise exceptions.ParseError("JSON parse error - the body is not valid UTF-8") from exc
        check_depth(text)
        try:
            value = json.loads(text, parse_constant=_refuse_constant)
        except (ValueError, RecursionError) as exc:
            raise exceptions.ParseError(f"JSON parse error - {exc}") from exc
        check_values(value)
        return value


def check_depth(text: str) -> None:
    """Refuse more than MAX_DEPTH nested objects/arrays, counting brackets outside strings."""
    depth = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        if depth > MAX_DEPTH:
            raise exceptions.ParseError(f"JSON nested deeper than {MAX_DEPTH} levels")


def check_values(value: Any) -> None:
    """Every string encodable and NUL-free, every number finite (depth is bounded already)."""
    if isinstance(value, str):
        _check_text(value)
    elif isinstance(value, float) and not math.isfinite(value):
        raise exceptions.ParseError("JSON numbers must be finite")
    elif isinstance(value, dict):
        for k, v in value.items():
            _check_text(k)
            check_values(v)
    elif isinstance(value, list):
        for v in value:
            check_values(v)


def _check_text(s: str) -> None:
    if "\x00" in s:
        raise exceptions.ParseError("JSON strings must not contain NUL (\\u0000) characters")
    try:
        s.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise exceptions.ParseError(
            "JSON strings must be valid Unicode (a lone surrogate such as \\ud800 is not)"
        ) from exc


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")
