"""Audit layer endpoints: abort (reveals the seed) and takebacks.

Thin views: authenticate, check the envelope, call one service (games/services
audit.py and undo.py), serialize."""

from __future__ import annotations

from typing import Any

from django.utils import translation
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import Game
from games.services import audit, lobby, replay_book, undo
from games.services.errors import NotFound
from games.services.language import language_for
from games.services.reading import game_json

from ..serializers import GameSerializer, StrictSerializer
from .catalogue import LANG_PARAM
from .common import errors, json_body


def public_or_signed_in(request: Request, game_id: str) -> Game:
    """The game for the audit and the scoring: a signed-out visitor reads
    finished (or aborted) public games, as on the web's replay and audit pages;
    anything else wants an account, as before (401, never a hint whether a
    private or running game exists)."""
    if request.user is not None and request.user.is_authenticated:  # None: no account (settings)
        return lobby.get_game(game_id, request.user)
    try:
        game = lobby.get_game(game_id, None)
    except NotFound as exc:
        raise NotAuthenticated() from exc
    if game.private or game.status not in audit.ENDED:
        raise NotAuthenticated()
    return game


class AbortSerializer(StrictSerializer):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=500)


class TakebackSerializer(serializers.Serializer[dict[str, Any]]):
    request_seq = serializers.IntegerField(
        help_text="seq of the core.TakebackRequested event: the request's id"
    )
    status = serializers.ChoiceField(choices=["pending", "accepted", "refused"])
    seat = serializers.IntegerField(help_text="the seat taking back its command")
    undo_from_seq = serializers.IntegerField()
    undo_to_seq = serializers.IntegerField()
    version = serializers.IntegerField()


class AuditProblemSerializer(serializers.Serializer[dict[str, Any]]):
    seq = serializers.IntegerField(allow_null=True)
    check = serializers.ChoiceField(choices=["chain", "seed", "commitment", "salt", "replay", "format"])
    detail = serializers.CharField()


class AuditCommitmentSerializer(serializers.Serializer[dict[str, Any]]):
    seq = serializers.IntegerField()
    seat = serializers.IntegerField()
    key = serializers.CharField()
    commitment = serializers.CharField()
    revealed = serializers.BooleanField()
    reveal_ok = serializers.BooleanField(allow_null=True)
    reveal_seq = serializers.IntegerField(allow_null=True)
    replaced_by = serializers.IntegerField(allow_null=True, help_text="seq of the re-commitment of this key")


class AuditReportSerializer(serializers.Serializer[dict[str, Any]]):
    """The full answer of GET /games/{id}/audit (games/services/audit.py; docs/audit.md).
    For api/views/play.py AuditView's schema: it extends api.serializers.AuditSerializer."""

    ok = serializers.BooleanField()
    chain_ok = serializers.BooleanField()
    chain_head = serializers.CharField(allow_null=True)
    published_head_ok = serializers.BooleanField()
    first_bad_seq = serializers.IntegerField(allow_null=True)
    seed_commitment = serializers.CharField(allow_null=True)
    seed = serializers.CharField(allow_null=True, help_text="null until the game is finished or aborted")
    seed_ok = serializers.BooleanField(allow_null=True)
    commitments = AuditCommitmentSerializer(many=True)
    reveals_ok = serializers.BooleanField()
    replay_ok = serializers.BooleanField(allow_null=True)
    problems = AuditProblemSerializer(many=True)
    version = serializers.IntegerField()
    ruleset = serializers.CharField()
    rules_version = serializers.IntegerField()


class AbortView(APIView):
    @extend_schema(
        request=AbortSerializer,
        responses={200: GameSerializer, **errors(400, 401, 403, 404, 409)},
        summary="Abort the game (creator): core.GameAborted + core.SeedRevealed",
        operation_id="abort_game",
        tags=["audit"],
    )
    def post(self, request: Request, game_id: str) -> Response:
        body = json_body(request) if request.body else {}
        s = AbortSerializer(data=body)
        s.is_valid(raise_exception=True)
        game = audit.abort(game_id, request.user, s.validated_data.get("reason", ""))
        return Response(game_json(game, request.user))


class OpenTakebackSerializer(serializers.Serializer[dict[str, Any]]):
    request_seq = serializers.IntegerField()
    seat = serializers.IntegerField()
    undo_from_seq = serializers.IntegerField()
    undo_to_seq = serializers.IntegerField()
    accepted_by = serializers.ListField(child=serializers.IntegerField())
    waiting_for = serializers.ListField(child=serializers.IntegerField())


class TakebackStateSerializer(serializers.Serializer[dict[str, Any]]):
    open = OpenTakebackSerializer(allow_null=True)
    possible = serializers.BooleanField(
        help_text="Whether the caller may ask to take back its last move now."
    )
    reason = serializers.ChoiceField(
        choices=undo.WHY_KEYS,
        allow_null=True,
        help_text="Why not (null when possible): see docs/audit.md.",
    )
    detail = serializers.CharField(
        allow_null=True, help_text="The reason as a sentence in the caller's language (null when possible)."
    )


class TakebackView(APIView):
    @extend_schema(
        responses={200: TakebackStateSerializer, **errors(401, 404)},
        operation_id="get_takeback",
        summary="The open takeback request, if any (who accepted, who must still answer), and "
        "whether the caller may ask now",
        tags=["audit"],
    )
    def get(self, request: Request, game_id: str) -> Response:
        with translation.override(language_for(request)):  # `detail` in the caller's language
            return Response(undo.current(game_id, request.user))

    @extend_schema(
        request=None,
        responses={201: TakebackSerializer, **errors(401, 403, 404, 409)},
        summary="Ask to take back your last command (only when no chance, reveal or other "
        "player's event followed it; see docs/audit.md)",
        operation_id="request_takeback",
        tags=["audit"],
    )
    def post(self, request: Request, game_id: str) -> Response:
        return Response(undo.request(game_id, request.user), status=201)


class TakebackAcceptView(APIView):
    @extend_schema(
        request=None,
        responses={200: TakebackSerializer, **errors(401, 403, 404, 409)},
        summary="Accept another seat's takeback request",
        operation_id="accept_takeback",
        tags=["audit"],
    )
    def post(self, request: Request, game_id: str, request_seq: int) -> Response:
        return Response(undo.answer(game_id, request.user, request_seq, accept=True))


class TakebackRefuseView(APIView):
    @extend_schema(
        request=None,
        responses={200: TakebackSerializer, **errors(401, 403, 404, 409)},
        summary="Refuse another seat's takeback request",
        operation_id="refuse_takeback",
        tags=["audit"],
    )
    def post(self, request: Request, game_id: str, request_seq: int) -> Response:
        return Response(undo.answer(game_id, request.user, request_seq, accept=False))


class ScoringSourceSerializer(serializers.Serializer[dict[str, Any]]):
    key = serializers.CharField(help_text="the source's kind (`score.*` in the ruleset's texts)")
    # DRF takes declared fields off the class, so this shadows Field.label for mypy only
    label = serializers.CharField(help_text="the source in the asked language")  # type: ignore[assignment]
    points = serializers.FloatField()


class ScoringSeatSerializer(serializers.Serializer[dict[str, Any]]):
    seat = serializers.IntegerField()
    total = serializers.FloatField(help_text="the seat's final score: the sum of its sources")
    sources = ScoringSourceSerializer(many=True)
    notes = serializers.ListField(child=serializers.CharField(), help_text="facts that score nothing")


class ScoringSerializer(serializers.Serializer[dict[str, Any]]):
    """Where each seat's points came from (games/rules/<ruleset>/breakdown.py)."""

    final = serializers.BooleanField(help_text="false until the game has finished (no seats then)")
    reason = serializers.CharField(
        allow_blank=True, help_text="why the game was won, where the ruleset words it"
    )
    winners = serializers.ListField(child=serializers.IntegerField())
    seats = ScoringSeatSerializer(many=True)


class ScoringView(APIView):
    permission_classes = [AllowAny]  # public_or_signed_in: visitors read finished public games

    @extend_schema(
        parameters=[LANG_PARAM],
        responses={200: ScoringSerializer, **errors(401, 404)},
        summary="The final scoring breakdown: where each seat's points came from",
        operation_id="scoring",
        tags=["audit"],
    )
    def get(self, request: Request, game_id: str) -> Response:
        game = public_or_signed_in(request, game_id)
        found = replay_book.scoring(game, language_for(request))
        return Response(found or {"final": False, "reason": "", "winners": [], "seats": []})
