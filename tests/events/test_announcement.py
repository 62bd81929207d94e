"""The pub/sub message of a commit (events/feed.py): its rows travel when the message
is small, sealed when any row is private (events/sealed.py); anything else says the
version only."""

import json
import uuid
from datetime import UTC, datetime

import pytest

from events import feed, sealed
from events.store import Recorded

GID = uuid.uuid4()


def row(seq, visible_to=None, payload=None):
    at = datetime(2026, 11, 26, 10, 0, seq, tzinfo=UTC)
    return Recorded(
        GID, seq, "t.Moved", 1, payload or {"n": seq}, {"seat": 0}, None, visible_to, at, "a" * 64, "b" * 64
    )


def test_public_rows_travel_and_come_back_equal():
    rows = [row(5), row(6)]
    message = feed.announcement(6, ("running", rows), str(GID))
    assert message.startswith(b"{")  # public rows need no seal
    version, news = feed.announced(str(GID), message)
    assert version == 6 and news == ("running", rows)


SECRET = {"bid": 7, "salt": "f" * 32}


def test_private_rows_travel_sealed_and_open_equal_in_another_process():
    rows = [row(5), row(6, visible_to=[1], payload=SECRET)]
    message = feed.announcement(6, ("running", rows), str(GID))
    assert sealed.is_sealed(message)
    for secret in (b"f" * 32, b"bid", b"Moved", b"running"):  # nothing readable on the wire
        assert secret not in message
    version, news = feed.announced(str(GID), message)
    assert version == 6 and news == ("running", rows)
    assert news[1][1].visible_to == [1] and news[1][1].payload == SECRET
    # two seals of the same commit differ (random nonce): equal secrets do not show as equal
    assert feed.announcement(6, ("running", rows), str(GID)) != message


def test_a_sealed_message_opens_only_with_its_key_and_on_its_channel(settings):
    rows = [row(6, visible_to=[0], payload=SECRET)]
    message = feed.announcement(6, ("running", rows), str(GID))
    other = str(uuid.uuid4())
    assert feed.announced(other, message) == (None, None)  # replayed on another game's channel
    tampered = message[:-1] + bytes([message[-1] ^ 1])
    assert feed.announced(str(GID), tampered) == (None, None)
    settings.SECRET_KEY = "another deployment's key, at least fifty characters long......"
    assert feed.announced(str(GID), message) == (None, None)  # readers then read from the database


@pytest.mark.parametrize("seal", [False, True])
def test_a_message_of_the_previous_format_still_reads(seal):
    """Nine fields per row (before visible_to travelled): a node of the previous
    release may still publish during a rolling upgrade."""
    body = json.dumps(
        {
            "v": 5,
            "s": "running",
            "r": [[5, "t.Moved", 1, {"n": 5}, None, None, "2026-11-26T10:00:05+00:00", "a", "b"]],
        }
    ).encode()
    message = sealed.seal(feed.channel(GID), 5, body) if seal else body
    version, news = feed.announced(str(GID), message)
    assert version == 5 and news[1][0].seq == 5 and news[1][0].visible_to is None


def test_a_large_commit_is_announced_by_version_only():
    big = [row(5, payload={"x": "y" * feed.MAX_ANNOUNCEMENT_BYTES})]
    assert feed.announcement(5, ("running", big), str(GID)) == b"5"
    big_private = [row(5, visible_to=[2], payload={"x": "y" * feed.MAX_ANNOUNCEMENT_BYTES})]
    assert feed.announcement(5, ("running", big_private), str(GID)) == b"5"
    assert feed.announcement(5, None, str(GID)) == b"5"
    assert feed.announced("user:3", b"12") == (12, None)
    assert feed.announced(str(GID), b"{not json") == (None, None)
    assert feed.announced(str(GID), b"x") == (None, None)


def test_the_version_reads_without_parsing_or_opening():
    public = feed.announcement(6, ("running", [row(6)]), str(GID))
    private = feed.announcement(7, ("running", [row(7, visible_to=[1], payload=SECRET)]), str(GID))
    assert [feed.announced_version(m) for m in (public, private, b"8", "9")] == [6, 7, 8, 9]
    assert feed.announced_version(b"{garbage") is None and feed.announced_version(None) is None
    # the version in the clear is authenticated: altered, the message does not open
    forged = private[:2] + (3).to_bytes(8, "big") + private[10:]
    assert feed.announced_version(forged) == 3 and feed.announced(str(GID), forged) == (None, None)
