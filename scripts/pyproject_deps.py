#!/usr/bin/env python3
"""Print the direct dependencies declared in pyproject.toml, one per line.

    python3 scripts/pyproject_deps.py            # [project].dependencies
    python3 scripts/pyproject_deps.py --extra dev  # ... plus the 'dev' extra

The output is a pip requirements file; the Makefile and the Dockerfile install
it with `pip install -c requirements.lock -r -` so versions come from the lock.
`--check-lock requirements.lock` exits 1 if a direct dependency has no pin.
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(req: str) -> str:
    m = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", req)
    if not m:
        raise SystemExit(f"cannot parse requirement {req!r}")
    return canonical(m.group(1))


def direct_deps(extras: list[str]) -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    deps = list(project.get("dependencies", []))
    optional = project.get("optional-dependencies", {})
    for extra in extras:
        if extra not in optional:
            raise SystemExit(f"pyproject.toml has no optional-dependencies.{extra}")
        deps += optional[extra]
    return deps


def pinned(lock: Path) -> dict[str, str]:
    pins = {}
    for line in lock.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if "==" in line:
            name, _, version = line.partition("==")
            pins[canonical(name.split("[")[0])] = version.strip()
    return pins


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--extra", action="append", default=[], help="also include this optional extra")
    ap.add_argument("--check-lock", type=Path, help="verify every dependency is pinned in this lock file")
    args = ap.parse_args()
    deps = direct_deps(args.extra)
    if args.check_lock:
        pins = pinned(args.check_lock)
        missing = [d for d in deps if requirement_name(d) not in pins]
        if missing:
            print(f"{args.check_lock}: no pin for {', '.join(missing)} -- run `make lock`", file=sys.stderr)
            return 1
        return 0
    sys.stdout.write("".join(f"{d}\n" for d in deps))
    return 0


if __name__ == "__main__":
    sys.exit(main())
