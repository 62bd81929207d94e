"""Keeps the account-security tables current whichever code saves a user or
signs a browser in (connected in AccountsConfig.ready)."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.db import IntegrityError, transaction
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.utils import timezone

from .models import UsernameSkeleton, WebSession
from .usernames import skeletons


@receiver(post_save, sender=get_user_model())
def _user_saved(sender, instance, created: bool, raw: bool = False, update_fields=None, **kwargs) -> None:
    """Store the name's skeletons on creation and renames (admin, shell,
    createsuperuser); a skeleton another account holds is stored as None here --
    the sign-up doors refuse such names before they get this far."""
    if raw or (update_fields is not None and "username" not in update_fields):
        return  # e.g. last_login on each sign-in: the name did not change
    folded, shaped = skeletons(instance.get_username())
    row = UsernameSkeleton.objects.filter(user=instance).first()
    if row is not None and (row.folded, row.shaped) == (folded, shaped):
        return
    row = row or UsernameSkeleton(user=instance)
    for field, value in (("folded", folded), ("shaped", shaped)):
        taken = UsernameSkeleton.objects.filter(**{field: value}).exclude(user=instance).exists()
        setattr(row, field, None if taken else value)
    try:
        with transaction.atomic():
            row.save()
    except IntegrityError:  # a racing save took a value between the check and here
        row.folded = row.shaped = None
        with transaction.atomic():
            UsernameSkeleton.objects.update_or_create(
                user=instance, defaults={"folded": None, "shaped": None}
            )


@receiver(user_logged_in)
def _signed_in(sender, request, user, **kwargs) -> None:
    session = getattr(request, "session", None)
    if session is None or session.session_key is None:
        return
    # the sessions older than their cookie's age are over anyway: forget them here
    old = timezone.now() - timedelta(seconds=settings.SESSION_COOKIE_AGE)
    WebSession.objects.filter(user=user, created_at__lt=old).delete()
    WebSession.objects.update_or_create(session_key=session.session_key, defaults={"user": user})


@receiver(user_logged_out)
def _signed_out(sender, request, user, **kwargs) -> None:
    session = getattr(request, "session", None)
    if session is not None and session.session_key:
        WebSession.objects.filter(session_key=session.session_key).delete()
