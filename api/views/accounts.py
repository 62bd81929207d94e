"""Accounts: register, token, me."""

from __future__ import annotations

from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from drf_spectacular.utils import extend_schema
from knox.models import AuthToken
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from accounts.models import profile_of
from games.services.errors import Conflict, Invalid, ServiceError
from games.services.vacation import days_left, set_vacation

from ..serializers import (
    CredentialsSerializer,
    MeSerializer,
    RegisteredSerializer,
    RegisterSerializer,
    TokenSerializer,
)
from .common import errors, json_body

User = get_user_model()


class RegisterView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "register"

    @extend_schema(request=RegisterSerializer, responses={201: RegisteredSerializer, **errors(400, 409, 429)},
                   summary="Create an account and get a token", operation_id="register", auth=[], tags=["accounts"])
    def post(self, request):
        s = RegisterSerializer(data=json_body(request))
        s.is_valid(raise_exception=True)
        d = s.validated_data
        candidate = User(username=d["username"], email=d.get("email", ""))
        try:
            validate_password(d["password"], user=candidate)
        except DjangoValidationError as exc:
            raise Invalid(" ".join(exc.messages), code="weak_password", fields={"password": exc.messages}) from exc
        try:
            with transaction.atomic():
                if User.objects.filter(username__iexact=d["username"]).exists():
                    raise Conflict("that username is taken", code="username_taken")
                user = User.objects.create_user(d["username"], d.get("email", ""), d["password"])
                profile_of(user)
                _, token = AuthToken.objects.create(user)
        except IntegrityError as exc:
            raise Conflict("that username is taken", code="username_taken") from exc
        return Response({"id": user.id, "username": user.username, "token": token}, status=201)


class TokenView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "register"

    @extend_schema(request=CredentialsSerializer, responses={200: TokenSerializer, **errors(400, 401, 429)},
                   summary="Get a new token for a username and password", operation_id="token", auth=[], tags=["accounts"])
    def post(self, request):
        s = CredentialsSerializer(data=json_body(request))
        s.is_valid(raise_exception=True)
        user = authenticate(request, username=s.validated_data["username"], password=s.validated_data["password"])
        if user is None or not user.is_active:
            raise ServiceError("wrong username or password", code="invalid_credentials", status=401)
        _, token = AuthToken.objects.create(user)
        return Response({"token": token})


def me_json(user) -> dict:
    p = profile_of(user)
    return {"id": user.id, "username": user.username, "email": user.email,
            "email_notifications": p.email_notifications, "webhook_url": p.webhook_url,
            "has_webhook_secret": bool(p.webhook_secret), "vacation_until": p.vacation_until,
            "vacation_days_left": days_left(p)}


class MeView(APIView):
    @extend_schema(responses={200: MeSerializer, **errors(401)}, summary="Your profile and settings", operation_id="me_get",
                   tags=["accounts"])
    def get(self, request):
        return Response(MeSerializer(me_json(request.user)).data)

    @extend_schema(request=MeSerializer, responses={200: MeSerializer, **errors(400, 401)},
                   summary="Change your email, notification settings, webhook or vacation", operation_id="me_update", tags=["accounts"])
    def patch(self, request):
        s = MeSerializer(data=json_body(request), partial=True)
        s.is_valid(raise_exception=True)
        d = s.validated_data
        user, p = request.user, profile_of(request.user)
        with transaction.atomic():
            if "email" in d:
                user.email = d["email"]
                user.save(update_fields=["email"])
            for f in ("email_notifications", "webhook_url", "webhook_secret"):
                if f in d:
                    setattr(p, f, d[f])
            p.save()
            if "vacation_until" in d:
                set_vacation(user, d["vacation_until"])
        return Response(MeSerializer(me_json(user)).data)
