"""Issue 31: the web's account doors as tight as the API's.

* One failure count per account at every door (API token, web sign-in, /admin/
  login, password change); a locked account is refused at each of them, even
  with the right password, and no password is checked while it is locked.
* One sign-up throttle per address for the API and the web form, refused
  before any password hash is computed.
* One set of username rules on both doors: length, NFKC, confusables.
* logout-all and a password change end the account's browser sessions.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.test import Client

from tests.conftest import Api, register

pytestmark = pytest.mark.django_db
User = get_user_model()
REG, TOKEN = "/api/v1/accounts/register", "/api/v1/accounts/token"
PASSWORD = "Xq9!mountain-river"


@pytest.fixture
def hashes(monkeypatch):
    """Counts password hashes computed (checked or made) by the configured hasher."""
    calls = {"verify": 0, "encode": 0}
    verify, encode = PBKDF2PasswordHasher.verify, PBKDF2PasswordHasher.encode

    def counting_verify(self, *a, **kw):
        calls["verify"] += 1
        return verify(self, *a, **kw)

    def counting_encode(self, *a, **kw):
        calls["encode"] += 1
        return encode(self, *a, **kw)

    monkeypatch.setattr(PBKDF2PasswordHasher, "verify", counting_verify)
    monkeypatch.setattr(PBKDF2PasswordHasher, "encode", counting_encode)
    return calls


def web_signin(client: Client, username: str, password: str):
    return client.post("/accounts/signin", {"username": username, "password": password, "next": "/"})


def admin_login(client: Client, username: str, password: str):
    return client.post(
        "/admin/login/?next=/admin/", {"username": username, "password": password, "next": "/admin/"}
    )


def signed_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


# --- one failure count per account, every door ---------------------------------------


def test_failures_at_every_door_share_one_count_and_lock_every_door(rates, hashes):
    victim = register("victim")
    User.objects.filter(pk=victim.id).update(is_staff=True)
    rates(failures="4/hour")
    # one failure at each door
    assert Api().post(TOKEN, {"username": victim.name, "password": "nope-1"}).status_code == 401
    r = web_signin(Client(), victim.name, "nope-2")
    assert r.status_code == 200
    r = admin_login(Client(), victim.name, "nope-3")
    assert r.status_code == 200
    r = Api(victim.token).post(
        "/api/v1/accounts/me/password", {"current_password": "nope-4", "new_password": "An0ther-passphrase!"}
    )
    assert r.status_code == 400 and r.json()["code"] == "wrong_password"

    # four failures: locked at every door, even with the right password, and no hash is checked
    checked = hashes["verify"]
    r = Api().post(TOKEN, {"username": victim.name, "password": victim.password})
    assert r.status_code == 429 and r.json()["code"] == "too_many_failed_logins"
    assert 0 < int(r["Retry-After"]) <= 3600

    web = Client()
    r = web_signin(web, victim.name, victim.password)
    assert r.status_code == 429 and not signed_in(web)
    assert "Too many failed sign-ins" in r.content.decode() and r["Retry-After"]

    adm = Client()
    r = admin_login(adm, victim.name, victim.password)
    assert r.status_code == 429 and not signed_in(adm)
    assert "Too many failed sign-ins" in r.content.decode()

    r = Api(victim.token).post(
        "/api/v1/accounts/me/password",
        {"current_password": victim.password, "new_password": "An0ther-passphrase!"},
    )
    assert r.status_code == 429 and r.json()["code"] == "too_many_failed_logins" and r["Retry-After"]
    assert hashes["verify"] == checked, "a password was checked while the account was locked"
    # the password did not change
    assert User.objects.get(pk=victim.id).check_password(victim.password)


def test_web_failures_alone_lock_the_api_door(rates):
    victim = register("webguessed")
    rates(failures="3/hour")
    for i in range(3):
        assert web_signin(Client(), victim.name, f"guess-{i}").status_code == 200
    r = Api().post(TOKEN, {"username": victim.name, "password": victim.password})
    assert r.status_code == 429 and r.json()["code"] == "too_many_failed_logins"


def test_admin_failures_lock_the_web_form_and_a_case_change_does_not_escape(rates):
    victim = register("opsperson")
    rates(failures="2/hour")
    for i in range(2):
        admin_login(Client(), victim.name.upper(), f"guess-{i}")
    r = web_signin(Client(), victim.name, victim.password)
    assert r.status_code == 429


def test_a_web_sign_in_clears_the_shared_count(rates):
    user = register("forgetful")
    rates(failures="3/hour")
    for _ in range(2):
        Api().post(TOKEN, {"username": user.name, "password": "wrong"})
    c = Client()
    assert web_signin(c, user.name, user.password).status_code == 302 and signed_in(c)
    for _ in range(2):
        Api().post(TOKEN, {"username": user.name, "password": "wrong"})
    assert Api().post(TOKEN, {"username": user.name, "password": user.password}).status_code == 200


# --- one sign-up throttle per address -------------------------------------------------


def test_web_sign_up_shares_the_api_register_counter_and_hashes_nothing_when_refused(rates, hashes):
    rates(register="3/hour")
    addr = {"REMOTE_ADDR": "203.0.113.77"}
    for i in range(2):
        assert Api().post(REG, {"username": f"flood{i}", "password": PASSWORD}, **addr).status_code == 201
    form = {"username": "flood2", "password1": PASSWORD, "password2": PASSWORD}
    assert Client().post("/accounts/signup", form, **addr).status_code == 302
    before = User.objects.count(), hashes["encode"]
    r = Client().post("/accounts/signup", {**form, "username": "flood3"}, **addr)
    assert r.status_code == 429 and "Too many sign-ups" in r.content.decode() and r["Retry-After"]
    assert (User.objects.count(), hashes["encode"]) == before
    # the API register door is closed for this address too
    r = Api().post(REG, {"username": "flood4", "password": PASSWORD}, **addr)
    assert r.status_code == 429
    # another address is not
    r = Client().post("/accounts/signup", {**form, "username": "flood5"}, REMOTE_ADDR="203.0.113.78")
    assert r.status_code == 302


def test_web_sign_up_reads_the_address_like_the_api(rates, settings):
    """X-Forwarded-For is trusted only NUM_PROXIES hops deep, on the form too."""
    rates(register="1/hour")
    form = {"password1": PASSWORD, "password2": PASSWORD}
    spoofed = [
        Client()
        .post(
            "/accounts/signup",
            {**form, "username": f"xff{i}"},
            HTTP_X_FORWARDED_FOR=f"10.0.0.{i}",
            REMOTE_ADDR="198.51.100.9",
        )
        .status_code
        for i in range(2)
    ]
    assert spoofed == [302, 429]


# --- one set of username rules ----------------------------------------------------------


def api_signup(name: str) -> tuple[int, bool]:
    r = Api().post(REG, {"username": name, "password": PASSWORD})
    return r.status_code, r.status_code == 201


def web_signup(name: str) -> tuple[int, bool]:
    before = User.objects.count()
    r = Client().post("/accounts/signup", {"username": name, "password1": PASSWORD, "password2": PASSWORD})
    return r.status_code, User.objects.count() > before


@pytest.mark.parametrize("door", [api_signup, web_signup], ids=["api", "web"])
@pytest.mark.parametrize(
    "name",
    [
        "x" * 41,  # the API's limit is 40; the web form took up to 150
        "x" * 150,
        "ａｄｍｉｎ",  # fullwidth: NFKC-equal to an existing name
        "Admin",  # a case change
        "аdmin",  # Cyrillic а: looks like "admin"
        "admіn",  # Ukrainian і
        "ad",  # too short
        "no spaces",
    ],
)
def test_username_rules_are_the_same_on_both_doors(door, name):
    User.objects.create_user("admin", "", PASSWORD)
    status, created = door(name)
    assert not created
    assert status in (200, 400, 409)
    assert User.objects.filter(username__iexact="admin").count() == 1


def test_the_api_answers_username_refusals_in_its_error_shape():
    User.objects.create_user("admin", "", PASSWORD)
    r = Api().post(REG, {"username": "аdmin", "password": PASSWORD})
    assert r.status_code == 409 and r.json()["code"] == "username_taken"
    r = Api().post(REG, {"username": "x" * 41, "password": PASSWORD})
    assert r.status_code == 400 and r.json()["code"] == "invalid" and "username" in r.json()["fields"]


@pytest.mark.parametrize("door", [api_signup, web_signup], ids=["api", "web"])
def test_names_are_stored_nfkc_normalised(door):
    status, created = door("Ｋｅｎｊｉ")
    assert created, status
    assert User.objects.filter(username="Kenji").exists()
    # and the stored form signs in whichever way it is typed
    assert Api().post(TOKEN, {"username": "Ｋｅｎｊｉ", "password": PASSWORD}).status_code == 200


def test_a_name_confusable_with_a_renamed_account_is_refused():
    """The skeleton follows renames (the admin can rename; the API cannot)."""
    u = User.objects.create_user("oldname", "", PASSWORD)
    u.username = "paypal"
    u.save()
    assert api_signup("pаypаl")[0] == 409  # Cyrillic а twice
    assert api_signup("oldname")[0] == 201


# --- revocation ends browser sessions too ---------------------------------------------------


def web_session(user) -> Client:
    c = Client()
    assert web_signin(c, user.name, user.password).status_code == 302
    assert c.get("/accounts/settings").status_code == 200
    return c


def test_logout_all_ends_the_accounts_browser_sessions():
    user, other = register("manydevices"), register("bystander2")
    phone, laptop, theirs = web_session(user), web_session(user), web_session(other)
    r = Api(user.token).post("/api/v1/accounts/logout-all")
    assert r.status_code == 200
    for c in (phone, laptop):
        assert c.get("/accounts/settings").status_code == 302
        assert c.get("/api/v1/accounts/me").status_code in (401, 403)
    assert theirs.get("/accounts/settings").status_code == 200


def test_logout_all_from_a_browser_session_ends_that_session_too():
    user = register("browseronly")
    c = Client(enforce_csrf_checks=False)
    assert web_signin(c, user.name, user.password).status_code == 302
    assert c.post("/api/v1/accounts/logout-all", content_type="application/json").status_code == 200
    assert c.get("/accounts/settings").status_code == 302
    assert Api(user.token).get("/api/v1/accounts/me").status_code == 401


def test_a_password_change_ends_the_other_browser_sessions():
    user = register("changer")
    laptop = web_session(user)
    r = Api(user.token).post(
        "/api/v1/accounts/me/password",
        {"current_password": user.password, "new_password": "An0ther-passphrase!"},
    )
    assert r.status_code == 200
    assert laptop.get("/accounts/settings").status_code == 302
    assert Api(user.token).get("/api/v1/accounts/me").status_code == 200  # the token used stays


def test_a_password_change_from_a_browser_keeps_that_session():
    user = register("keeper")
    here, there = web_session(user), web_session(user)
    r = here.post(
        "/api/v1/accounts/me/password",
        {"current_password": user.password, "new_password": "An0ther-passphrase!"},
        content_type="application/json",
    )
    assert r.status_code == 200, r.content
    assert here.get("/accounts/settings").status_code == 200
    assert there.get("/accounts/settings").status_code == 302


def test_the_admin_password_change_is_a_counted_door_and_revokes_like_the_api(rates):
    user = register("staffer")
    User.objects.filter(pk=user.id).update(is_staff=True)
    rates(failures="2/hour")
    admin = Client()
    assert admin_login(admin, user.name, user.password).status_code == 302
    other = web_session(user)
    form = {"new_password1": "An0ther-passphrase!", "new_password2": "An0ther-passphrase!"}
    r = admin.post("/admin/password_change/", {**form, "old_password": "wrong"})
    assert r.status_code == 200 and "incorrect" in r.content.decode()
    r = admin.post("/admin/password_change/", {**form, "old_password": user.password})
    assert r.status_code == 302 and r["Location"] == "/admin/password_change/done/"
    assert Api(user.token).get("/api/v1/accounts/me").status_code == 401
    assert other.get("/accounts/settings").status_code == 302
    assert admin.get("/admin/").status_code == 200  # the session that changed it stays
    # the success cleared the count; two failures now lock every door, this one included
    for _ in range(2):
        admin.post("/admin/password_change/", {**form, "old_password": "wrong"})
    r = admin.post("/admin/password_change/", {**form, "old_password": "An0ther-passphrase!"})
    assert r.status_code == 429 and "Too many failed sign-ins" in r.content.decode()
    assert Api().post(TOKEN, {"username": user.name, "password": "An0ther-passphrase!"}).status_code == 429
