"""Event type names (stable strings). Most public events carry the command that
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

# Event types whose evolve re-applies a command (payload: seat, cmd, draws).
COMMAND_EVENTS = {COMMAND_APPLIED, MANDATE_PLAYED, BIDS_REVEALED, GIFT_GIVEN}
