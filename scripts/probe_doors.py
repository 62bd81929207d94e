#!/usr/bin/env python3
"""Black-box checks of the doors an attacker tries first, against a running
server (`make run`, a staging host): the checks of issue 31, repeatable.

    .venv/bin/python scripts/probe_doors.py --base http://127.0.0.1:8000

Why, with the measurements and history: docs/modules.md, `scripts/probe_doors.py`.
"""

from __future__ import annotations

import argparse
import re
import secrets
import sys
import time

import httpx

API = "/api/v1"
PASSWORD_FIELDS = ("password", "password1", "password2")


class Probe:
    def __init__(self, base: str):
        self.base = base.rstrip("/")
        self.failed: list[str] = []

    def result(self, name: str, ok: bool, detail: str) -> None:
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {detail}", flush=True)
        if not ok:
            self.failed.append(name)

    def client(self, token: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(base_url=self.base, headers=headers, timeout=30, follow_redirects=False)

    def register(self, name: str) -> tuple[str, str]:
        password = "Kq7!" + secrets.token_urlsafe(12)
        with self.client() as c:
            r = c.post(
                f"{API}/accounts/register",
                json={"username": name, "password": password, "email": f"{name}@example.org"},
            )
        if r.status_code != 201:
            raise SystemExit(f"register {name}: HTTP {r.status_code} {r.text[:200]}")
        return r.json()["token"], password


def _form_post(c: httpx.Client, path: str, fields: dict[str, str]) -> httpx.Response:
    """GET the form (for the CSRF cookie and token), then POST it like a browser."""
    page = c.get(path)
    m = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
    data = dict(fields, csrfmiddlewaretoken=m.group(1) if m else "")
    return c.post(path, data=data, headers={"Referer": f"{c.base_url}{path}"})


def _signed_in(r: httpx.Response) -> bool:
    return r.status_code in (301, 302) and "signin" not in r.headers.get("location", "")


def check_lockout(p: Probe, limit: int) -> None:
    name = f"lk{secrets.token_hex(4)}"
    _, password = p.register(name)
    doors = [
        ("api", lambda c, pw: c.post(f"{API}/accounts/token", json={"username": name, "password": pw})),
        ("web", lambda c, pw: _form_post(c, "/accounts/signin", {"username": name, "password": pw})),
        (
            "admin",
            lambda c, pw: _form_post(c, "/admin/login/?next=/admin/", {"username": name, "password": pw}),
        ),
    ]
    statuses = []
    for i in range(limit):
        door, call = doors[i % len(doors)]
        with p.client() as c:
            statuses.append(f"{door}:{call(c, 'wrong-' + str(i)).status_code}")
    refused = {}
    for door, call in doors:
        with p.client() as c:
            r = call(c, password)
            refused[door] = (r.status_code, r.headers.get("Retry-After"), _signed_in(r))
    ok = all(st == 429 and not signed for st, _, signed in refused.values()) and refused["api"][1] is not None
    p.result(
        "lockout",
        ok,
        f"{limit} failures over 3 doors ({' '.join(statuses[:6])}...); right password then: "
        + ", ".join(f"{d} {st} (Retry-After {ra}, signed in {s})" for d, (st, ra, s) in refused.items()),
    )


def check_names(p: Probe, max_len: int) -> None:
    """Each door gets its own existing name to imitate: a look-alike accepted by one
    door would make the other door's attempt a plain duplicate."""
    out, ok = [], True
    for door in ("api", "web"):
        base = f"nm{secrets.token_hex(3)}a"
        p.register(base)
        for label, name in (("long", "n" * (max_len + 1)), ("confusable", base[:-1] + "\u0430")):
            pw = "Kq7!" + secrets.token_urlsafe(12)
            with p.client() as c:
                if door == "api":
                    st = c.post(
                        f"{API}/accounts/register", json={"username": name, "password": pw}
                    ).status_code
                    made = st == 201
                else:
                    r = _form_post(
                        c, "/accounts/signup", {"username": name, "password1": pw, "password2": pw}
                    )
                    st, made = r.status_code, _signed_in(r)
            ok &= not made and st < 500
            out.append(f"{door} {label}: {st} (created: {made})")
    p.result("names", ok, "; ".join(out))


def check_flood(p: Probe, max_signups: int) -> None:
    created = {"api": 0, "web": 0}
    first_429 = None
    for i in range(max_signups):
        door = "api" if i % 2 == 0 else "web"
        name = f"fl{secrets.token_hex(5)}"
        pw = "Kq7!" + secrets.token_urlsafe(12)
        with p.client() as c:
            if door == "api":
                st = c.post(f"{API}/accounts/register", json={"username": name, "password": pw}).status_code
                made = st == 201
            else:
                r = _form_post(c, "/accounts/signup", {"username": name, "password1": pw, "password2": pw})
                st, made = r.status_code, _signed_in(r)
        created[door] += made
        if st == 429:
            first_429 = door
            break
    if first_429 is None:
        p.result("flood", False, f"no 429 after {max_signups} sign-ups ({created})")
        return
    other = "web" if first_429 == "api" else "api"
    pw = "Kq7!" + secrets.token_urlsafe(12)
    with p.client() as c:
        if other == "api":
            st = c.post(
                f"{API}/accounts/register", json={"username": f"fl{secrets.token_hex(5)}", "password": pw}
            )
            st = st.status_code
        else:
            name = f"fl{secrets.token_hex(5)}"
            st = _form_post(
                c, "/accounts/signup", {"username": name, "password1": pw, "password2": pw}
            ).status_code
    p.result("flood", st == 429, f"created {created} before {first_429} said 429; then {other} said {st}")


def check_revocation(p: Probe, polls: int) -> None:
    name = f"rv{secrets.token_hex(4)}"
    token, password = p.register(name)
    warm = []
    for _ in range(polls):  # a connection each, so every web process caches the token
        with p.client(token) as c:
            warm.append(c.get(f"{API}/accounts/me").status_code)
    with p.client(token) as c:
        c.post(f"{API}/accounts/logout")
    t0 = time.monotonic()
    after = []
    while len(after) < polls:
        with p.client(token) as fresh:
            after.append(fresh.get(f"{API}/accounts/me").status_code)
    spent = time.monotonic() - t0
    leaks = sum(st == 200 for st in after)
    p.result(
        "revocation (logout)",
        leaks == 0 and all(st == 200 for st in warm),
        f"{polls} warm polls all 200: {all(st == 200 for st in warm)}; after logout {leaks} of {polls} "
        f"answered 200 over {spent:.1f} s",
    )
    # logout-all ends the web session of the same account.
    with p.client() as web:
        signin = _form_post(web, "/accounts/signin", {"username": name, "password": password})
        before = web.get(f"{API}/accounts/me").status_code
        with p.client() as c:
            tok = c.post(f"{API}/accounts/token", json={"username": name, "password": password}).json()[
                "token"
            ]
        with p.client(tok) as c:
            c.post(f"{API}/accounts/logout-all")
        afterwards = web.get(f"{API}/accounts/me").status_code
    p.result(
        "revocation (logout-all ends web sessions)",
        _signed_in(signin) and before == 200 and afterwards in (401, 403),
        f"web signed in {_signed_in(signin)}, /me {before} before, {afterwards} after logout-all",
    )


def _game(p: Probe) -> tuple[str, list[str]]:
    tokens = [p.register(f"eg{secrets.token_hex(4)}")[0] for _ in range(3)]
    with p.client(tokens[0]) as c:
        game = c.post(f"{API}/games", json={"ruleset": "rising-sun", "players": 3}).json()
    for t in tokens[1:]:
        with p.client(t) as c:
            c.post(f"{API}/games/{game['id']}/seats", json={})
    with p.client(tokens[0]) as c:
        c.post(f"{API}/games/{game['id']}/start", json={})
    return game["id"], tokens


def check_integers(p: Probe, gid: str, token: str) -> None:
    huge, big = str(2**63), "99999999999999999999"
    paths = [
        f"{API}/games/{gid}/events?after={huge}",
        f"{API}/games/{gid}/events?after=-1",
        f"{API}/games/{gid}/events?after=abc",
        f"{API}/games/{gid}/events?stream=1&after={big}",
        f"{API}/games/{gid}/replay?version={huge}",
        f"{API}/games/{gid}/board.svg?version={big}",
        f"{API}/schema?format=x",
        f"/games/{gid}/replay/{big}.json",
        f"/games/{gid}/board/{big}.svg",
    ]
    posts = [f"{API}/games/{gid}/takeback/{big}/accept", f"{API}/games/{gid}/takeback/{big}/refuse"]
    bad = []
    with p.client(token) as c:
        for path in paths:
            try:  # streamed: a 200 event stream is not read to its end
                with c.stream("GET", path, timeout=10) as r:
                    body = r.read() if r.status_code != 200 else b""
            except httpx.HTTPError as exc:  # broken off mid-answer
                bad.append(f"GET {path} {type(exc).__name__}")
                continue
            if r.status_code >= 500 or (
                path.startswith(API) and r.status_code >= 400 and b"code" not in body
            ):
                bad.append(f"GET {path} {r.status_code}")
        for path in posts:
            r = c.post(path, json={})
            if r.status_code >= 500 or "code" not in r.text:
                bad.append(f"POST {path} {r.status_code}")
    p.result("integers", not bad, f"{len(paths) + len(posts)} requests; bad: {bad or 'none'}")


def check_etag(p: Probe, gid: str, tokens: list[str]) -> None:
    out, ok = [], True
    for path in (f"{API}/games/{gid}/view", f"{API}/games/{gid}/board.svg"):
        with p.client(tokens[0]) as a, p.client(tokens[1]) as b:
            ra = a.get(path)
            tag = ra.headers.get("ETag")
            rb = b.get(path, headers={"If-None-Match": tag} if tag else {})
            cc, vary = ra.headers.get("Cache-Control", ""), ra.headers.get("Vary", "")
            good = rb.status_code == 200 and "private" in cc and bool(vary)
            if ra.status_code == 200 and rb.status_code == 200:
                good &= (ra.content != rb.content) == (rb.headers.get("ETag") != tag)
            ok &= good
            out.append(
                f"{path.rsplit('/', 1)[1]}: B with A's ETag -> {rb.status_code}; Cache-Control {cc!r}; Vary {vary!r}"
            )
    p.result("etag", ok, "; ".join(out))


def check_headers(p: Probe) -> None:
    needed = ["script-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]
    out, ok = [], True
    with p.client() as c:
        for path in ("/", "/accounts/signin", f"{API}/rulesets", "/admin/login/", f"{API}/docs"):
            r = c.get(path)
            csp = r.headers.get("Content-Security-Policy", "")
            script = next((d for d in csp.split(";") if d.strip().startswith("script-src")), "")
            good = (
                all(n in csp for n in needed)
                and "unsafe-inline" not in script
                and "unsafe-eval" not in script
                and bool(r.headers.get("Referrer-Policy"))
            )
            ok &= good
            out.append(f"{path} {r.status_code} {'csp ok' if good else 'csp MISSING/WEAK: ' + csp[:80]}")
    p.result("headers", ok, "; ".join(out))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", default="http://127.0.0.1:8000")
    ap.add_argument("--login-failures", type=int, default=10, help="THROTTLE_LOGIN_FAILURES' count")
    ap.add_argument("--polls", type=int, default=78)
    ap.add_argument("--max-username", type=int, default=40, help="the documented username length limit")
    ap.add_argument("--flood", action="store_true", help="sign up until the per-address limit answers")
    ap.add_argument("--max-signups", type=int, default=300)
    ap.add_argument("--only", default="", help="comma-separated check names")
    args = ap.parse_args()
    p = Probe(args.base)
    only = set(filter(None, args.only.split(",")))

    def wanted(name: str) -> bool:
        return not only or name in only

    if wanted("headers"):
        check_headers(p)
    if wanted("lockout"):
        check_lockout(p, args.login_failures)
    if wanted("names"):
        check_names(p, args.max_username)
    if wanted("revocation"):
        check_revocation(p, args.polls)
    if wanted("integers") or wanted("etag"):
        gid, tokens = _game(p)
        if wanted("integers"):
            check_integers(p, gid, tokens[0])
        if wanted("etag"):
            check_etag(p, gid, tokens)
    if args.flood and wanted("flood"):
        check_flood(p, args.max_signups)
    print(f"{len(p.failed)} check(s) failed: {', '.join(p.failed) or 'none'}")
    return len(p.failed)


if __name__ == "__main__":
    sys.exit(main())
