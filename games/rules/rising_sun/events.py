"""Event type names (stable strings) and payload versions.

Rules version 4: the public event of a batch (`GameSetUp`, `CommandApplied`,
`MandatePlayed`, `WarBidsRevealed`, `GiftGiven`, payload VERSION 2) states its
outcome (`payload.outcome`, see facts.py) and every batch but a gift ends with a
hidden `HiddenStateChanged` stating the secret outcome; `evolve` applies facts.
Versions 2 and 3 (VERSION 1 payloads): public events carry the command that
caused them plus every random draw it made (`draws`), so `evolve` replays the
same deterministic step without ever drawing (see README, "Event model").
From rules version 3 every private event (`visible_to` set) carries
`payload["salt"]` (32 hex chars from the decision's rng), which `evolve` ignores."""

PREFIX = "rising-sun."

SETUP = PREFIX + "GameSetUp"                    # public: clans, seating, shrines, decks
MANDATES_SHUFFLED = PREFIX + "MandatesShuffled"  # hidden (visible_to=()): a deck order
TILES_SEEN = PREFIX + "MandateTilesSeen"        # private to the drawer: his 4 tiles
MANDATE_CHOSEN = PREFIX + "MandateTileChosen"   # private commit of the tile played
BID_PLACED = PREFIX + "WarBidPlaced"            # private commit of a war bid
PROPOSAL_MADE = PREFIX + "AllianceProposed"     # private commit of a proposal
PROPOSAL_RECEIVED = PREFIX + "AllianceProposalReceived"  # private to the target
PROPOSAL_DECLINED = PREFIX + "AllianceDeclined"     # v3: private to both: a decline
PROPOSAL_WITHDRAWN = PREFIX + "AllianceWithdrawn"   # v3: private to both: a withdrawal
COMMAND_APPLIED = PREFIX + "CommandApplied"     # public: a command and its draws
MANDATE_PLAYED = PREFIX + "MandatePlayed"       # public: declared mandate (+reveal)
BIDS_REVEALED = PREFIX + "WarBidsRevealed"      # public: all bids of a battle (reveals)
GIFT_GIVEN = PREFIX + "GiftGiven"               # public: coins / ronin handed over
HIDDEN_CHANGED = PREFIX + "HiddenStateChanged"  # v4, hidden (visible_to=()): the secret outcome

# Payload versions of the events whose payload changed with rules version 4
# (they gained `outcome` and lost `draws`); the others are still VERSION 1.
VERSIONS = {SETUP: 2, COMMAND_APPLIED: 2, MANDATE_PLAYED: 2, BIDS_REVEALED: 2, GIFT_GIVEN: 2}
FACT_EVENTS = {SETUP, COMMAND_APPLIED, MANDATE_PLAYED, BIDS_REVEALED, GIFT_GIVEN}

# Event types whose evolve re-applies a command (payload: seat, cmd, draws).
COMMAND_EVENTS = {COMMAND_APPLIED, MANDATE_PLAYED, BIDS_REVEALED, GIFT_GIVEN}
