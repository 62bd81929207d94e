"""Type aliases shared by the services and their callers (api, web, tasks).

A game's id arrives as the URL's string or as the model's UUID, and a reader
is either a signed-in user or Django's anonymous one (public games are read
without an account); `mypy --strict` (make check) holds every service to these
names instead of bare parameters. The bottom floor of games/services: it
imports Django's auth models only.
"""

import uuid

from django.contrib.auth.models import AnonymousUser, User

GameId = str | uuid.UUID
"""A game's primary key, as a URL carries it (str) or as the model holds it (UUID)."""

UserOrAnonymous = User | AnonymousUser
"""`request.user`: a signed-in account, or the anonymous reader of a public game."""

Reader = User | AnonymousUser | None
"""Who reads a game: `request.user`, or None where a page has already told
anonymous readers apart (the web's replays and audits)."""
