from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension, OpenApiSerializerExtension


class BearerScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]  # drf-spectacular's untyped __init_subclass__
    target_class = "api.auth.BearerTokenAuthentication"
    name = "bearerAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {"type": "http", "scheme": "bearer", "description": "Token from register or token."}


def drop_trailing_slash_twins(endpoints: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """Every path is also served with a trailing slash (api.md); document it once."""
    return [e for e in endpoints if not e[0].endswith("/") or e[0] == "/"]


class StrictRequestBodies(OpenApiSerializerExtension):  # type: ignore[no-untyped-call]  # drf-spectacular's untyped __init_subclass__
    """Request bodies read by a StrictSerializer refuse unknown keys: say so."""

    target_class = "api.serializers.StrictSerializer"
    match_subclasses = True

    def map_serializer(self, auto_schema: Any, direction: str) -> Any:
        schema = auto_schema._map_basic_serializer(self.target, direction)
        if direction == "request":
            schema["additionalProperties"] = False
        return schema
