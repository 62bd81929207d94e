"""Bearer tokens: django-rest-knox tokens (stored hashed, revocable), sent as
`Authorization: Bearer <token>`."""

from knox.auth import TokenAuthentication


class BearerTokenAuthentication(TokenAuthentication):
    def authenticate_header(self, request):
        return 'Bearer realm="api"'
