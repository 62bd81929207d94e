"""Settings, read from the environment with safe defaults for the embedded
default (`make run`: SQLite, filesystem Celery broker) and loud failures on bad
values. Every variable is listed in `.env.example`."""

from __future__ import annotations

import ipaddress
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import environ
from django.core.exceptions import ImproperlyConfigured
from kombu.entity import Queue

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(environ.Env().str("SENGOKU_VAR_DIR", default=str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)

env = environ.Env()
env.read_env(BASE_DIR / ".env", overwrite=False) if (BASE_DIR / ".env").exists() else None


def _positive_int(name: str, default: int) -> int:
    try:
        value: int = env.int(name, default=default)
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
if SECRET_KEY.startswith("change-me") and _strict_bool("SENGOKU_PRODUCTION", False):
    raise ImproperlyConfigured("SECRET_KEY is still the example value from .env.example: generate your own")
if len(SECRET_KEY) < 32:
    raise ImproperlyConfigured("SECRET_KEY must be at least 32 characters")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]", "testserver"])
PUBLIC_BASE_URL = env.str("PUBLIC_BASE_URL", default="http://127.0.0.1:8000").rstrip("/")
PRODUCTION = _strict_bool("SENGOKU_PRODUCTION", False)
# Reverse proxies whose X-Forwarded-For / X-Request-ID headers are believed (IPs or CIDRs).
TRUSTED_PROXIES = [p.strip() for p in env.list("TRUSTED_PROXIES", default=[]) if p.strip()]
for _proxy in TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_proxy, strict=False)
    except ValueError as exc:
        raise ImproperlyConfigured(f"TRUSTED_PROXIES: {_proxy!r} is not an IP address or network") from exc
# GET /metrics answers loopback clients, or anyone sending `Authorization: Bearer <METRICS_TOKEN>`.
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")
if METRICS_TOKEN and len(METRICS_TOKEN) < 16:
    raise ImproperlyConfigured("METRICS_TOKEN must be at least 16 characters (or empty: loopback only)")

# HTTPS. SENGOKU_TLS says the site is served over TLS (default: in production, or when
# PUBLIC_BASE_URL is https://): cookies are Secure, HSTS is sent, and the TLS-terminating
# proxy's X-Forwarded-Proto is believed. Plain-HTTP requests are redirected in production
# only, except the probes (health, metrics) that run inside.
TLS = _strict_bool("SENGOKU_TLS", PRODUCTION or PUBLIC_BASE_URL.startswith("https://"))
SECURE_SSL_REDIRECT = _strict_bool("SECURE_SSL_REDIRECT", PRODUCTION)
SECURE_REDIRECT_EXEMPT = [r"^api/v1/health/?$", r"^metrics/?$"]
if TLS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000 if TLS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = _strict_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SESSION_COOKIE_SECURE = _strict_bool("SESSION_COOKIE_SECURE", TLS)
CSRF_COOKIE_SECURE = _strict_bool("CSRF_COOKIE_SECURE", TLS)
X_FRAME_OPTIONS = "DENY"
# Private game ids (invite links) stay on this site: other sites get no Referer at all.
SECURE_REFERRER_POLICY = env.str("SECURE_REFERRER_POLICY", default="same-origin")
# Content-Security-Policy on every answer (django-csp's middleware). Every script, style
# and font is a file of ours ('self'); nothing inline, no eval, no plugins, no <base>, no
# framing; images may also be data: URIs (Swagger UI's icons, the page's empty favicon).
# The web templates, static scripts and the API docs page are written for it
# (tests/web/test_security_headers.py; docs/deployment.md, "Security headers").
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
    }
}
CSRF_TRUSTED_ORIGINS = [
    "{0.scheme}://{0.netloc}".format(urlsplit(PUBLIC_BASE_URL))
]  # the admin behind a proxy
# HSTS preloading is a commitment for the whole domain: the operator's decision, not ours.
SILENCED_SYSTEM_CHECKS = ["security.W021"]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI / Redoc assets served by us (whitenoise), no CDN
    "csp",
    "accounts",
    "events",
    "games",
    "api",
    "heartbeats",
    "ops",
    "web",  # the browser client: pages over the same services and the public API
]

MIDDLEWARE = [
    "config.observability.ObservabilityMiddleware",  # first: request id, access log, HTTP metrics
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",  # before whitenoise: static files and every error carry it too
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "api.middleware.JsonErrorsMiddleware",
    "django.middleware.common.CommonMiddleware",
    # The admin's (the API authenticates bearer tokens and is CSRF-exempt):
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "web.language.PageLanguageMiddleware",  # after auth: the account's language chooses the words
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ]
        },
    }
]

_db_url = env.str("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'sengoku.sqlite3'}")
if _db_url.split("://", 1)[0] not in ("sqlite", "postgres", "postgresql", "pgsql"):
    raise ImproperlyConfigured(
        f"DATABASE_URL must be sqlite:///… or postgres://…, got {_db_url.split(':', 1)[0]!r}"
    )
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
elif _strict_bool("DB_POOL", True):
    # Under ASGI each request runs in a thread of its own, so a persistent connection
    # per thread would mean a new connection per request: use psycopg's pool instead
    # (one per process; a request borrows a connection and returns it at its end).
    # config.postgres is Django's backend with a borrowed connection checked without
    # a round trip when its socket shows it is healthy (config/postgres/base.py).
    DATABASES["default"]["ENGINE"] = "config.postgres"
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 2,
        "max_size": _positive_int("DB_POOL_MAX_SIZE", 20),
        "timeout": 30,
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
PASSWORD_HASHERS = env.list(
    "PASSWORD_HASHERS",
    default=[
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    ],
)
# Every password check (API token and password change, web sign-in, admin login) goes
# through AccountBackend: one failure count per account, locked doors compute no hash
# (accounts/backends.py). ModelBackend stays listed only so browser sessions signed in
# before it keep working; AccountBackend answers every password check itself.
AUTHENTICATION_BACKENDS = [
    "accounts.backends.AccountBackend",
    "django.contrib.auth.backends.ModelBackend",
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
# The server's own sentences (error details, emails) in six languages: gettext
# catalogues under locale/ (.po committed, .mo compiled by scripts/compile_messages.py
# at install and test time). Names and card texts are the rulesets' own data
# (games/rules/<r>/data/i18n). The language of a request is chosen in games/services/language.py.
USE_I18N = True
LANGUAGES = [
    ("en", "English"),
    ("ja", "日本語"),
    ("zh-hant", "繁體中文"),
    ("zh-hans", "简体中文"),
    ("es", "Español"),
    ("ko", "한국어"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_TZ = True
STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STORAGES = {
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
LOGIN_URL = "/accounts/signin"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# Request bodies: commands are small; anything bigger is refused with 413.
DATA_UPLOAD_MAX_MEMORY_SIZE = _positive_int("MAX_REQUEST_BYTES", 64 * 1024)

REDIS_URL = env.str("REDIS_URL", default="")
# Without Redis: kombu's SQLAlchemy transport on var/celery-broker.sqlite3 (config/broker.py
# says why not the filesystem transport).
EMBEDDED_BROKER_URL = f"sengokusql+sqlite:///{VAR_DIR / 'celery-broker.sqlite3'}"
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=REDIS_URL or EMBEDDED_BROKER_URL)
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
# Two queues, and every worker takes from both in turn (kombu's fair cycle over a
# consumer's queues): "celery" for the play (each game's after-commit work and bot
# move, the deadline clocks and sweeps) and "mail" for notification deliveries. In
# one queue a burst of deliveries (a busy hour of turn emails) put every bot move and
# deadline behind it: under `make run` with three API games at full speed, bot seats
# of other games waited ~40 s a move.
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_QUEUES = (Queue("celery"), Queue("mail"))  # type: ignore[no-untyped-call]  # kombu is unannotated
CELERY_TASK_ROUTES = {"games.pbem.deliver": {"queue": "mail"}}
CELERY_TASK_ALWAYS_EAGER = _strict_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_TASK_DEFAULT_PRIORITY = 5  # 0 is the highest on Redis; the clocks' beat entry uses it
# Every task is in games/tasks.py, found by autodiscovery; beat and the services send them by name.
CELERY_BEAT_SWEEP_SECONDS = _positive_int("DEADLINE_SWEEP_SECONDS", 2)

REST_FRAMEWORK = {
    # Bearer tokens for API clients; the web client's pages call the same API with their
    # session cookie (DRF's SessionAuthentication enforces CSRF on writes).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.auth.BearerTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["api.renderers.FastJSONRenderer"],
    # depth, surrogates, NUL refused (api/parsers.py); the renderer is orjson's
    "DEFAULT_PARSER_CLASSES": ["api.parsers.StrictJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    "DEFAULT_THROTTLE_CLASSES": [
        "api.throttles.AnonRateThrottle",
        "api.throttles.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env.str("THROTTLE_ANON", default="600/min"),
        "user": env.str("THROTTLE_USER", default="6000/min"),
        "register": env.str("THROTTLE_REGISTER", default="120/hour"),
        "press": env.str("THROTTLE_PRESS", default="30/min"),
        "password": env.str("THROTTLE_PASSWORD", default="10/hour"),
    },
    "UNAUTHENTICATED_USER": None,
    # Trust X-Forwarded-For only behind this many proxies of our own (0: never;
    # a client could otherwise name a fresh address per request). api/throttles.py.
    "NUM_PROXIES": env.int("NUM_PROXIES", default=0),
}
if REST_FRAMEWORK["NUM_PROXIES"] < 0:
    raise ImproperlyConfigured("NUM_PROXIES must be 0 or more")
THROTTLE_LOGIN_FAILURES = env.str("THROTTLE_LOGIN_FAILURES", default="10/hour")  # per account

# Tokens expire TOKEN_TTL_DAYS after their last use (sliding; play-by-email players
# come back every few days, so an active client never has to log in again).
TOKEN_TTL_DAYS = _positive_int("TOKEN_TTL_DAYS", 30)
KNOX_TOKEN_MODEL = "knox.AuthToken"  # named so accounts.TokenInfo can point at it (knox's swappable model)
# Bearer tokens are read from the database on every request (api/auth.py): revocation
# is at once on every process (issue 31), so there is no token cache to configure.
REST_KNOX = {
    "AUTH_HEADER_PREFIX": "Bearer",
    "TOKEN_TTL": timedelta(days=TOKEN_TTL_DAYS),
    "AUTO_REFRESH": True,
    "MIN_REFRESH_INTERVAL": 60,  # seconds: expiry and last use are written at most this often
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Sengoku API",
    "DESCRIPTION": (
        "Event-sourced server for Rising Sun, Shogun (with Tenno's Court) and the Imjin War. "
        "Authenticate with `Authorization: Bearer <token>`. Errors are `{code, detail}`. "
        "Webhooks are JSON POSTs signed with `X-Sengoku-Signature: t=<unix>,v1=<hex>` where "
        'v1 = HMAC-SHA256(secret, f"{t}.{body}").'
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SCHEMA_PATH_PREFIX": "/api/v1",
    # The contract names bearer tokens only: the browser session is the web client's detail.
    "AUTHENTICATION_WHITELIST": ["api.auth.BearerTokenAuthentication"],
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "ENUM_NAME_OVERRIDES": {
        "ErrorCode": "games.services.errors.ErrorCode",
        "GameStatusEnum": ["open", "running", "finished", "aborted"],
        "TakebackReasonEnum": "games.services.undo.WHY_KEYS",
    },
    "PREPROCESSING_HOOKS": ["api.schema_extensions.drop_trailing_slash_twins"],
    # `<int64:…>` path parameters (api/converters.py): integers 0..2**63-1, else 404
    "PATH_CONVERTER_OVERRIDES": {
        "int64": {"type": "integer", "format": "int64", "minimum": 0, "maximum": 2**63 - 1}
    },
    # the rulesets' JSON Schemas as typed components (api/schema_typed.py)
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.schema_typed.typed_components",
    ],
    # the docs page works offline: its assets come from drf-spectacular-sidecar (pinned)
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # no badge fetched from the public validator (it would be a third-party image, and leak the URL)
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    "REDOC_DIST": "SIDECAR",
}

EMAIL_CONFIG = env.email_url("EMAIL_URL", default="consolemail://")
vars().update(EMAIL_CONFIG)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="sengoku@localhost")

CACHES: dict[str, dict[str, Any]] = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    # Rate-limit counters, stream leases and press logs: shared by every web process
    # and kept across restarts (the table is created by accounts/migrations/0002).
    # Past MAX_ENTRIES rows (300 by default) Django deletes the expired rows and then
    # a third of the live ones: live leases and logs vanished and let more through.
    # Each write also counts the rows, so the bound stays moderate (deployments with
    # that many active accounts at once use Redis).
    "throttle": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "sengoku_cache",
        "OPTIONS": {"MAX_ENTRIES": 20_000},
    },
}
if REDIS_URL:
    # one connection pool per process (config/cache.py: the stock backend opens one per ASGI request)
    CACHES["default"] = {"BACKEND": "config.cache.SharedPoolRedisCache", "LOCATION": REDIS_URL}
    CACHES["throttle"] = {**CACHES["default"], "KEY_PREFIX": "throttle"}

SENGOKU = {
    "IDEMPOTENCY_TTL_HOURS": _positive_int("IDEMPOTENCY_TTL_HOURS", 48),
    "SNAPSHOT_EVERY": _positive_int("SNAPSHOT_EVERY", 50),
    "SSE_KEEPALIVE_SECONDS": _positive_int("SSE_KEEPALIVE_SECONDS", 15),
    # Without Redis, how often each process's one stream listener reads the heads of
    # the streams it serves (events written by the worker or another web process).
    "SSE_POLL_SECONDS": float(env.str("SSE_POLL_SECONDS", default="0.25")),
    # Live streams (issue 10): at most STREAMS_PER_ACCOUNT open at once per account,
    # counted across every web process (api/live/slots.py), then 429 + Retry-After.
    # A stream ends (`event: reconnect`) after STREAM_IDLE_SECONDS without an event
    # or STREAM_MAX_SECONDS in all; the client resumes with Last-Event-ID.
    "STREAMS_PER_ACCOUNT": _positive_int("STREAMS_PER_ACCOUNT", 8),
    "STREAM_IDLE_SECONDS": _positive_int("STREAM_IDLE_SECONDS", 900),
    "STREAM_MAX_SECONDS": _positive_int("STREAM_MAX_SECONDS", 3600),
    "STREAM_RETRY_AFTER_SECONDS": _positive_int("STREAM_RETRY_AFTER_SECONDS", 10),
    # Threads per web process that do the streams' database reads (shared by all streams).
    "SSE_DB_THREADS": _positive_int("SSE_DB_THREADS", 4),
    "BOTS_INLINE": _strict_bool("BOTS_INLINE", False),
    # After-commit work (deadline sync, notifications, bots) in the request
    # instead of the worker: for tests and debugging.
    # Default: inline with the embedded SQLite broker (one SQLite transaction per
    # message: too slow to carry one task per command), queued with Redis.
    "HOOKS_INLINE": _strict_bool("HOOKS_INLINE", CELERY_BROKER_URL in ("filesystem://", EMBEDDED_BROKER_URL)),
    # A bot's (or zombie seat's) next move in the same game waits this long: bots
    # play at a bounded rate per game and hand the worker back between moves.
    "BOT_MOVE_SECONDS": float(env.str("BOT_MOVE_SECONDS", default="0.25")),
    # Thinking time of an `mcts` bot per decision (in the worker, never a request).
    "BOT_MCTS_SECONDS": float(env.str("BOT_MCTS_SECONDS", default="1.0")),
}

# The Ed25519 key that signs checkpoints (games/services/signing.py, docs/deployment.md):
# a file the server creates at first use when it is missing (0600, never in the database
# or an export). Production points SIGNING_KEY_FILE at a secret mounted on every web and
# worker process; `manage.py rotate_signing_key` replaces it and keeps the public half.
SIGNING_KEY_FILE = Path(env.str("SIGNING_KEY_FILE", default=str(VAR_DIR / "signing-key.json")))

# Structured logs (telemetry/logs.py): LOG_FORMAT=json (compose) or console (make run).
from telemetry import logs as _logs  # noqa: E402

LOG_FORMAT = env.str("LOG_FORMAT", default="console").strip().lower()
LOGGING = _logs.build(LOG_FORMAT, env.str("LOG_LEVEL", default="INFO"))
CELERY_WORKER_HIJACK_ROOT_LOGGER = False  # Celery's lines go through the same formatter

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
# Anchored heads (games/services/anchors.py): every ANCHOR_INTERVAL seconds beat sends
# games.anchor, which puts the checkpoints issued since the last anchor into an RFC 6962
# Merkle tree and has TSA_URL (an RFC 3161 timestamp authority) sign its root. No
# TSA_URL: no anchoring, and /health says so.
TSA_URL = env.str("TSA_URL", default="")
ANCHOR_INTERVAL = _positive_int("ANCHOR_INTERVAL", 600)
if TSA_URL:
    CELERY_BEAT_SCHEDULE["anchor"] = {
        "task": "games.anchor",
        "schedule": float(ANCHOR_INTERVAL),
        "options": {"expires": float(ANCHOR_INTERVAL)},
    }
# Background processes write a heartbeat every HEARTBEAT_SECONDS; /health answers 503
# when the worker or beat has been silent for HEARTBEAT_STALE_SECONDS.
HEARTBEAT_SECONDS = _positive_int("HEARTBEAT_SECONDS", 5)
HEARTBEAT_STALE_SECONDS = _positive_int("HEARTBEAT_STALE_SECONDS", 20)
VACATION_DAYS_PER_YEAR = _positive_int("VACATION_DAYS_PER_YEAR", 30)
WEBHOOK_TIMEOUT_SECONDS = float(env.str("WEBHOOK_TIMEOUT_SECONDS", default="5"))
WEBHOOK_MAX_ATTEMPTS = _positive_int("WEBHOOK_MAX_ATTEMPTS", 7)
WEBHOOK_BACKOFF_SECONDS = _positive_int("WEBHOOK_BACKOFF_SECONDS", 30)  # 30 s, 60 s, 120 s... (capped at 1 h)
# SSRF guard: webhook URLs resolving to private, link-local, reserved (or, unless
# WEBHOOK_ALLOW_LOOPBACK, loopback) addresses are refused when saved and again at
# delivery. The embedded default allows loopback (a receiver on your own machine);
# production (SENGOKU_PRODUCTION=true, as in compose) allows neither.
WEBHOOK_ALLOW_PRIVATE = _strict_bool("WEBHOOK_ALLOW_PRIVATE", False)
WEBHOOK_ALLOW_LOOPBACK = _strict_bool("WEBHOOK_ALLOW_LOOPBACK", not _strict_bool("SENGOKU_PRODUCTION", False))
PRESS_MAX_CHARS = _positive_int("PRESS_MAX_CHARS", 2000)
# Run notification deliveries in-process instead of queueing them (tests, debugging).
PBEM_INLINE = _strict_bool("PBEM_INLINE", False)
if CELERY_BROKER_URL == "filesystem://":
    # kombu's filesystem transport otherwise keeps its exchange table in ./control (the repo root).
    CELERY_BROKER_TRANSPORT_OPTIONS["control_folder"] = str(_broker_dir / "control")
