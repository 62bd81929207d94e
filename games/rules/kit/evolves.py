"""`Evolver`: the registry behind a ruleset's `evolve`, one small function per event type.

    evolves = Evolver("shogun")

    @evolves(events.SEASON_BEGAN, mutates=("round", "players"))
    def _season(s: State, p: Payload) -> None: ...

A handler mutates the copy it is given; only the top-level keys it declares in
`mutates` are deep-copied (`ALL`: the whole state), the rest is shared with the
input state (copy-on-write). An event type nobody registered raises
`UnknownEvent`: an engine never silently skips a fact it does not understand
(events whose effect lies elsewhere are registered with `ignores`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar, cast

from ..base import Event
from .cow import copy_on_write, deep_copy

S = TypeVar("S")
Handler = Callable[[Any, dict[str, Any]], None]


class UnknownEvent(LookupError):  # noqa: N818 - named for what happened, like KeyError
    """An event type the engine has no handler for (a bug or a newer engine's event)."""


def _nothing(state: Any, payload: dict[str, Any]) -> None:
    """The handler of an event that changes no state."""


class Evolver(Generic[S]):
    """Event type -> (handler, keys it mutates); see the module docstring."""

    def __init__(self, ruleset: str, copy_payload: bool = False) -> None:
        """An empty registry for the ruleset named `ruleset` (used in errors).

        `copy_payload`: hand handlers a deep copy of the payload (for handlers
        that store parts of it in the state, which is later mutated)."""
        self.ruleset = ruleset
        self._copy_payload = copy_payload
        self._handlers: dict[str, tuple[Handler, tuple[str, ...]]] = {}

    def __call__(self, *types: str, mutates: Iterable[str] = ()) -> Callable[[Handler], Handler]:
        """Decorator: register the function as the handler of `types`."""
        keys = tuple(mutates)

        def register(fn: Handler) -> Handler:
            for event_type in types:
                if event_type in self._handlers:
                    raise ValueError(f"{self.ruleset}: {event_type} has two handlers")
                self._handlers[event_type] = (fn, keys)
            return fn

        return register

    def ignores(self, *types: str) -> None:
        """Register event types that change no state (their effect is carried elsewhere)."""
        self(*types)(_nothing)

    def _entry(self, event_type: str) -> tuple[Handler, tuple[str, ...]]:
        entry = self._handlers.get(event_type)
        if entry is None:
            raise UnknownEvent(f"{self.ruleset} has no handler for event {event_type!r}")
        return entry

    def evolve(self, state: S, event: Event) -> S:
        """A new state: `event` applied to a copy-on-write copy of `state`."""
        fn, keys = self._entry(event.type)
        new = copy_on_write(cast(Any, state), keys)
        fn(new, self._payload(event))
        return cast(S, new)

    def apply_in_place(self, state: S, event: Event) -> None:
        """Apply `event` to a state the caller owns (decide's private scratch)."""
        fn, _ = self._entry(event.type)
        fn(state, self._payload(event))

    def _payload(self, event: Event) -> dict[str, Any]:
        payload = dict(event.payload)
        return deep_copy(payload) if self._copy_payload else payload
