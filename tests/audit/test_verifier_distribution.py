"""`pip install ./verifier` in a fresh virtual environment gives `sengoku-verify`,
which verifies a real export offline with no Django anywhere in that environment.

The install itself asks no index: the build backend and the dependencies come as
wheels from this machine's local package mirror (/opt/pypi/files) when present,
and the one wheel it lacks (rfc3161-client, pinned in requirements.lock) is fetched
once by the project's own pip (cached after the first run)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from games import verify

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "games"
MIRROR = Path("/opt/pypi/files")


def _pinned(name: str) -> str:
    text = (ROOT / "requirements.lock").read_text()
    return re.search(rf"^{re.escape(name)}==(\S+)$", text, re.MULTILINE).group(1)


def _run(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "PYTHONPATH")}
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=env, cwd="/")


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh venv with ./verifier installed; its bin folder."""
    folder = tmp_path_factory.mktemp("verifier")
    wheels = folder / "wheels"
    got = _run(
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--only-binary=:all:",
        "-q",
        "-d",
        str(wheels),
        f"rfc3161-client=={_pinned('rfc3161-client')}",
    )
    assert got.returncode == 0, got.stderr
    venv = folder / "venv"
    made = _run(sys.executable, "-m", "venv", "--without-pip", str(venv))
    assert made.returncode == 0, made.stderr
    links = ["--find-links", str(wheels)] + (["--find-links", str(MIRROR)] if MIRROR.is_dir() else [])
    index = ["--no-index"] if MIRROR.is_dir() else []
    # the project's pip installs into the fresh venv (--python): no pip needs bootstrapping there
    done = _run(
        sys.executable,
        "-m",
        "pip",
        "--python",
        str(venv / "bin" / "python"),
        "install",
        "-q",
        *index,
        *links,
        str(ROOT / "verifier"),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return venv / "bin"


def test_the_distribution_is_named_and_versioned_where_the_docs_say():
    project = tomllib.loads((ROOT / "verifier" / "pyproject.toml").read_text())["project"]
    assert project["name"] == verify.DISTRIBUTION == "sengoku-verify"
    assert "django" not in " ".join(project["dependencies"]).lower()
    for text in (
        (ROOT / "docs" / "audit.md").read_text(),
        (ROOT / "web/templates/web/_verify_install.html").read_text(),
    ):
        assert f"{verify.DISTRIBUTION}=={verify.__version__}" in text or "{{ verifier_pin }}" in text


def test_sengoku_verify_checks_a_real_export_offline(installed, tmp_path):
    game = FIXTURES / "imjin-2p-v4-a.jsonl"
    ok = _run(str(installed / "sengoku-verify"), str(game))
    assert ok.returncode == 0 and "VERIFIED" in ok.stdout and "replay       ok" in ok.stdout, (
        ok.stdout + ok.stderr
    )
    rows = [json.loads(line) for line in game.read_text().splitlines()]
    rows[5]["payload"]["forged"] = True
    forged = tmp_path / "forged.jsonl"
    forged.write_text("".join(json.dumps(r) + "\n" for r in rows))
    bad = _run(str(installed / "sengoku-verify"), str(forged))
    assert bad.returncode == 1 and "NOT VERIFIED" in bad.stdout
    python = str(installed / "python")
    alone = _run(
        python,
        "-c",
        "import importlib.util as u, games.verify as v; print(u.find_spec('django'), v.__version__)",
    )
    assert alone.returncode == 0 and alone.stdout.split() == ["None", verify.__version__], alone.stderr
    module = _run(python, "-m", "games.verify", str(game), "--json")
    assert module.returncode == 0 and json.loads(module.stdout)["ok"] is True
