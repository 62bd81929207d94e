"""Lobby: rulesets, create/list games, game metadata, join, start."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import Q
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import Game
from games.rules import registry
from games.rules.base import sha256_hex
from games.services import lobby
from games.services.errors import ErrorCode, Invalid, NotFound
from games.services.reading import game_json, seats_json

from ..serializers import (
    CreateGameSerializer,
    EntropyAnswerSerializer,
    EntropySerializer,
    GameListSerializer,
    GameSerializer,
    InviteSerializer,
    JoinSerializer,
    RulesetSerializer,
    SeatSerializer,
)
from .common import errors, int_param, json_body, signed_in


class RulesetsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: RulesetSerializer(many=True)},
        summary="Every game this server plays",
        operation_id="rulesets",
        tags=["lobby"],
    )
    def get(self, request: Request) -> Response:
        out = []
        for rid in registry.available():
            r = registry.get(rid)
            if r is None:  # unregistered since available() listed it
                continue
            counts = lobby.player_counts(r)
            out.append(
                {
                    "id": rid,
                    "name": r.name,
                    "min_players": r.min_players,
                    "max_players": r.max_players,
                    "rules_version": r.rules_version,
                    "options": dict(r.options_schema),
                    "factions": sorted({f for c in counts for f in c["factions"]}, key=_first_seen(counts)),
                    "player_counts": [c["players"] for c in counts],
                    "per_players": counts,
                    "bots": list(lobby.BOT_KINDS),
                }
            )
        return Response(out)


def _first_seen(counts: list[dict[str, Any]]) -> Callable[[str], int]:
    order = [f for c in reversed(counts) for f in c["factions"]]
    return order.index


class GamesView(APIView):
    @extend_schema(
        request=CreateGameSerializer,
        responses={201: GameSerializer, **errors(400, 401, 429)},
        summary="Create a game; the creator takes seat 0",
        operation_id="create_game",
        tags=["lobby"],
    )
    def post(self, request: Request) -> Response:
        s = CreateGameSerializer(data=json_body(request))
        s.is_valid(raise_exception=True)
        d = s.validated_data
        tc = d.get("time_control")
        if tc is not None:
            tc = {k: v for k, v in tc.items() if v is not None}
        game = lobby.create_game(
            signed_in(request),
            d["ruleset"],
            d["players"],
            d.get("options") or {},
            tc,
            d.get("name", ""),
            d.get("faction"),
            d.get("private", False),
        )
        return Response(game_json(game, request.user), status=201)

    @extend_schema(
        parameters=[
            OpenApiParameter("status", OpenApiTypes.STR, enum=["open", "running", "finished", "aborted"]),
            OpenApiParameter("ruleset", OpenApiTypes.STR),
            OpenApiParameter("mine", OpenApiTypes.BOOL),
            OpenApiParameter("limit", OpenApiTypes.INT, description="page size, default 50, max 200"),
            OpenApiParameter("offset", OpenApiTypes.INT),
        ],
        responses={200: GameListSerializer, **errors(400, 401)},
        summary="List games",
        operation_id="list_games",
        tags=["lobby"],
    )
    def get(self, request: Request) -> Response:
        qs = Game.objects.select_related("creator").prefetch_related("seats__user")
        # Private games are listed to their seated players only.
        qs = qs.filter(Q(private=False) | Q(seats__user=request.user) | Q(creator=request.user)).distinct()
        st = request.query_params.get("status")
        if st:
            if st not in Game.Status.values:
                raise Invalid(f"status must be one of {Game.Status.values}", code=ErrorCode.INVALID)
            qs = qs.filter(status=st)
        if request.query_params.get("ruleset"):
            qs = qs.filter(ruleset=request.query_params["ruleset"])
        if request.query_params.get("mine", "").lower() in ("1", "true", "yes"):
            qs = qs.filter(Q(seats__user=request.user) | Q(creator=request.user)).distinct()
        limit, offset = _int_param(request, "limit", 50, 1, 200), _int_param(request, "offset", 0, 0, 10**9)
        count = qs.count()
        page = [game_json(g, request.user) for g in qs[offset : offset + limit]]
        nxt = None
        if offset + limit < count:
            q = request.query_params.copy()
            q["offset"] = str(offset + limit)
            nxt = request.build_absolute_uri(request.path) + "?" + q.urlencode()
        return Response({"results": page, "next": nxt, "count": count})


def _int_param(request: Request, name: str, default: int, lo: int, hi: int) -> int:
    return int_param(request.query_params.get(name), default, name, lo, hi)


class GameView(APIView):
    @extend_schema(
        responses={200: GameSerializer, **errors(401, 404)},
        summary="Game metadata",
        operation_id="get_game",
        tags=["lobby"],
    )
    def get(self, request: Request, game_id: str) -> Response:
        return Response(game_json(lobby.get_game(game_id, request.user, seats="users"), request.user))


class SeatsView(APIView):
    @extend_schema(
        request=JoinSerializer,
        responses={201: SeatSerializer, **errors(400, 401, 403, 404, 409)},
        summary="Join (optionally choosing a faction), or add a bot seat (creator)",
        operation_id="join_game",
        tags=["lobby"],
    )
    def post(self, request: Request, game_id: str) -> Response:
        game = lobby.get_game(game_id, lobby.SYSTEM)  # an unknown game is 404 whatever the body
        s = JoinSerializer(data=json_body(request))
        if not s.is_valid() and game.private and not lobby.is_seated(game, request.user):
            # no readable invite code: the same 404 as a wrong one (existence does not leak)
            raise NotFound("no such game", code=ErrorCode.GAME_NOT_FOUND)
        s.is_valid(raise_exception=True)
        seat = lobby.join(
            game_id,
            signed_in(request),
            s.validated_data.get("faction"),
            s.validated_data.get("bot"),
            s.validated_data.get("invite_code"),
            s.validated_data.get("entropy"),
        )
        return Response(next(x for x in seats_json(seat.game) if x["index"] == seat.index), status=201)


class EntropyView(APIView):
    @extend_schema(
        request=EntropySerializer,
        responses={200: EntropyAnswerSerializer, **errors(400, 401, 403, 404, 409)},
        summary="Contribute your seat's entropy (32 random bytes) to the game's randomness, before the start",
        operation_id="contribute_entropy",
        tags=["lobby"],
    )
    def post(self, request: Request, game_id: str, index: int) -> Response:
        s = EntropySerializer(data=json_body(request))
        s.is_valid(raise_exception=True)
        seat = lobby.contribute_entropy(game_id, signed_in(request), index, s.validated_data["entropy"])
        return Response(
            {"seat": seat.index, "entropy": seat.entropy, "seed_commitment": sha256_hex(seat.game.seed)}
        )


class StartView(APIView):
    @extend_schema(
        request=None,
        responses={200: GameSerializer, **errors(401, 403, 404, 409)},
        summary="Start the game (creator, when every seat is filled)",
        operation_id="start_game",
        tags=["lobby"],
    )
    def post(self, request: Request, game_id: str) -> Response:
        game = lobby.start(game_id, signed_in(request))
        return Response(game_json(game, request.user))


class InviteView(APIView):
    @extend_schema(
        request=None,
        responses={200: InviteSerializer, **errors(401, 403, 404, 409)},
        summary="Rotate a private game's invite code (creator); the old code stops working",
        operation_id="rotate_invite",
        tags=["lobby"],
    )
    def post(self, request: Request, game_id: str) -> Response:
        return Response({"invite_code": lobby.rotate_invite(game_id, signed_in(request)).invite_code})
