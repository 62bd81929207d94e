"""Vacation: a user may stop the clocks of all their seats for up to
VACATION_DAYS_PER_YEAR days a year (`PATCH /accounts/me {vacation_until}`).

Days are charged when a vacation is set, to the current calendar year (UTC);
shortening, moving or cancelling an active vacation refunds the unused part
first, so only time actually taken counts. While a player is on vacation each
of their open deadlines is frozen with the time it had left and resumes, when
the vacation ends, from the vacation's end (not from when the sweeper noticed).

It lives with the games' services, not in `accounts`: it moves game clocks,
and accounts (users, profiles) sit below games in the layers.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from accounts.models import Profile, profile_of

from . import deadlines
from .errors import ErrorCode, Invalid

EPSILON_DAYS = 1e-6


def days_per_year() -> float:
    """The vacation days each player may take per year (VACATION_DAYS_PER_YEAR)."""
    return float(getattr(settings, "VACATION_DAYS_PER_YEAR", 30))


def _used(profile: Profile, year: str) -> float:
    try:
        return float((profile.vacation_days_used or {}).get(year, 0))
    except (TypeError, ValueError):
        return 0.0


def on_vacation(profile: Profile, now: datetime | None = None) -> bool:
    """Whether the profile's vacation runs at `now`."""
    now = now or timezone.now()
    return profile.vacation_until is not None and profile.vacation_until > now


def _unused_days(profile: Profile, now: datetime) -> float:
    if profile.vacation_until is None or not on_vacation(profile, now):
        return 0.0
    return (profile.vacation_until - now).total_seconds() / 86400


def days_left(profile: Profile, now: datetime | None = None) -> float:
    """Days still available this year (the unused rest of an active vacation is
    counted as taken until it is shortened or cancelled)."""
    now = now or timezone.now()
    return max(0.0, days_per_year() - _used(profile, str(now.year)))


def set_vacation(user: User, until: datetime | None) -> None:
    """Start, move or end (`until` None or in the past) the user's vacation.
    Raises Invalid(`vacation_exhausted`) beyond the yearly allowance."""
    with transaction.atomic():
        _set_vacation(user, until)


def _set_vacation(user: User, until: datetime | None) -> None:
    p = Profile.objects.select_for_update().get(pk=profile_of(user).pk)
    now = timezone.now()
    year = str(now.year)
    used = _used(p, year) - _unused_days(p, now)  # refund the rest of the current vacation first
    if until is None or until <= now:
        p.vacation_until = None
    else:
        days = (until - now).total_seconds() / 86400
        available = max(0.0, days_per_year() - used)
        if days > available + EPSILON_DAYS:
            raise Invalid(
                f"you have {available:.2f} vacation days left this year; that vacation needs {days:.2f}",
                code=ErrorCode.VACATION_EXHAUSTED,
                fields={"vacation_until": ["beyond your vacation days"]},
            )
        used += days
        p.vacation_until = until
    p.vacation_days_used = {**(p.vacation_days_used or {}), year: round(max(0.0, used), 6)}
    p.save(update_fields=["vacation_until", "vacation_days_used"])
    deadlines.vacation_changed(user, now)
