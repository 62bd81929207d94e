"""Event type names (stable strings, never import paths). Payloads are JSON.

Since rules version 4 the engine emits facts about units and generals
(`UnitFormed`, `UnitsMoved`, `TroopsChanged`, `UnitDestroyed`, `GeneralWounded`,
`GeneralHealed`, `GeneralKilled`) instead of the record patches `UnitsChanged` and
`GeneralsChanged` (and `GeneralLeftMap` with ``to: dead``); the patches still fold,
so games recorded under versions 1–3 replay. The decision queue and the turn move
through facts too (`DecisionQueued`, `DecisionTaken`, `TurnBegan`, `BattleDeclared`,
…) instead of `FlowChanged`, which still folds for versions 1–3;
`ActionNoted` still carries a diff of the action's scratch."""

GAME_SET_UP = "imjin.GameSetUp"  # whole initial table (public)
FLOW_CHANGED = "imjin.FlowChanged"  # {flow?, queue?, act?}: which decision is next
SUPPLY_CHANGED = "imjin.SupplyChanged"  # {seat, delta, reason}
WHEEL_ADVANCED = "imjin.WheelAdvanced"  # {side, seat, steps, to, cost}
UNITS_CHANGED = "imjin.UnitsChanged"  # {units: {uid: unit|null}, reason} (versions 1–3)
CONTROL_CHANGED = "imjin.ControlChanged"  # {area, side}
GENERALS_CHANGED = "imjin.GeneralsChanged"  # {generals: {gid: record|null}, reason} (versions 1–3)
LEGENDARY_CHOSEN = "imjin.LegendaryChosen"  # {seat, general|null}
GENERAL_PICKED = "imjin.GeneralPicked"  # private {seat, general}
HAND_CARD_SEALED = "imjin.HandCardSealed"  # private commit {seat, key, choice, salt}
GENERAL_DEPLOYED = "imjin.GeneralDeployed"  # {seat, general, unit, cost, how, reveals}
GENERAL_LEFT_MAP = "imjin.GeneralLeftMap"  # {general, to: hand|dead, killer_side?}
EVENT_REVEALED = "imjin.EventRevealed"  # {card, position}
DECK_REBUILT = "imjin.DeckRebuilt"  # {size}
TIMED_CHANGED = "imjin.TimedEffectsChanged"  # {timed}
TAUNT_CHANGED = "imjin.TauntChanged"  # {taunt|null}
BATTLE_RESOLVED = "imjin.BattleResolved"  # {battle, attacker_dice, defender_dice, result}
GAME_ENDED = "imjin.GameEnded"  # {winners, reason, scores}

# facts of rules version 4
UNIT_FORMED = "imjin.UnitFormed"  # {unit, owner, area, troops, reason: recruited|gwak_enters}
UNITS_MOVED = "imjin.UnitsMoved"  # {moves: [{unit, from, to}], reason: moved|swapped|advanced|...}
TROOPS_CHANGED = "imjin.TroopsChanged"  # {unit, troops, delta, reason}
UNIT_DESTROYED = "imjin.UnitDestroyed"  # {unit, owner, area, reason}
GENERAL_WOUNDED = "imjin.GeneralWounded"  # {general, hits, damage, hp}
GENERAL_HEALED = "imjin.GeneralHealed"  # {general, healed, damage, hp}
GENERAL_KILLED = "imjin.GeneralKilled"  # {general, unit, killer_side}

# facts of rules version 4 too (instead of FlowChanged's whole queue / flow / act records)
DECISION_QUEUED = "imjin.DecisionQueued"  # {prompt, at: front|back}: a seat will be asked
DECISION_TAKEN = "imjin.DecisionTaken"  # {kind, seat}: the head decision is settled
DECISION_UPDATED = "imjin.DecisionUpdated"  # {prompt}: the head decision's sub-step (drafts, counts)
TURN_BEGAN = "imjin.TurnBegan"  # {seat}: its wheel step comes first
ACTION_CHOSEN = "imjin.ActionChosen"  # {seat, action}: the wheel landed on it
ACTION_STARTED = "imjin.ActionStarted"  # {seat}: the action's scratch starts empty
ACTION_ENDED = "imjin.ActionEnded"  # {seat}: its end effects follow
FINAL_TURN = "imjin.FinalTurnDeclared"  # {seat}: the third Reset; the game ends with this turn
BATTLE_DECLARED = "imjin.BattleDeclared"  # {battle}: declared and paid (its units are used)
DISCORD_DECLARED = (
    "imjin.DiscordDeclared"  # {unit, attacker, defender}: 小早川's 內訌 (BattleDeclared follows)
)
SECOND_ATTACK_DECLARED = "imjin.SecondAttackDeclared"  # {unit, target, dice}: 福島's second attack
KOBAYAKAWA_CHOSE = "imjin.KobayakawaOptionChosen"  # {seat, option: 1|2} for this Move/Battle action
BATTLE_STARTED = "imjin.BattleStarted"  # {battle: n}: the attacker chose to resolve it now
UNIT_MARKED_MOVED = "imjin.UnitMarkedMoved"  # {unit, may_fight}: moved this action (李如松 may still fight)
ACTION_NOTED = "imjin.ActionNoted"  # {changes}: other scratch of the action (moved, immune, dice...)
