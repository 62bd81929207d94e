"""Errors the services raise; api/errors.py maps them to JSON `{code, detail}`."""

from __future__ import annotations


class ServiceError(Exception):
    status = 400
    code = "bad_request"

    def __init__(self, detail: str, *, code: str | None = None, status: int | None = None, **extra):
        super().__init__(detail)
        self.detail = detail
        if code:
            self.code = code
        if status:
            self.status = status
        self.extra = extra


class NotFound(ServiceError):
    status, code = 404, "not_found"


class Forbidden(ServiceError):
    status, code = 403, "forbidden"


class Conflict(ServiceError):
    status, code = 409, "conflict"


class Invalid(ServiceError):
    status, code = 400, "invalid"


class Unprocessable(ServiceError):
    status, code = 422, "illegal_command"


class EngineError(ServiceError):
    """The rules engine failed (raised something other than BadCommand or
    IllegalCommand, or broke the engine contract). Not the client's input, so not
    `invalid_command`; 422 because the server could not process this command and
    retrying it gives the same answer (docs/architecture.md, "Errors")."""

    status, code = 422, "engine_error"
