"""Settings, read from the environment with safe defaults for the embedded
default (`make run`: SQLite, filesystem Celery broker) and loud failures on bad
values. Every variable is listed in `.env.example`."""

from __future__ import annotations

from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(environ.Env().str("SENGOKU_VAR_DIR", default=str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)

env = environ.Env()
env.read_env(BASE_DIR / ".env", overwrite=False) if (BASE_DIR / ".env").exists() else None


def _positive_int(name: str, default: int) -> int:
    try:
        value = env.int(name, default=default)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be an integer, got {env.str(name)!r}") from exc
    if value <= 0:
        raise ImproperlyConfigured(f"{name} must be positive, got {value}")
    return value


def _strict_bool(name: str, default: bool) -> bool:
    raw = env.str(name, default="").strip().lower()
    if raw == "":
        return default
    if raw in ("1", "true", "yes", "on"):
        return True
    if raw in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, got {raw!r}")


DEBUG = _strict_bool("DEBUG", False)
_DEV_KEY = "insecure-dev-key-only-for-the-embedded-default-" + "x" * 16
SECRET_KEY = env.str("SECRET_KEY", default=_DEV_KEY)
if SECRET_KEY == _DEV_KEY and _strict_bool("SENGOKU_PRODUCTION", False):
    raise ImproperlyConfigured("SECRET_KEY must be set when SENGOKU_PRODUCTION=true")
if len(SECRET_KEY) < 32:
    raise ImproperlyConfigured("SECRET_KEY must be at least 32 characters")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]", "testserver"])
PUBLIC_BASE_URL = env.str("PUBLIC_BASE_URL", default="http://127.0.0.1:8000").rstrip("/")

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "drf_spectacular",
    "accounts",
    "events",
    "games",
    "api",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "api.middleware.JsonErrorsMiddleware",
    "django.middleware.common.CommonMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
    }
]

_db_url = env.str("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'sengoku.sqlite3'}")
if _db_url.split("://", 1)[0] not in ("sqlite", "postgres", "postgresql", "pgsql"):
    raise ImproperlyConfigured(f"DATABASE_URL must be sqlite:///… or postgres://…, got {_db_url.split(':', 1)[0]!r}")
try:
    DATABASES = {"default": env.db_url_config(_db_url)}
except Exception as exc:  # environ raises bare exceptions on unknown schemes
    raise ImproperlyConfigured(f"DATABASE_URL is not a database URL I understand: {exc}") from exc
# Keep database connections between requests (each new PostgreSQL connection forks a
# backend: several ms per request). Health-checked before reuse; 0 closes after each request.
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DB_CONN_MAX_AGE", default=300)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL + a busy timeout let the web process, the worker and beat share the file.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 30,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
    }
else:
    DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("DB_CONN_MAX_AGE", default=60))
    DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", True)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
PASSWORD_HASHERS = env.list("PASSWORD_HASHERS", default=[
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
])

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True
STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STORAGES = {
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True

# Request bodies: commands are small; anything bigger is refused with 413.
DATA_UPLOAD_MAX_MEMORY_SIZE = _positive_int("MAX_REQUEST_BYTES", 64 * 1024)

REDIS_URL = env.str("REDIS_URL", default="")
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=REDIS_URL or "filesystem://")
if CELERY_BROKER_URL == "filesystem://":
    _broker_dir = VAR_DIR / "celery-broker"
    for sub in ("out", "processed"):
        (_broker_dir / sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir / "out"),
        "data_folder_out": str(_broker_dir / "out"),
        "processed_folder": str(_broker_dir / "processed"),
        "store_processed": False,
        # the virtual transport sleeps this long whenever the folder looked empty
        "polling_interval": 0.2,
    }
CELERY_TASK_ALWAYS_EAGER = _strict_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_TASK_DEFAULT_PRIORITY = 5  # 0 is the highest on Redis; the clocks' beat entry uses it
# games.tasks is found by autodiscovery; the play-by-email task module is named here
# (the layers contract keeps task modules from importing each other).
CELERY_IMPORTS = ["games.tasks_pbem"]
CELERY_BEAT_SWEEP_SECONDS = _positive_int("DEADLINE_SWEEP_SECONDS", 2)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["api.auth.BearerTokenAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["api.renderers.FastJSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["api.renderers.FastJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    "DEFAULT_THROTTLE_CLASSES": [
        "rest_framework.throttling.AnonRateThrottle",
        "rest_framework.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env.str("THROTTLE_ANON", default="600/min"),
        "user": env.str("THROTTLE_USER", default="6000/min"),
        "register": env.str("THROTTLE_REGISTER", default="120/hour"),
        "press": env.str("THROTTLE_PRESS", default="30/min"),
    },
    "UNAUTHENTICATED_USER": None,
}

# Seconds a verified bearer token is remembered in the cache (api/auth.py); 0 = off.
TOKEN_CACHE_SECONDS = _positive_int("TOKEN_CACHE_SECONDS", 30) if env.str("TOKEN_CACHE_SECONDS", default="") != "0" else 0
TOKEN_LOCAL_CACHE_SECONDS = float(env.str("TOKEN_LOCAL_CACHE_SECONDS", default="5"))
REST_KNOX = {
    "AUTH_HEADER_PREFIX": "Bearer",
    "TOKEN_TTL": None,  # play-by-email games last weeks; tokens are revoked, not expired
    "AUTO_REFRESH": False,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Sengoku API",
    "DESCRIPTION": (
        "Event-sourced server for Rising Sun, Shogun (with Tenno's Court) and the Imjin War. "
        "Authenticate with `Authorization: Bearer <token>`. Errors are `{code, detail}`. "
        "Webhooks are JSON POSTs signed with `X-Sengoku-Signature: t=<unix>,v1=<hex>` where "
        "v1 = HMAC-SHA256(secret, f\"{t}.{body}\")."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SCHEMA_PATH_PREFIX": "/api/v1",
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "ENUM_NAME_OVERRIDES": {},
    "PREPROCESSING_HOOKS": ["api.schema_extensions.drop_trailing_slash_twins"],
}

EMAIL_CONFIG = env.email_url("EMAIL_URL", default="consolemail://")
vars().update(EMAIL_CONFIG)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="sengoku@localhost")

CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
if REDIS_URL:
    CACHES["default"] = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}

SENGOKU = {
    "IDEMPOTENCY_TTL_HOURS": _positive_int("IDEMPOTENCY_TTL_HOURS", 48),
    "SNAPSHOT_EVERY": _positive_int("SNAPSHOT_EVERY", 50),
    "SSE_KEEPALIVE_SECONDS": _positive_int("SSE_KEEPALIVE_SECONDS", 15),
    "SSE_POLL_SECONDS": float(env.str("SSE_POLL_SECONDS", default="0.5")),
    "BOTS_INLINE": _strict_bool("BOTS_INLINE", False),
    # After-commit work (deadline sync, notifications, bots) in the request
    # instead of the worker: for tests and debugging.
    # Default: inline with the embedded filesystem broker (it delivers about one
    # message per poll, too slow to carry one task per command), queued with Redis.
    "HOOKS_INLINE": _strict_bool("HOOKS_INLINE", CELERY_BROKER_URL == "filesystem://"),
    # A bot's (or zombie seat's) next move in the same game waits this long: bots
    # play at a bounded rate per game and hand the worker back between moves.
    "BOT_MOVE_SECONDS": float(env.str("BOT_MOVE_SECONDS", default="0.25")),
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}

# ---- play-by-email layer (deadlines, notifications, webhooks) ------------------------------
# Deadlines are database rows swept by beat every DEADLINE_SWEEP_SECONDS (never
# long ETA tasks); the sweep task expires so a stopped worker does not leave a
# backlog of sweeps. DEADLINE_OUTAGE_SECONDS: if the sweeper finds it has not run
# for longer than this, every open deadline is extended by the downtime first.
DEADLINE_OUTAGE_SECONDS = _positive_int("DEADLINE_OUTAGE_SECONDS", 60)
# The clocks have their own entry (fire due deadlines only, every DEADLINE_FIRE_SECONDS),
# so reminders, catch-up and requeues never delay a deadline.
DEADLINE_FIRE_SECONDS = float(env.str("DEADLINE_FIRE_SECONDS", default="1"))
CELERY_BEAT_SCHEDULE = {
    "deadlines-fire": {
        "task": "games.deadlines.fire",
        "schedule": DEADLINE_FIRE_SECONDS,
        # priority 0 is the first the Redis transport hands out (every other task has
        # CELERY_TASK_DEFAULT_PRIORITY): a clock never waits behind the bots' queue
        "options": {"expires": max(2.0, 2.0 * DEADLINE_FIRE_SECONDS), "priority": 0},
    },
    "pbem-sweep": {
        "task": "games.pbem.sweep",
        "schedule": float(CELERY_BEAT_SWEEP_SECONDS),
        "options": {"expires": max(5.0, 3.0 * CELERY_BEAT_SWEEP_SECONDS)},
    },
}
VACATION_DAYS_PER_YEAR = _positive_int("VACATION_DAYS_PER_YEAR", 30)
WEBHOOK_TIMEOUT_SECONDS = float(env.str("WEBHOOK_TIMEOUT_SECONDS", default="5"))
WEBHOOK_MAX_ATTEMPTS = _positive_int("WEBHOOK_MAX_ATTEMPTS", 7)
WEBHOOK_BACKOFF_SECONDS = _positive_int("WEBHOOK_BACKOFF_SECONDS", 30)  # 30 s, 60 s, 120 s... (capped at 1 h)
# Loopback/private webhook targets are refused in production (SSRF); allowed by default elsewhere.
WEBHOOK_ALLOW_PRIVATE = _strict_bool("WEBHOOK_ALLOW_PRIVATE", not _strict_bool("SENGOKU_PRODUCTION", False))
PRESS_MAX_CHARS = _positive_int("PRESS_MAX_CHARS", 2000)
# Run notification deliveries in-process instead of queueing them (tests, debugging).
PBEM_INLINE = _strict_bool("PBEM_INLINE", False)
if CELERY_BROKER_URL == "filesystem://":
    # kombu's filesystem transport otherwise keeps its exchange table in ./control (the repo root).
    CELERY_BROKER_TRANSPORT_OPTIONS["control_folder"] = str(_broker_dir / "control")
