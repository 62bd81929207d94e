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
