"""Bearer tokens: django-rest-knox tokens (stored hashed, revocable), sent as
`Authorization: Bearer <token>` (REST_KNOX["AUTH_HEADER_PREFIX"] = "Bearer";
knox compares the header's scheme with its WWW-Authenticate answer)."""

from knox.auth import TokenAuthentication


class BearerTokenAuthentication(TokenAuthentication):
    pass
