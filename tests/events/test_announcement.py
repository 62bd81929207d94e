"""The pub/sub message of a commit (events/feed.py): its rows travel only when every
row is public and the message is small; anything else says the version only."""

import uuid
from datetime import UTC, datetime

from events import feed
from events.store import Recorded

GID = uuid.uuid4()


def row(seq, visible_to=None, payload=None):
    at = datetime(2026, 11, 26, 10, 0, seq, tzinfo=UTC)
    return Recorded(
        GID, seq, "t.Moved", 1, payload or {"n": seq}, {"seat": 0}, None, visible_to, at, "a" * 64, "b" * 64
    )


def test_public_rows_travel_and_come_back_equal():
    rows = [row(5), row(6)]
    version, news = feed.announced(str(GID), feed.announcement(6, ("running", rows)))
    assert version == 6 and news == ("running", rows)


def test_a_private_row_or_a_large_commit_is_announced_by_version_only():
    assert feed.announcement(6, ("running", [row(5), row(6, visible_to=[1])])) == b"6"
    big = [row(5, payload={"x": "y" * feed.MAX_ANNOUNCEMENT_BYTES})]
    assert feed.announcement(5, ("running", big)) == b"5"
    assert feed.announcement(5, None) == b"5"
    assert feed.announced("user:3", b"12") == (12, None)
    assert feed.announced(str(GID), b"{not json") == (None, None)
    assert feed.announced(str(GID), b"x") == (None, None)
