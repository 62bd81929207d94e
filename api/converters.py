"""Path converters of the API's URLs.

Django's `<int:…>` takes any run of digits, so `/takeback/99999999999999999999/accept`
reached the database with a number no bigint column holds and failed there as a
500 (issue 31). `<int64:…>` matches 0..2**63-1 only: anything longer or larger is
no route at all, a 404 `not_found` in the JSON shape (api/middleware.py)."""

from __future__ import annotations

from django.urls import register_converter

MAX_INT64 = 2**63 - 1


class Int64Converter:
    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > MAX_INT64:
            raise ValueError("beyond a 64-bit integer")  # Django: this route does not match
        return number

    def to_url(self, value: int) -> str:
        return str(int(value))


register_converter(Int64Converter, "int64")

# schema.yml: the range the converter accepts (config/settings.py PATH_CONVERTER_OVERRIDES)
SCHEMA = {"type": "integer", "format": "int64", "minimum": 0, "maximum": MAX_INT64}
