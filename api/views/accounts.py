"""Accounts: register, token, me; sessions (logout, logout-all, token list and
revocation, password change) in accounts/sessions.py."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import User as Account
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import transaction
from drf_spectacular.utils import extend_schema
from knox.models import AuthToken
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import sessions, usernames
from accounts.models import profile_of
from accounts.security import LoginLocked
from games.pbem.webhooks import RefusedTarget, check_url
from games.services.errors import Conflict, ErrorCode, Invalid, NotFound, ServiceError
from games.services.vacation import days_left, set_vacation

from ..serializers import (
    CredentialsSerializer,
    MeSerializer,
    PasswordChangeSerializer,
    RegisteredSerializer,
    RegisterSerializer,
    RevokedSerializer,
    TokenSerializer,
)
from ..throttles import SharedScopedRateThrottle, TooManyFailedLogins
from .common import errors, json_body, signed_in

User = get_user_model()


def check_password_once(request: Request, username: str, password: str) -> AbstractBaseUser | None:
    """The user if `password` is right, else None; counted per account with every
    other door (accounts.backends.AccountBackend); 429 while the account is locked,
    before any hash is computed."""
    try:
        return authenticate(request, username=username, password=password)
    except LoginLocked as exc:
        raise TooManyFailedLogins(exc.wait) from exc


class RegisterView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []
    throttle_classes = [SharedScopedRateThrottle]
    throttle_scope = "register"

    @extend_schema(
        request=RegisterSerializer,
        responses={201: RegisteredSerializer, **errors(400, 409, 429)},
        summary="Create an account and get a token",
        operation_id="register",
        auth=[],
        tags=["accounts"],
    )
    def post(self, request: Request) -> Response:
        s = RegisterSerializer(data=json_body(request))
        s.is_valid(raise_exception=True)
        d = s.validated_data
        # the same rules as the web sign-up form (accounts/usernames.py): NFKC, length, confusables
        try:
            username = usernames.clean(d["username"])
            usernames.check_available(username)
        except usernames.UsernameRefused as exc:
            raise _refused(exc) from exc
        candidate = User(username=username, email=d.get("email", ""))
        try:
            validate_password(d["password"], user=candidate)
        except DjangoValidationError as exc:
            raise Invalid(
                " ".join(exc.messages), code=ErrorCode.WEAK_PASSWORD, fields={"password": exc.messages}
            ) from exc
        try:
            with transaction.atomic():
                user = usernames.create_account(username, d["password"], d.get("email", ""))
                token = sessions.issue(user, d.get("client_name", ""))
        except usernames.UsernameRefused as exc:
            raise _refused(exc) from exc
        return Response({"id": user.id, "username": user.username, "token": token}, status=201)


def _refused(exc: usernames.UsernameRefused) -> ServiceError:
    if exc.code == "taken":
        return Conflict(str(exc), code=ErrorCode.USERNAME_TAKEN)
    return Invalid(f"username: {exc}", fields={"username": [str(exc)]})


class TokenView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []
    throttle_classes = [SharedScopedRateThrottle]
    throttle_scope = "register"

    @extend_schema(
        request=CredentialsSerializer,
        responses={200: TokenSerializer, **errors(400, 401, 429)},
        summary="Get a new token for a username and password",
        operation_id="token",
        auth=[],
        tags=["accounts"],
    )
    def post(self, request: Request) -> Response:
        s = CredentialsSerializer(data=json_body(request))
        s.is_valid(raise_exception=True)
        # credential stuffing: counted per account, whatever the address or door
        user = check_password_once(request, s.validated_data["username"], s.validated_data["password"])
        if user is None or not user.is_active:
            raise ServiceError("wrong username or password", code=ErrorCode.INVALID_CREDENTIALS, status=401)
        token = sessions.issue(user, s.validated_data.get("client_name", ""))
        return Response({"token": token})


def me_json(user: Account, current_token: AuthToken | None = None) -> dict[str, Any]:
    p = profile_of(user)
    return {
        "id": user.id,
        "username": user.username,
        "email": user.email,
        "email_notifications": p.email_notifications,
        "webhook_url": p.webhook_url,
        "has_webhook_secret": bool(p.webhook_secret),
        "vacation_until": p.vacation_until,
        "vacation_days_left": days_left(p),
        "language": p.language,
        "is_bot": p.is_bot,
        "tokens": sessions.listing(user, current_token),
    }


class MeView(APIView):
    @extend_schema(
        responses={200: MeSerializer, **errors(401)},
        summary="Your profile and settings",
        operation_id="me_get",
        tags=["accounts"],
    )
    def get(self, request: Request) -> Response:
        return Response(MeSerializer(me_json(signed_in(request), request.auth)).data)

    @extend_schema(
        request=MeSerializer,
        responses={200: MeSerializer, **errors(400, 401)},
        summary="Change your email, notification settings, webhook, vacation or bot flag",
        operation_id="me_update",
        tags=["accounts"],
    )
    def patch(self, request: Request) -> Response:
        s = MeSerializer(data=json_body(request), partial=True)
        s.is_valid(raise_exception=True)
        d = s.validated_data
        user = signed_in(request)
        p = profile_of(user)
        if d.get("webhook_url"):
            try:
                check_url(d["webhook_url"])
            except RefusedTarget as exc:
                raise Invalid(
                    str(exc), code=ErrorCode.WEBHOOK_REFUSED, fields={"webhook_url": [str(exc)]}
                ) from exc
        with transaction.atomic():
            if "email" in d:
                user.email = d["email"]
                user.save(update_fields=["email"])
            for f in ("email_notifications", "webhook_url", "webhook_secret", "language", "is_bot"):
                if f in d:
                    setattr(p, f, d[f])
            p.save()
            if "vacation_until" in d:
                set_vacation(user, d["vacation_until"])
        return Response(MeSerializer(me_json(user, request.auth)).data)


class LogoutView(APIView):
    @extend_schema(
        request=None,
        responses={200: RevokedSerializer, **errors(401)},
        summary="Revoke the token this request is made with",
        operation_id="logout",
        tags=["accounts"],
    )
    def post(self, request: Request) -> Response:
        return Response({"revoked": sessions.revoke(request.auth)})


class LogoutAllView(APIView):
    @extend_schema(
        request=None,
        responses={200: RevokedSerializer, **errors(401)},
        summary="Revoke every token of your account, this one included",
        operation_id="logout_all",
        tags=["accounts"],
    )
    def post(self, request: Request) -> Response:
        revoked = sessions.revoke_all(request.user)
        sessions.end_web_sessions(request.user)  # the browsers too, this one included
        return Response({"revoked": revoked})


class TokenRevokeView(APIView):
    @extend_schema(
        request=None,
        responses={204: None, **errors(401, 404)},
        summary="Revoke one of your tokens by its id in /accounts/me",
        operation_id="revoke_token",
        tags=["accounts"],
    )
    def delete(self, request: Request, token_id: int) -> Response:
        if token_id > 2**62 or not sessions.revoke_by_id(request.user, token_id):
            raise NotFound("no such token", code=ErrorCode.TOKEN_NOT_FOUND)
        return Response(status=204)


class PasswordView(APIView):
    throttle_classes = [SharedScopedRateThrottle]
    throttle_scope = "password"

    @extend_schema(
        request=PasswordChangeSerializer,
        responses={200: RevokedSerializer, **errors(400, 401, 429)},
        summary="Change your password; every other token is revoked (this one stays)",
        operation_id="change_password",
        tags=["accounts"],
    )
    def post(self, request: Request) -> Response:
        s = PasswordChangeSerializer(data=json_body(request))
        s.is_valid(raise_exception=True)
        d, user = s.validated_data, signed_in(request)
        # counted with the account's other failed logins: a stolen session cannot guess on
        if check_password_once(request, user.get_username(), d["current_password"]) is None:
            raise Invalid(
                "the current password is wrong",
                code=ErrorCode.WRONG_PASSWORD,
                fields={"current_password": ["wrong password"]},
            )
        try:
            validate_password(d["new_password"], user=user)
        except DjangoValidationError as exc:
            raise Invalid(
                " ".join(exc.messages), code=ErrorCode.WEAK_PASSWORD, fields={"new_password": exc.messages}
            ) from exc
        with transaction.atomic():
            user.set_password(d["new_password"])
            user.save(update_fields=["password"])
            revoked = sessions.revoke_all(user, keep=request.auth)
            # the browsers signed in end too (their session hash no longer matches);
            # a change made from a browser keeps that one
            kept = sessions.keep_signed_in(request._request, user)
            sessions.end_web_sessions(user, keep=kept)
        return Response({"revoked": revoked})
