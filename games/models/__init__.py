"""The games app's tables: `game` (games, seats, command receipts, invitations)
and `pbem` (deadlines, notifications, webhook deliveries, pause votes, the
sweeper's cursor) and `anchors` (timestamped Merkle trees of checkpoints). Re-exported here so `from games.models import Game` and the
migrations keep their one address."""

from .anchors import Anchor, AnchorLeaf
from .game import CommandReceipt, Game, Invitation, Seat
from .pbem import Deadline, Notification, PauseVote, PbemCursor, SweeperState, WebhookDelivery

__all__ = [
    "Anchor",
    "AnchorLeaf",
    "CommandReceipt",
    "Deadline",
    "Game",
    "Invitation",
    "Notification",
    "PauseVote",
    "PbemCursor",
    "Seat",
    "SweeperState",
    "WebhookDelivery",
]
