#!/usr/bin/env bash
# Create .venv (if missing) and install the pinned dependencies into it.
#   scripts/install.sh STAMPFILE
# Called by `make install` (and so by `make run` / `make test`) only when the
# stamp for the current requirements.lock + pyproject.toml is missing, so an
# up-to-date environment costs nothing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
STAMP=${1:-.venv/.installed}
PYTHON=${PYTHON:-python3}
VENV=${VENV:-.venv}

if [ ! -x "$VENV/bin/python" ]; then
  ver=$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null || echo none)
  if [ "$ver" != "3.11" ]; then
    echo "error: '$PYTHON' is Python $ver; Sengoku needs Python 3.11 (make PYTHON=python3.11 ...)" >&2
    exit 1
  fi
  echo "creating $VENV with $PYTHON ($ver)"
  "$PYTHON" -m venv "$VENV"
fi

python3 scripts/pyproject_deps.py --extra dev --check-lock requirements.lock
mkdir -p var
python3 scripts/pyproject_deps.py --extra dev >var/requirements-dev.txt
echo "installing dependencies (pinned by requirements.lock) into $VENV"
# (the filter drops this machine's noise about configured-but-absent local indexes)
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
  -c requirements.lock -r var/requirements-dev.txt 2>&1 \
  | { grep -v "is ignored: it is neither a file nor a directory" || true; }
# gettext catalogues (locale/*.po -> .mo) without needing GNU gettext on the machine
"$VENV/bin/python" scripts/compile_messages.py
rm -f "$VENV"/.installed-*
touch "$STAMP"
