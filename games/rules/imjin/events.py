"""Event type names (stable strings, never import paths). Payloads are JSON."""

GAME_SET_UP = "imjin.GameSetUp"              # whole initial table (public)
FLOW_CHANGED = "imjin.FlowChanged"            # {flow?, queue?, act?}: which decision is next
SUPPLY_CHANGED = "imjin.SupplyChanged"        # {seat, delta, reason}
WHEEL_ADVANCED = "imjin.WheelAdvanced"        # {side, seat, steps, to, cost}
UNITS_CHANGED = "imjin.UnitsChanged"          # {units: {uid: unit|null}, reason}
CONTROL_CHANGED = "imjin.ControlChanged"      # {area, side}
GENERALS_CHANGED = "imjin.GeneralsChanged"    # {generals: {gid: record|null}, reason}
LEGENDARY_CHOSEN = "imjin.LegendaryChosen"    # {seat, general|null}
GENERAL_PICKED = "imjin.GeneralPicked"        # private {seat, general}
HAND_CARD_SEALED = "imjin.HandCardSealed"     # private commit {seat, key, choice, salt}
GENERAL_DEPLOYED = "imjin.GeneralDeployed"    # {seat, general, unit, cost, how, reveals}
GENERAL_LEFT_MAP = "imjin.GeneralLeftMap"     # {general, to: hand|dead, killer_side?}
EVENT_REVEALED = "imjin.EventRevealed"        # {card, position}
DECK_REBUILT = "imjin.DeckRebuilt"            # {size}
TIMED_CHANGED = "imjin.TimedEffectsChanged"   # {timed}
TAUNT_CHANGED = "imjin.TauntChanged"          # {taunt|null}
BATTLE_RESOLVED = "imjin.BattleResolved"      # {battle, attacker_dice, defender_dice, result}
GAME_ENDED = "imjin.GameEnded"                # {winners, reason, scores}
