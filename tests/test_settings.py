"""Settings fail loudly on bad values (each case in a fresh interpreter)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _boot(env_extra: dict) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", **env_extra)
    code = "import django; django.setup(); from django.conf import settings; print(settings.DATABASES['default']['ENGINE'])"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize(
    "env,message",
    [
        ({"SECRET_KEY": "short"}, "SECRET_KEY must be at least 32 characters"),
        ({"SENGOKU_PRODUCTION": "true"}, "SECRET_KEY must be set"),
        ({"DATABASE_URL": "nosuchdb://x"}, "DATABASE_URL"),
        ({"SNAPSHOT_EVERY": "often"}, "SNAPSHOT_EVERY must be an integer"),
        ({"SNAPSHOT_EVERY": "0"}, "SNAPSHOT_EVERY must be positive"),
        ({"DEBUG": "perhaps"}, "DEBUG"),
        ({"TRUSTED_PROXIES": "10.0.0.1,proxy.local"}, "TRUSTED_PROXIES: 'proxy.local'"),
        ({"METRICS_TOKEN": "short"}, "METRICS_TOKEN must be at least 16"),
        ({"LOG_FORMAT": "xml"}, "LOG_FORMAT must be json or console"),
    ],
)
def test_bad_settings_fail_loudly(env, message, tmp_path):
    r = _boot({"SENGOKU_VAR_DIR": str(tmp_path), **env})
    assert r.returncode != 0 and message in r.stderr, r.stderr[-500:]


def test_defaults_boot_with_sqlite(tmp_path):
    r = _boot({"SENGOKU_VAR_DIR": str(tmp_path)})
    assert r.returncode == 0 and "sqlite3" in r.stdout, r.stderr[-500:]
