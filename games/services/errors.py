"""Errors the services raise; api/errors.py maps them to JSON `{code, detail}`.

`ErrorCode` is every code the API answers with, in one place: schema.yml lists
it as the `ErrorCode` enum, docs/api.md says what each means and what a client
can do, and tests/api/test_error_codes.py checks that no code is spelled
outside it."""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class ErrorCode(StrEnum):
    """Every `code` an error answer can carry (schema.yml lists them; docs/api.md explains them)."""

    # -- the request itself (400, 411, 413, 415, 405, 406)
    BAD_REQUEST = "bad_request"
    MALFORMED_JSON = "malformed_json"
    INVALID = "invalid"
    LENGTH_REQUIRED = "length_required"
    REQUEST_TOO_LARGE = "request_too_large"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    NOT_ACCEPTABLE = "not_acceptable"
    # -- accounts and authentication (401, 403, 409, 429)
    NOT_AUTHENTICATED = "not_authenticated"
    INVALID_TOKEN = "invalid_token"
    INVALID_CREDENTIALS = "invalid_credentials"
    TOO_MANY_FAILED_LOGINS = "too_many_failed_logins"
    RATE_LIMITED = "rate_limited"
    TOO_MANY_STREAMS = "too_many_streams"
    FORBIDDEN = "forbidden"
    USERNAME_TAKEN = "username_taken"
    WEAK_PASSWORD = "weak_password"
    UNKNOWN_TOKEN = "unknown_token"
    VACATION_EXHAUSTED = "vacation_exhausted"
    WRONG_PASSWORD = "wrong_password"
    TOKEN_NOT_FOUND = "token_not_found"
    WEBHOOK_REFUSED = "webhook_refused"
    # -- lookups (404)
    NOT_FOUND = "not_found"
    GAME_NOT_FOUND = "game_not_found"
    SEAT_NOT_FOUND = "seat_not_found"
    TAKEBACK_NOT_FOUND = "takeback_not_found"
    USER_NOT_FOUND = "user_not_found"
    INVITATION_NOT_FOUND = "invitation_not_found"
    # -- lobby (400, 403, 409)
    UNKNOWN_RULESET = "unknown_ruleset"
    UNSUPPORTED_LANGUAGE = "unsupported_language"
    INVALID_PLAYERS = "invalid_players"
    INVALID_OPTIONS = "invalid_options"
    INVALID_TIME_CONTROL = "invalid_time_control"
    INVALID_FACTION = "invalid_faction"
    INVALID_BOT = "invalid_bot"
    INVALID_SETUP = "invalid_setup"
    INVALID_ENTROPY = "invalid_entropy"
    ENTROPY_GIVEN = "entropy_given"
    FACTION_TAKEN = "faction_taken"
    ALREADY_SEATED = "already_seated"
    GAME_FULL = "game_full"
    SEAT_TAKEN = "seat_taken"
    SEATS_NOT_FILLED = "seats_not_filled"
    NOT_CREATOR = "not_creator"
    NOT_PRIVATE = "not_private"
    GAME_NOT_OPEN = "game_not_open"
    # -- playing (400, 403, 409, 422)
    CONFLICT = "conflict"
    VERSION_CONFLICT = "version_conflict"
    GAME_NOT_RUNNING = "game_not_running"
    GAME_OVER = "game_over"
    GAME_PAUSED = "game_paused"
    ALREADY_PAUSED = "already_paused"
    NOT_PAUSED = "not_paused"
    NOT_SEATED = "not_seated"
    NOT_YOUR_SEAT = "not_your_seat"
    NOT_ZOMBIE = "not_zombie"
    INVALID_SEAT = "invalid_seat"
    INVALID_VERSION = "invalid_version"
    INVALID_IDEMPOTENCY_KEY = "invalid_idempotency_key"
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"
    MESSAGE_TOO_LONG = "message_too_long"
    # the engine's own codes (games/rules/base.py RulesError.code), carried through
    INVALID_COMMAND = "invalid_command"
    ILLEGAL_COMMAND = "illegal_command"
    # the engine failed (a bug, not the client's input): 422, see docs/api.md
    ENGINE_ERROR = "engine_error"
    # -- takebacks (403, 404, 409)
    TAKEBACK_NOT_ALLOWED = "takeback_not_allowed"
    TAKEBACK_PENDING = "takeback_pending"
    TAKEBACK_CLOSED = "takeback_closed"
    OWN_REQUEST = "own_request"
    ALREADY_ANSWERED = "already_answered"
    # -- the server (500) and DRF errors without a code of their own
    SERVER_ERROR = "server_error"
    ERROR = "error"


class ServiceError(Exception):
    """A refusal the API answers as `{code, detail}` with `status` (never a 500)."""

    status = 400
    code = ErrorCode.BAD_REQUEST

    def __init__(
        self, detail: str, *, code: ErrorCode | None = None, status: int | None = None, **extra: Any
    ) -> None:
        super().__init__(detail)
        self.detail = detail
        if code:
            self.code = ErrorCode(code)  # a code outside the enum is a bug (test_error_codes.py)
        if status:
            self.status = status
        self.extra = extra


class NotFound(ServiceError):
    """404: no such thing, or not one the caller may know of."""

    status, code = 404, ErrorCode.NOT_FOUND


class Forbidden(ServiceError):
    """403: the caller is known but may not do this."""

    status, code = 403, ErrorCode.FORBIDDEN


class Conflict(ServiceError):
    """409: refused in the current state (a version conflict, a full game, a closed request)."""

    status, code = 409, ErrorCode.CONFLICT


class Invalid(ServiceError):
    """400: the request itself is malformed."""

    status, code = 400, ErrorCode.INVALID


class Unprocessable(ServiceError):
    """422: well formed, but the rules (or the request's own terms) refuse it."""

    status, code = 422, ErrorCode.ILLEGAL_COMMAND


class EngineError(ServiceError):
    """The rules engine failed (raised something other than BadCommand or
    IllegalCommand, or broke the engine contract). Not the client's input, so not
    `invalid_command`; 422 because the server could not process this command and
    retrying it gives the same answer (docs/architecture.md, "Errors")."""

    status, code = 422, ErrorCode.ENGINE_ERROR
