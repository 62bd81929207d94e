#!/usr/bin/env python3
"""The web client's pages on the embedded default (issue 15): each page's first
contentful paint in headless Chromium must come within 300 ms, and everything
it loads (HTML, CSS, scripts, the API answers and board picture its script
fetches) must weigh less than 200 KB on the wire.

Why, with the measurements and history: docs/modules.md, `bench/web_pages.py`.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import RESULTS, save, table  # noqa: E402

GOAL_PAINT_MS, GOAL_KB = 300, 200
PASSWORD = "a-l0ng-passphrase!"


def api(base: str, method: str, path: str, token: str | None = None, body=None):
    req = urllib.request.Request(
        f"{base}/api/v1{path}",
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={
            "Content-Type": "application/json",
            **({"Authorization": f"Bearer {token}"} if token else {}),
        },
    )
    with urllib.request.urlopen(req, timeout=60) as r:
        raw = r.read()
    return json.loads(raw) if raw else None


def game(base: str, token: str, bots: int = 2) -> str:
    g = api(base, "POST", "/games", token, {"ruleset": "rising-sun", "players": 3})
    for _ in range(bots):
        api(base, "POST", f"/games/{g['id']}/seats", token, {"bot": "random"})
    api(base, "POST", f"/games/{g['id']}/start", token)
    return g["id"]


def play_to_end(base: str, token: str, gid: str, seed: int) -> int:
    rnd = random.Random(seed)
    while True:
        meta = api(base, "GET", f"/games/{gid}", token)
        if meta["status"] != "running":
            return meta["version"]
        legal = api(base, "GET", f"/games/{gid}/legal-commands", token)
        if legal["pending"]:
            cmd = rnd.choice(legal["commands"] or legal["samples"])
            api(
                base,
                "POST",
                f"/games/{gid}/commands",
                token,
                {"command": cmd, "expected_version": legal["version"]},
            )


PAINT = """
const paint = performance.getEntriesByType('paint').find(p => p.name === 'first-contentful-paint');
const nav = performance.getEntriesByType('navigation')[0];
const bytes = [nav, ...performance.getEntriesByType('resource')].reduce((n, e) => n + (e.transferSize || 0), 0);
return [paint ? paint.startTime : null, bytes];
"""


def measure(driver, url: str, settle: str | None) -> tuple[float, int]:
    driver.get(url)
    end = time.monotonic() + 30
    while time.monotonic() < end:
        ready = driver.execute_script(f"return {settle or 'true'}")
        paint, _ = driver.execute_script(PAINT)
        if ready and paint is not None:
            break
        time.sleep(0.05)
    time.sleep(0.3)  # late fetches (board picture, catalogue) count towards the weight
    paint, size = driver.execute_script(PAINT)
    return paint, size


def main() -> None:
    from selenium import webdriver  # the dev dependency, only when the benchmark runs
    from selenium.webdriver.chrome.service import Service

    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--port", type=int, default=8766)
    a = ap.parse_args()
    if shutil.which("chromium") is None or shutil.which("chromedriver") is None:
        sys.exit("chromium and chromedriver are needed: scripts/browser.sh install")
    var = RESULTS / "web-var"
    shutil.rmtree(var, ignore_errors=True)
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL")}
    env.update(
        PORT=str(a.port),
        NO_CELERY="1",
        HOOKS_INLINE="1",
        BOTS_INLINE="1",
        ACCESS_LOG="",
        LOG_LEVEL="WARNING",
        SENGOKU_VAR_DIR=str(var),
        THROTTLE_REGISTER="1000/min",
    )
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # so that `finally` stops the server
    server = subprocess.Popen(
        [sys.executable, str(ROOT / "scripts" / "run_embedded.py")],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{a.port}"
    driver = None
    try:
        for _ in range(120):
            try:
                urllib.request.urlopen(f"{base}/api/v1/rulesets", timeout=2)
                break
            except urllib.error.HTTPError:
                break
            except OSError:
                time.sleep(1)
        token = api(base, "POST", "/accounts/register", None, {"username": "bench", "password": PASSWORD})[
            "token"
        ]
        finished = game(base, token)
        versions = play_to_end(base, token, finished, 1)
        running = game(base, token)
        opts = webdriver.ChromeOptions()
        opts.binary_location = shutil.which("chromium")
        for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1000"):
            opts.add_argument(arg)
        driver = webdriver.Chrome(options=opts, service=Service(shutil.which("chromedriver")))
        driver.get(f"{base}/accounts/signin")
        driver.find_element("id", "id_username").send_keys("bench")
        driver.find_element("id", "id_password").send_keys(PASSWORD)
        driver.find_element("css selector", "form.card button[type=submit]").click()
        pages = [
            ("lobby", "/", None),
            ("game", f"/games/{running}", "document.body.dataset.version !== undefined"),
            ("replay", f"/games/{finished}/replay", f"document.body.dataset.loaded === '{versions}'"),
            ("audit", f"/games/{finished}/audit", None),
        ]
        runs = []
        for rnd in range(1, a.rounds + 1):
            for name, path, settle in pages:
                paint, size = measure(driver, base + path, settle)
                runs.append({"round": rnd, "page": name, "paint_ms": round(paint, 1), "bytes": size})
        rows = []
        for name, _, _ in pages:
            mine = [r for r in runs if r["page"] == name]
            paint = statistics.median(r["paint_ms"] for r in mine)
            kb = max(r["bytes"] for r in mine) / 1024
            rows.append(
                [
                    name,
                    f"{paint:.0f}",
                    f"{max(r['paint_ms'] for r in mine):.0f}",
                    f"{kb:.1f}",
                    "met" if paint <= GOAL_PAINT_MS and kb < GOAL_KB else "NOT MET",
                ]
            )
        print(table(["page", "first paint ms (median)", "worst ms", "KB (largest)", "goal"], rows))
        save(
            "web_pages",
            {
                "runs": runs,
                "rounds": a.rounds,
                "game_versions": versions,
                "goal_paint_ms": GOAL_PAINT_MS,
                "goal_kb": GOAL_KB,
            },
        )
    finally:
        if driver is not None:
            driver.quit()
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
