"""Takebacks, the safe way: a compensating event, never a deletion.

A seat may ask to take back its last command only when nothing it could learn
from or that others acted on has happened since. Precisely (docs/audit.md):

Why, with the measurements and history: docs/modules.md, `games/services/undo.py`.
"""

from __future__ import annotations

from typing import Any, cast

from django.db import transaction
from django.utils.translation import gettext, gettext_noop

from events import store
from events.models import StoredEvent
from games.rules.base import Rng, RngFactory, RulesError, canonical_json

from ..core_events import (
    ENDINGS,
    TAKEBACKS,
    ChoiceCommitted,
    SeedRevealed,
    TakebackAccepted,
    TakebackRefused,
    TakebackRequested,
    TakebackVoted,
    read_row,
)
from ..models import Game, Seat
from .commit import append_core, new_event
from .errors import Conflict, ErrorCode, Forbidden, NotFound
from .lobby import get_game
from .state import load_state, rules_for, stream_seed
from .types import GameId, UserOrAnonymous

# the batch of a command these end cannot be taken back
ENDED = (*ENDINGS, SeedRevealed.TYPE)

# Why the caller may not ask now (GET .../takeback answers `reason` and `detail`, the
# sentence in the caller's language): the page shows it instead of a button that
# could only be refused (issue 33: against bots the last move is never yours).
WHY: dict[str, str] = {
    "not_seated": gettext_noop("Only a seated player can ask to take a move back."),
    "not_running": gettext_noop("Moves can be taken back only while the game is running."),
    "nothing_played": gettext_noop("You have not moved yet."),
    "not_yours": gettext_noop("Another seat has moved since your last move."),
    "taken_back": gettext_noop("Your last move was already taken back."),
    "private": gettext_noop("Your last move showed another player something secret."),
    "revealed": gettext_noop("Your last move revealed a secret choice."),
    "ended": gettext_noop("Your last move ended the game."),
    "chance": gettext_noop("Your last move drew on chance (a die or a card)."),
    "events_since": gettext_noop("Something else happened since your last move."),
    "request_open": gettext_noop("A takeback request is already open."),
}

WHY_KEYS = sorted(WHY)  # the schema's TakebackReasonEnum (config/settings.py)


class NotTakeable(Conflict):
    """A 409 that also says why, as one of `WHY`'s keys (`reason`)."""

    def __init__(self, reason: str, detail: str, code: ErrorCode = ErrorCode.TAKEBACK_NOT_ALLOWED) -> None:
        super().__init__(detail, code=code)
        self.reason = reason


def _last_batch(rows: list[Any]) -> tuple[list[Any], list[Any]]:
    """(rows from the last command's first event on that are not takeback events,
    the takeback events among them)."""
    for i in range(len(rows) - 1, -1, -1):
        if rows[i].cause and "command" in rows[i].cause:
            return (
                [r for r in rows[i:] if r.type not in TAKEBACKS],
                [r for r in rows[i:] if r.type in TAKEBACKS],
            )
    raise NotTakeable("nothing_played", "nothing has been played yet")


def _refuse(why: str, reason: str) -> NotTakeable:
    return NotTakeable(why, f"this command cannot be taken back: {reason}")


def check_eligible(game: Game, seat: Seat, username: str, rows: list[Any] | None = None) -> tuple[int, int]:
    """(undo_from_seq, undo_to_seq) of the seat's takeable last command, or Conflict."""
    if game.status != Game.Status.RUNNING:
        raise NotTakeable("not_running", f"the game is {game.status}", code=ErrorCode.GAME_NOT_RUNNING)
    rows = store.load(game.id) if rows is None else rows
    batch, tail = _last_batch(rows)
    first = batch[0]
    if first.cause.get("seat") != seat.index or (first.actor or {}).get("user") != username:
        raise _refuse("not_yours", "the last command was not yours (or was played for you)")
    if any(t.type == TakebackAccepted.TYPE for t in tail):
        raise _refuse("taken_back", "it was already taken back")
    for r in batch:
        if r.visible_to is not None and seat.index not in r.visible_to:
            raise _refuse("private", "it gave another player private information")
        if isinstance(r.payload, dict) and r.payload.get("reveals"):
            raise _refuse("revealed", "it revealed a secret choice")
        if r.type in ENDED:
            raise _refuse("ended", "the game ended")
    _check_deterministic(game, seat.index, first.cause["command"], batch)
    return first.seq, batch[-1].seq


def _masked(type_: str, payload: Any, visible_to: Any) -> str:
    def strip(v: Any) -> Any:
        if isinstance(v, dict):
            return {k: ("<nonce>" if k == "salt" else strip(x)) for k, x in v.items()}
        if isinstance(v, list | tuple):
            return [strip(x) for x in v]
        return v

    p = strip(dict(payload))
    if type_ == ChoiceCommitted.TYPE:
        p["commitment"] = "<nonce>"
    return canonical_json({"t": type_, "p": p, "v": None if visible_to is None else sorted(visible_to)})


class _Watched(Rng):
    """An `Rng` that notes its purpose in ``read`` when it draws something that could
    have come out otherwise: ``randbelow(n)`` for n > 1 (``choice``, ``randint`` and
    ``shuffled`` go through it) and ``random()``. A commitment's ``salt()`` is not an
    outcome anyone saw, and a choice among one (the last card of a pile: Shogun's
    last action card) is no chance; both still advance the stream exactly as `Rng`."""

    def __init__(self, seed: str, seq: int, purpose: str, read: set[str]):
        super().__init__(seed, seq, purpose)
        self._purpose, self._read = purpose, read

    def randbelow(self, n: int) -> int:
        if n > 1:
            self._read.add(self._purpose)
        return super().randbelow(n)

    def random(self) -> float:
        self._read.add(self._purpose)
        return super().random()


def _watched_factory(seed: str, seq: int, read: set[str]) -> RngFactory:
    return lambda purpose: _Watched(seed, seq, purpose, read)


def _check_deterministic(game: Game, seat: int, command: dict[str, Any], batch: list[Any]) -> None:
    rules = rules_for(game)
    frm = batch[0].seq
    before = load_state(game, upto=frm - 1)
    read: set[str] = set()
    try:
        again = rules.decide(before, seat, command, _watched_factory(stream_seed(game), frm, read))
    except RulesError:  # the command no longer decides as it did: something else changed
        raise _refuse("events_since", "other events happened since") from None
    if read:
        raise _refuse("chance", "its outcome depends on chance")
    if len(again) != len(batch):  # what else is in the stream?
        raise _refuse("events_since", "other events happened since")
    recorded = [_masked(r.type, r.payload, r.visible_to) for r in batch]
    if [_masked(e.type, e.payload, e.visible_to) for e in again] != recorded:
        raise _refuse("events_since", "other events happened since")


# ---------------------------------------------------------------------------


def _my_seat(game: Game, user: UserOrAnonymous) -> Seat:
    # an anonymous reader's id is None (the lookup is then IS NULL)
    seat = game.seats.filter(user_id=getattr(user, "id", None)).first()  # type: ignore[misc]
    if seat is None:
        raise Forbidden("you have no seat in this game", code=ErrorCode.NOT_SEATED)
    return seat


def _voters(game: Game, asker: int) -> set[int]:
    """Seats whose consent is needed: every other seat played by a person."""
    return {s.index for s in game.seats.all() if s.index != asker and not s.is_bot}


def request(game_id: GameId, user: UserOrAnonymous) -> dict[str, Any]:
    """The seat asks to take back its last command (core.TakebackRequested); accepted at once when no
    person is to be asked."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=get_game(game_id, user).pk)
        seat = _my_seat(game, user)
        frm, to = check_eligible(game, seat, user.username)
        if _open_request(game) is not None:
            raise Conflict("a takeback request is already open", code=ErrorCode.TAKEBACK_PENDING)
        asked = TakebackRequested(seat=seat.index, undo_from_seq=frm, undo_to_seq=to)
        actor = {"seat": seat.index, "user": user.username}
        rows = append_core(game, [new_event(asked, actor=actor)])
        req = rows[0].seq
        if not _voters(game, seat.index):  # nobody to ask: bots always accept
            append_core(game, [new_event(_accepted(req, asked))])
            return _answer(req, "accepted", asked, game)
    return _answer(req, "pending", asked, game)


def _accepted(request_seq: int, asked: TakebackRequested) -> TakebackAccepted:
    return TakebackAccepted(
        request_seq=request_seq,
        seat=asked.seat,
        undo_from_seq=asked.undo_from_seq,
        undo_to_seq=asked.undo_to_seq,
    )


def _answer(request_seq: int, status: str, asked: TakebackRequested, game: Game) -> dict[str, Any]:
    return {"request_seq": request_seq, "status": status, **asked.payload(), "version": game.version}


def _votes(game: Game, request_seq: int) -> set[int]:
    """The seats that accepted the request so far."""
    later = store.load(game.id, after=request_seq)
    return {cast(TakebackVoted, read_row(r)).seat for r in later if r.type == TakebackVoted.TYPE}


def _open_request(game: Game) -> StoredEvent | None:
    """The latest request that is neither answered nor overtaken by play, or None."""
    rows = store.load(game.id)
    for i in range(len(rows) - 1, -1, -1):
        r = rows[i]
        if r.type not in TAKEBACKS:
            return None  # play went on: any older request is stale
        if r.type in (TakebackAccepted.TYPE, TakebackRefused.TYPE):
            return None
        if r.type == TakebackRequested.TYPE:
            return r
    return None


def answer(game_id: GameId, user: UserOrAnonymous, request_seq: int, accept: bool) -> dict[str, Any]:
    """A seat accepts or refuses the open takeback request `request_seq`: the
    first refusal closes it, the last acceptance takes the command back."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=get_game(game_id, user).pk)
        seat = _my_seat(game, user)
        asked = _answerable(game, seat, request_seq)
        voted = _votes(game, request_seq)
        if seat.index in voted:
            raise Conflict("you already accepted", code=ErrorCode.ALREADY_ANSWERED)
        actor = {"seat": seat.index, "user": user.username}
        if not accept:
            refused = TakebackRefused(request_seq=request_seq, seat=seat.index)
            append_core(game, [new_event(refused, actor=actor)])
            return _answer(request_seq, "refused", asked, game)
        if _voters(game, asked.seat) - voted - {seat.index}:
            vote = TakebackVoted(request_seq=request_seq, seat=seat.index)
            append_core(game, [new_event(vote, actor=actor)])
            return _answer(request_seq, "pending", asked, game)
        append_core(game, [new_event(_accepted(request_seq, asked), actor=actor)])
    return _answer(request_seq, "accepted", asked, game)


def _answerable(game: Game, seat: Seat, request_seq: int) -> TakebackRequested:
    """The request at `request_seq` if it is still open and not `seat`'s own."""
    rows = store.load(game.id, after=request_seq - 1, upto=request_seq)
    if not rows or rows[0].type != TakebackRequested.TYPE:
        raise NotFound("no such takeback request", code=ErrorCode.TAKEBACK_NOT_FOUND)
    asked = cast(TakebackRequested, read_row(rows[0]))  # its type was checked just above
    still = _open_request(game)
    if still is None or still.seq != request_seq:
        raise Conflict("this takeback request is closed", code=ErrorCode.TAKEBACK_CLOSED)
    if seat.index == asked.seat:
        raise Forbidden("you cannot answer your own takeback request", code=ErrorCode.OWN_REQUEST)
    return asked


def current(game_id: GameId, user: UserOrAnonymous) -> dict[str, Any]:
    """The open takeback request of a game, if any, with who has accepted so far,
    and whether the caller could ask now (`possible`; else `reason` and `detail`)."""
    game = get_game(game_id, user)
    req = _open_request(game)
    why = _why_not(game, user, req)
    answer = {"possible": why is None, "reason": why, "detail": gettext(WHY[why]) if why else None}
    if req is None:
        return {"open": None, **answer}
    asked = cast(TakebackRequested, read_row(req))  # _open_request returns only a request
    voted = sorted(_votes(game, req.seq))
    return {
        "open": {
            "request_seq": req.seq,
            **asked.payload(),
            "accepted_by": voted,
            "waiting_for": sorted(_voters(game, asked.seat) - set(voted)),
        },
        **answer,
    }


def _why_not(game: Game, user: UserOrAnonymous, req: StoredEvent | None) -> str | None:
    """Which of `WHY` stops the caller's request now (None: it would be taken),
    by the very checks `request` makes, cheapest first."""
    if game.status != Game.Status.RUNNING:
        return "not_running"
    seat = game.seats.filter(user_id=getattr(user, "id", None)).first()  # type: ignore[misc]
    if seat is None:
        return "not_seated"
    if req is not None:
        return "request_open"
    try:
        check_eligible(game, seat, user.username)
    except NotTakeable as refusal:
        return refusal.reason
    return None
