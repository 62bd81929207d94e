"""Structured logs: every line (ours, Django's, Celery's, gunicorn's error log)
goes through structlog's ProcessorFormatter and carries `timestamp`, `level`,
`logger` and `event`, plus whatever is bound in the current context:
`request_id` (config/observability.py), `game_id`, `seat` and `command_type`
(games/services/observe.py), `task` and `task_id` in Celery tasks.

LOG_FORMAT=json   one JSON object per line (the compose default)
LOG_FORMAT=console  aligned key=value text for a terminal (the `make run` default)

Why, with the measurements and history: docs/modules.md, `telemetry/logs.py`.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import structlog
from celery import signals
from django.core.exceptions import ImproperlyConfigured
from structlog.typing import EventDict, Processor

SENSITIVE_KEYS = frozenset(
    {
        "password",
        "password1",
        "password2",
        "token",
        "tokens",
        "secret",
        "webhook_secret",
        "authorization",
        "cookie",
        "salt",
        "seed",
        "api_key",
        "unsubscribe_token",
        "idempotency_key",
        "signature",
        "payload",
    }
)
REDACTED = "[redacted]"
_BEARER = re.compile(r"(?i)\b(bearer|token)(\s+|=|:\s*)([A-Za-z0-9._~+/=-]{8,})")
_QUERY_SECRET = re.compile(r"(?i)([?&](?:token|key|secret|signature|password)=)[^&\s\"']+")


def scrub(text: str) -> str:
    text = _BEARER.sub(lambda m: f"{m.group(1)}{m.group(2)}{REDACTED}", text)
    return _QUERY_SECRET.sub(lambda m: m.group(1) + REDACTED, text)


def _clean(value: Any, depth: int = 0) -> Any:
    if depth > 4:
        return value
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, dict):
        return {
            k: (REDACTED if str(k).lower() in SENSITIVE_KEYS else _clean(v, depth + 1))
            for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return [_clean(v, depth + 1) for v in value]
    if value is None or isinstance(value, bool | int | float):
        return value
    return scrub(repr(value))  # e.g. Django's `request` extra: its repr holds the query string


def redact(_logger: object, _name: str, event_dict: EventDict) -> EventDict:
    """structlog processor: the last line of defence against leaking secrets."""
    for key in list(event_dict):
        if key.lower() in SENSITIVE_KEYS:
            event_dict[key] = REDACTED
        elif key not in ("timestamp", "level", "logger"):
            event_dict[key] = _clean(event_dict[key])
    return event_dict


def _positional_args(_logger: object, _name: str, event_dict: EventDict) -> EventDict:
    """stdlib records: `event` is the formatted message; drop the raw record."""
    event_dict.pop("positional_args", None)
    return event_dict


def shared_processors() -> list[Any]:
    return [
        structlog.contextvars.merge_contextvars,
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.processors.TimeStamper(fmt="iso", utc=True, key="timestamp"),
        _positional_args,
    ]


def build(fmt: str, level: str) -> dict[str, Any]:
    """The LOGGING dict for settings (and configure structlog's own loggers)."""
    if fmt not in ("json", "console"):
        raise ImproperlyConfigured(f"LOG_FORMAT must be json or console, got {fmt!r}")
    pre = shared_processors()
    structlog.configure(
        processors=[
            structlog.stdlib.filter_by_level,
            *pre,
            structlog.stdlib.PositionalArgumentsFormatter(),
            structlog.stdlib.ProcessorFormatter.wrap_for_formatter,
        ],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"structured": {"()": "telemetry.logs.formatter", "fmt": fmt}},
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "structured"}},
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            # One line per request comes from config.observability (with the request id);
            # Django's own "Not Found: /x" warnings would only repeat it without one.
            "django.request": {"level": "ERROR"},
            "django.server": {"level": "WARNING"},
            # gunicorn's error log joins ours (its access log stays off: ours has the request id).
            "gunicorn.error": {"handlers": ["console"], "level": level, "propagate": False},
        },
    }


def formatter(fmt: str = "json") -> logging.Formatter:
    """The formatter of every handler: stdlib records and structlog events alike."""
    if fmt == "json":
        # Tracebacks as data, without frame locals (they could hold a seed, a salt, a token).
        tracebacks = structlog.processors.ExceptionRenderer(
            structlog.tracebacks.ExceptionDictTransformer(show_locals=False)
        )
        final: list[Processor] = [tracebacks, redact, structlog.processors.JSONRenderer(sort_keys=False)]
    else:
        final = [
            redact,
            structlog.dev.ConsoleRenderer(colors=False, exception_formatter=structlog.dev.plain_traceback),
        ]
    return structlog.stdlib.ProcessorFormatter(
        processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, *final],
        foreign_pre_chain=[*shared_processors(), structlog.stdlib.ExtraAdder()],
    )


def get_logger(name: str) -> Any:  # structlog's get_logger is typed Any
    return structlog.get_logger(name)


def bind(**values: object) -> None:
    structlog.contextvars.bind_contextvars(**values)


def celery_signals() -> None:
    """Bind task name and id (as the request id) around every Celery task."""

    @signals.task_prerun.connect(weak=False)  # type: ignore[untyped-decorator]  # celery's Signal.connect is untyped
    def _bind(task_id: str | None = None, task: object = None, **_kw: object) -> None:
        structlog.contextvars.clear_contextvars()
        structlog.contextvars.bind_contextvars(request_id=task_id, task=getattr(task, "name", None))

    @signals.task_postrun.connect(weak=False)  # type: ignore[untyped-decorator]  # celery's Signal.connect is untyped
    def _unbind(**_kw: object) -> None:
        structlog.contextvars.clear_contextvars()


logging.captureWarnings(True)
