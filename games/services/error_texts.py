"""One sentence per `ErrorCode` for the error `detail` in languages other than
English (issue 14.4). English keeps the service's own, more specific sentence; another
language gets that sentence's translation when the catalogue has it, else this one
(api/errors.py). Marked with gettext_noop: translated when an error is answered."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from .errors import ErrorCode

SENTENCES: dict[ErrorCode, str] = {
    ErrorCode.BAD_REQUEST: gettext_noop("The request is not valid."),
    ErrorCode.MALFORMED_JSON: gettext_noop("The request body is not valid JSON."),
    ErrorCode.INVALID: gettext_noop("A field of the request is missing or not valid."),
    ErrorCode.LENGTH_REQUIRED: gettext_noop("The request needs a Content-Length header."),
    ErrorCode.REQUEST_TOO_LARGE: gettext_noop("The request body is too large."),
    ErrorCode.UNSUPPORTED_MEDIA_TYPE: gettext_noop("Send the request body as JSON."),
    ErrorCode.METHOD_NOT_ALLOWED: gettext_noop("This method is not allowed here."),
    ErrorCode.NOT_ACCEPTABLE: gettext_noop("The server cannot answer in the format you asked for."),
    ErrorCode.NOT_AUTHENTICATED: gettext_noop("Log in first: this needs a token."),
    ErrorCode.INVALID_TOKEN: gettext_noop("The token is unknown, expired or revoked."),
    ErrorCode.INVALID_CREDENTIALS: gettext_noop("Wrong username or password."),
    ErrorCode.TOO_MANY_FAILED_LOGINS: gettext_noop(
        "Too many failed logins for this account; wait and try again."
    ),
    ErrorCode.RATE_LIMITED: gettext_noop("Too many requests; wait and try again."),
    ErrorCode.TOO_MANY_STREAMS: gettext_noop("Too many live streams are open; close one first."),
    ErrorCode.FORBIDDEN: gettext_noop("You may not do this."),
    ErrorCode.USERNAME_TAKEN: gettext_noop("This username is taken; choose another."),
    ErrorCode.WEAK_PASSWORD: gettext_noop("The password is too weak; choose a longer one."),
    ErrorCode.UNKNOWN_TOKEN: gettext_noop("This unsubscribe link is not known."),
    ErrorCode.VACATION_EXHAUSTED: gettext_noop("That vacation is longer than your yearly allowance."),
    ErrorCode.WRONG_PASSWORD: gettext_noop("The current password is wrong."),
    ErrorCode.TOKEN_NOT_FOUND: gettext_noop("You have no such token."),
    ErrorCode.WEBHOOK_REFUSED: gettext_noop("This webhook address is not allowed."),
    ErrorCode.NOT_FOUND: gettext_noop("Not found."),
    ErrorCode.GAME_NOT_FOUND: gettext_noop("No such game (or you may not see it)."),
    ErrorCode.SEAT_NOT_FOUND: gettext_noop("No such seat in this game."),
    ErrorCode.USER_NOT_FOUND: gettext_noop("There is no account with that name."),
    ErrorCode.INVITATION_NOT_FOUND: gettext_noop("You have no invitation to that game."),
    ErrorCode.TAKEBACK_NOT_FOUND: gettext_noop("No such takeback request."),
    ErrorCode.UNKNOWN_RULESET: gettext_noop("This server does not play that game."),
    ErrorCode.UNSUPPORTED_LANGUAGE: gettext_noop(
        "That language is not offered: use en, ja, zh-Hant, zh-Hans, es or ko."
    ),
    ErrorCode.INVALID_PLAYERS: gettext_noop("That number of players is not allowed for this game."),
    ErrorCode.INVALID_OPTIONS: gettext_noop("The game options are not valid."),
    ErrorCode.INVALID_TIME_CONTROL: gettext_noop("The time control is not valid."),
    ErrorCode.INVALID_FACTION: gettext_noop("That faction is not available in this game."),
    ErrorCode.INVALID_BOT: gettext_noop("No such bot."),
    ErrorCode.INVALID_SETUP: gettext_noop("The game cannot start with this setup."),
    ErrorCode.INVALID_ENTROPY: gettext_noop("Entropy must be 64 hexadecimal characters (32 random bytes)."),
    ErrorCode.ENTROPY_GIVEN: gettext_noop("This seat has already contributed its entropy."),
    ErrorCode.FACTION_TAKEN: gettext_noop("Another seat has taken that faction."),
    ErrorCode.ALREADY_SEATED: gettext_noop("You already have a seat in this game."),
    ErrorCode.GAME_FULL: gettext_noop("The game is full."),
    ErrorCode.SEAT_TAKEN: gettext_noop("That seat is taken."),
    ErrorCode.SEATS_NOT_FILLED: gettext_noop("Not every seat is filled yet."),
    ErrorCode.NOT_CREATOR: gettext_noop("Only the game's creator may do this."),
    ErrorCode.NOT_PRIVATE: gettext_noop("This game is not private."),
    ErrorCode.GAME_NOT_OPEN: gettext_noop("The game is no longer open."),
    ErrorCode.CONFLICT: gettext_noop("The game is not in a state for this; reload it."),
    ErrorCode.VERSION_CONFLICT: gettext_noop("The game has moved on; reload it and decide again."),
    ErrorCode.GAME_NOT_RUNNING: gettext_noop("The game is not running."),
    ErrorCode.GAME_OVER: gettext_noop("The game is over."),
    ErrorCode.GAME_PAUSED: gettext_noop("The game is paused."),
    ErrorCode.ALREADY_PAUSED: gettext_noop("The game is already paused."),
    ErrorCode.NOT_PAUSED: gettext_noop("The game is not paused."),
    ErrorCode.NOT_SEATED: gettext_noop("You have no seat in this game."),
    ErrorCode.NOT_YOUR_SEAT: gettext_noop("That seat is not yours."),
    ErrorCode.NOT_ZOMBIE: gettext_noop("A player, not a bot, plays that seat."),
    ErrorCode.INVALID_SEAT: gettext_noop("No such seat."),
    ErrorCode.INVALID_VERSION: gettext_noop("No such version of this game."),
    ErrorCode.INVALID_IDEMPOTENCY_KEY: gettext_noop("The Idempotency-Key header is not valid."),
    ErrorCode.IDEMPOTENCY_KEY_REUSED: gettext_noop("This Idempotency-Key was used for another request."),
    ErrorCode.MESSAGE_TOO_LONG: gettext_noop("The message is too long."),
    ErrorCode.INVALID_COMMAND: gettext_noop("The command is malformed."),
    ErrorCode.ILLEGAL_COMMAND: gettext_noop("The rules do not allow this now."),
    ErrorCode.ENGINE_ERROR: gettext_noop("The rules engine failed on this command; it has been logged."),
    ErrorCode.TAKEBACK_NOT_ALLOWED: gettext_noop("A takeback is not allowed now."),
    ErrorCode.TAKEBACK_PENDING: gettext_noop("A takeback request is already waiting."),
    ErrorCode.TAKEBACK_CLOSED: gettext_noop("This takeback request is closed."),
    ErrorCode.OWN_REQUEST: gettext_noop("You cannot answer your own request."),
    ErrorCode.ALREADY_ANSWERED: gettext_noop("You have already answered."),
    ErrorCode.SERVER_ERROR: gettext_noop("The server failed; try again later."),
    ErrorCode.ERROR: gettext_noop("The request failed."),
}
