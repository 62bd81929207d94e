"""The toy's event types ("toy.<PastTense>") and what each payload holds."""

from __future__ import annotations

STARTED = "toy.Started"  # {factions: [str], coins: int}
PRIZE_DRAWN = "toy.PrizeDrawn"  # {round: int, prize: 1..6}
BID_PLACED = "toy.BidPlaced"  # private: {seat, choice: {amount}, salt} (base.commit)
BIDS_REVEALED = "toy.BidsRevealed"  # {bids: [[seat, amount]], winner, paid, reveals}
PRIZE_AWARDED = "toy.PrizeAwarded"  # {seat, points}
ENDED = "toy.Ended"  # {}

ALL = (STARTED, PRIZE_DRAWN, BID_PLACED, BIDS_REVEALED, PRIZE_AWARDED, ENDED)
