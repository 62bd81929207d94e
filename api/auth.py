"""Bearer tokens: django-rest-knox tokens (stored hashed, revocable), sent as
`Authorization: Bearer <token>` (REST_KNOX["AUTH_HEADER_PREFIX"] = "Bearer";
knox compares the header's scheme with its WWW-Authenticate answer).

Expiry slides: every use moves it TOKEN_TTL ahead (knox AUTO_REFRESH), written
at most once per MIN_REFRESH_INTERVAL; the token's last use is recorded at the
same pace (accounts.sessions.touch), so an authenticated request costs no extra
write most of the time."""

from knox.auth import TokenAuthentication
from knox.settings import knox_settings


class BearerTokenAuthentication(TokenAuthentication):
    def renew_token(self, auth_token) -> None:
        before = auth_token.expiry
        super().renew_token(auth_token)
        if (auth_token.expiry - before).total_seconds() > knox_settings.MIN_REFRESH_INTERVAL:
            from accounts.sessions import touch

            touch(auth_token)
