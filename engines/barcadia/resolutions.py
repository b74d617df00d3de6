"""Every number and OPEN resolution of the Barcadia digest, each in ONE place so it can change.

The clause each constant settles is named beside it (``barcadia.en.md``). Content (rooms,
cards) lives in the TOML files of ``data/``; this module holds the rules' own numbers.
"""

from __future__ import annotations

FULL_HP = 100  # HB-5: the cup is numeric, FULL = 100 HP, floored at 0 and capped at FULL
STARTING_LOOT = 3  # HB-17
MAX_POWERUPS = 3  # HB-54
POWERUPS_TO_ATTEMPT = 3  # HB-46
TRAP_TOKENS = 15  # HB-2 / HB-60: with no token left, Trap cards are unplayable
MAX_TRAPS_PER_ROOM = 3  # HB-60
DISARM_TARGET = 10  # HB-61
TRAP_DAMAGE = 10  # HB-61
DUEL_DAMAGE = 10  # HB-57
MOVE_STEPS = 2  # HB-24: "up to two adjacent rooms", read as a path
DIE = 20

# HB-13: recommended removal with 2–3 players (an option, on by default).
SMALL_GAME_MAX_PLAYERS = 3
SMALL_GAME_REMOVAL = {"portal": 2, "reward": 4, "boss": 4, "monster": 10}

# HB-56 OPEN: nobody can be duelled on the Starting Point (it is always enterable).
DUEL_ON_START_POINT = False
# HB-38 OPEN: a duel through a portal uses up the teleport; pbem also counts it as the turn's
# duel and, like every duel (HB-56), allows it only before the action.
PORTAL_DUEL_USES_DUEL = True

# HB-68 (revised): with Signature Moves on, players choose their characters at set-up, a secret
# simultaneous choice (option ``characters``: "choose", the default, or "random": dealt). A clash
# goes to "who asked first": the player whose standing choice came in first (changing one's
# choice asks anew); the others choose again among the characters left. The choice comes first
# in set-up, before the dungeon is built (option layout = "players").
CHARACTER_MODES = ("choose", "random")

# HB-51 (clarified): a DURING_YOUR_TURN card may be played while the owner's turn waits on a
# choice (a teammate, a Boss player, the Guardian, a Power-Up to give up). OPEN: while a fight
# waits, the action is under way, so -- as a teleport never comes mid-action (HB-37) -- cards that
# move the player or the rooms are not playable then; every other card is.
BARRED_WHILE_A_FIGHT_WAITS = frozenset({"blink", "swap_rooms"})
# The roll each waiting fight makes for the revealer (its bonuses are playable while it waits).
WAITING_FIGHT_ROLL = {"teammate": "Team", "boss": "Boss", "guardian": "Guardian"}

# HB-71: the rulebook has no turn limit, so a game has none by default (0 = no limit). The
# option ``turn_limit`` stays for tests, bots and leagues that must end a round: after that many
# turns in all (every seat's turn counts) the game ends and the outcome ranks the players by
# Power-Ups, then HP (``rules.limit_ranking``). Measured (bench/barcadia_stats, 300 games): heuristic
# self-play ends in 28-56 turns on average for 2-6 players, the bot against three random players
# in about 90; all-random play ends too, but only after about 400-1,000 turns (median).
DEFAULT_TURN_LIMIT = 0

# Which effect scopes apply to which kind of roll (HB-8, HB-32 OPEN, HB-44).
ROLL_SCOPES: dict[str, frozenset[str]] = {
    "Monster": frozenset({"Monster", "All"}),
    "Team": frozenset({"Monster", "Team", "All"}),  # HB-32: each applies Monster/Team effects
    "Boss": frozenset({"Boss", "All"}),
    "Guardian": frozenset({"Guardian", "All"}),  # HB-44: Monster/Boss-only effects do not apply
    "Duel": frozenset({"Duel", "All"}),
    "Trap": frozenset({"Trap", "All"}),
}
