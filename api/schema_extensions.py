from drf_spectacular.extensions import OpenApiAuthenticationExtension


class BearerScheme(OpenApiAuthenticationExtension):
    target_class = "api.auth.BearerTokenAuthentication"
    name = "bearerAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer", "description": "Token from register or token."}


def drop_trailing_slash_twins(endpoints):
    """Every path is also served with a trailing slash (api.md); document it once."""
    return [e for e in endpoints if not e[0].endswith("/") or e[0] == "/"]
