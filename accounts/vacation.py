"""Vacation: a user may stop their clocks up to VACATION_DAYS_PER_YEAR days a year."""

from __future__ import annotations

from django.conf import settings
from django.utils import timezone

from games.services.errors import Invalid

from .models import profile_of

DAYS_PER_YEAR = float(getattr(settings, "VACATION_DAYS_PER_YEAR", 30))


def days_left(profile) -> float:
    year = str(timezone.now().year)
    return max(0.0, DAYS_PER_YEAR - float(profile.vacation_days_used.get(year, 0)))


def set_vacation(user, until) -> None:
    p = profile_of(user)
    now = timezone.now()
    if until is None or until <= now:
        p.vacation_until = None
        p.save(update_fields=["vacation_until"])
        return
    days = (until - now).total_seconds() / 86400
    if days > days_left(p):
        raise Invalid(f"you have {days_left(p):.1f} vacation days left this year", code="vacation_exhausted")
    year = str(now.year)
    p.vacation_days_used = {**p.vacation_days_used, year: float(p.vacation_days_used.get(year, 0)) + days}
    p.vacation_until = until
    p.save(update_fields=["vacation_until", "vacation_days_used"])
