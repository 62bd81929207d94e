"""One set of username rules for every door that creates or renames an account
(the API's register, the web sign-up form; the admin's renames keep the
skeleton current) -- issue 31.

Why, with the measurements and history: docs/modules.md, `accounts/usernames.py`.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from confusable_homoglyphs.confusables import confusables_data
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q

from .models import UsernameSkeleton, profile_of

USERNAME_MIN, USERNAME_MAX = 3, 40
USERNAME_RE = re.compile(rf"^[\w.@+-]{{{USERNAME_MIN},{USERNAME_MAX}}}\Z")
USERNAME_INPUT_MAX = 150  # what either door reads at all (Django's column); the rule above decides
USERNAME_HELP = f"{USERNAME_MIN}-{USERNAME_MAX} letters, digits and @.+-_"
_MARKS = "\u200e\u200f"  # the data wraps right-to-left characters in direction marks


class UsernameRefused(ValueError):
    """`code` is "invalid" (breaks the rules) or "taken" (taken or confusable)."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


@lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """Character -> the prototype of its confusable class. The data lists, for a
    prototype, the characters confusable with it and, for each of those, the
    prototype alone; a class of two characters that name only each other maps
    to the smaller. Prototypes may be sequences ("m" -> "rn")."""
    out: dict[str, str] = {}
    for char, entries in confusables_data.items():
        if len(char) != 1 or len(entries) != 1:
            continue
        target = entries[0]["c"].strip(_MARKS)
        back = confusables_data.get(target, [])
        if len(target) != 1 or len(back) != 1:
            out[char] = target
        elif target < char:  # two characters confusable only with each other
            out[char] = target
    return out


def normalize(name: str) -> str:
    return unicodedata.normalize("NFKC", name)


def _mapped(text: str) -> str:
    table = _prototypes()
    for _ in range(2):  # a prototype may be upper case ("0" -> "O") or a sequence to map again
        text = unicodedata.normalize("NFD", "".join(table.get(c, c) for c in text)).casefold()
    return text


def skeletons(name: str) -> tuple[str, str]:
    """Two strings equal for names that look alike. Case-insensitive looks are
    not one equivalence ("I" looks like "l" and is "i" in lower case, yet "i" is
    not "l"), so two skeletons: case-folded first ("аDMIN" ~ "admin") and
    mapped first ("Ilya" ~ "llya", as in UTS #39). A name is taken when either
    equals that of another account."""
    text = unicodedata.normalize("NFD", normalize(name))
    return _mapped(text.casefold()), _mapped(text)


def clean(name: str) -> str:
    """The stored form of a requested name, or UsernameRefused("invalid")."""
    if not isinstance(name, str) or len(name) > USERNAME_INPUT_MAX:
        raise UsernameRefused(f"at most {USERNAME_MAX} characters", "invalid")
    name = normalize(name)
    if not USERNAME_RE.match(name):
        if len(name) > USERNAME_MAX:
            raise UsernameRefused(f"at most {USERNAME_MAX} characters", "invalid")
        raise UsernameRefused(f"a username is {USERNAME_HELP}", "invalid")
    return name


def check_available(name: str, exclude_user_id: int | None = None) -> None:
    """UsernameRefused("taken") if the (cleaned) name or one that looks like it
    belongs to another account."""
    users = get_user_model().objects.filter(username__iexact=name)
    folded, shaped = skeletons(name)
    looks = UsernameSkeleton.objects.filter(Q(folded=folded) | Q(shaped=shaped))
    if exclude_user_id is not None:
        users, looks = users.exclude(pk=exclude_user_id), looks.exclude(user_id=exclude_user_id)
    if users.exists() or looks.exists():
        raise UsernameRefused("that username is taken (or looks like one that is)", "taken")


def create_account(username: str, password: str, email: str = "") -> User:
    """Create an account under the rules; the caller has cleaned `username` and
    validated the password (both before this, the hash is computed here).
    Raises UsernameRefused("taken") -- also when a confusable name won a race."""
    check_available(username)
    try:
        with transaction.atomic():
            user = get_user_model().objects.create_user(username, email, password)
            # the post_save signal stored the skeletons, or None where one collided
            row = UsernameSkeleton.objects.filter(user=user).first()
            if row is None or row.folded is None or row.shaped is None:
                raise UsernameRefused("that username is taken (or looks like one that is)", "taken")
            profile_of(user)
    except IntegrityError as exc:
        raise UsernameRefused("that username is taken (or looks like one that is)", "taken") from exc
    return user
