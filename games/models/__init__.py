"""The games app's tables: `game` (games, seats, command receipts, invitations, last seen),
`keys` (the public signing keys), `anchors` (timestamped Merkle trees of checkpoints)
and `pbem` (deadlines, notifications, webhook deliveries, pause votes, the sweeper's
cursor). Re-exported here so `from games.models import Game` and the migrations keep
their one address."""

from .anchors import Anchor, AnchorLeaf
from .game import CommandReceipt, Game, Invitation, LastSeen, Seat
from .keys import SigningKey
from .pbem import Deadline, Notification, PauseVote, PbemCursor, SweeperState, WebhookDelivery

__all__ = [
    "Anchor",
    "AnchorLeaf",
    "CommandReceipt",
    "Deadline",
    "Game",
    "Invitation",
    "LastSeen",
    "Notification",
    "PauseVote",
    "PbemCursor",
    "Seat",
    "SigningKey",
    "SweeperState",
    "WebhookDelivery",
]
