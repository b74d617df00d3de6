"""Setting up a game (HB-12..18): the dungeon tiles, the hands, the first player."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engines.barcadia import resolutions as R
from engines.barcadia.content import content
from engines.barcadia.hexes import random_layout
from engines.barcadia.rules import Events, d20, natural_twenty
from engines.barcadia.state import PHASE_CHARACTERS, PHASE_PLACE, PHASE_TURN, BarcadiaState, new_turn_flags
from engines.rng import Rng


def empty_room(tile: str) -> list[Any]:
    """A face-down room: [tile, up, known, beaten, traps, drops] (see ``state``)."""
    return [tile, False, False, False, 0, []]


def start_point() -> list[Any]:
    return ["", True, True, False, 0, []]


def dungeon_tiles(n_players: int, remove: bool, rng: Rng) -> list[str]:
    """HB-13/14: the shuffled tiles, with the small-game removal when it applies."""
    c = content()
    tiles: list[str] = []
    for kind in ("monster", "team", "boss", "reward", "portal", "hoard"):
        ids = c.room_ids(kind)
        rng.shuffle(ids)
        if remove and n_players <= R.SMALL_GAME_MAX_PLAYERS:
            ids = ids[R.SMALL_GAME_REMOVAL.get(kind, 0):]
        tiles += ids
    rng.shuffle(tiles)
    return tiles


def roll_for_first_player(s: BarcadiaState) -> None:
    """HB-18: everyone rolls a d20, ties for the highest reroll (among the tied). HB-69 (revised):
    these are rolls like any other, so each natural 20 among them changes the House Rule."""
    contenders = list(range(s.n))
    rolls: list[list[int]] = [[] for _ in range(s.n)]
    told: Events = []  # set-up keeps no event log: the view shows the rolls and the rule in force
    while True:
        for seat in contenders:
            rolls[seat].append(d20(s))
            if rolls[seat][-1] == R.DIE:
                natural_twenty(s, told)
        best = max(rolls[seat][-1] for seat in contenders)
        contenders = [seat for seat in contenders if rolls[seat][-1] == best]
        if len(contenders) == 1:
            s.turn_seat, s.start_rolls = contenders[0], rolls
            return


def new_game(players: Sequence[str], opts: Mapping[str, Any], seed: int,
             start_dice: Sequence[int] = ()) -> BarcadiaState:
    """A new game. ``start_dice`` (tests only, see ``scenario.new_game_rolling``) are the first
    d20 results of the first-player roll, used before the RNG."""
    c = content()
    n = len(players)
    rng = Rng(seed)
    tiles = dungeon_tiles(n, bool(opts["small_game_removal"]), rng)
    loot = c.loot_deck()
    rng.shuffle(loot)
    pus = c.powerup_deck()
    rng.shuffle(pus)
    hands = [[loot.pop() for _ in range(R.STARTING_LOOT)] for _ in range(n)]
    characters: list[str] = []
    if opts["signature_moves"] and opts["characters"] == "random":
        chars = list(c.characters)
        rng.shuffle(chars)
        characters = chars[:n]
    elif opts["signature_moves"]:
        characters = [""] * n  # HB-68: chosen before play (``open_character_choice``)
    house_deck: list[str] = []
    house_rule = ""
    if opts["house_rules"]:
        house_deck = list(c.house_rules)
        rng.shuffle(house_deck)
        house_rule = house_deck.pop(0)
    s = BarcadiaState(
        players=list(players), options=dict(opts), rng=0, layout=[[0, 0]], rooms=[start_point()],
        pos=[0] * n, hp=[R.FULL_HP] * n, hands=hands, powerups=[[] for _ in range(n)], characters=characters,
        autopass=[False] * n, shield=[0] * n, loot_deck=loot, loot_discard=[], powerup_deck=pus,
        traps_left=R.TRAP_TOKENS, house_deck=house_deck, house_rule=house_rule, phase=PHASE_TURN,
        turn=new_turn_flags(), loaded_dice=list(start_dice),
    )
    s.rng = rng.state
    roll_for_first_player(s)
    rng = Rng(s.rng)
    if opts["layout"] == "players":
        # HB-15/16: deal round-robin, place in seat order from a random seat; nobody sees a tile.
        start = rng.below(n)
        s.phase = PHASE_PLACE
        s.placing = {"tiles": tiles, "order": [(start + i) % n for i in range(len(tiles))]}
    else:
        hexes = random_layout(len(tiles), rng)
        s.layout = [[0, 0]] + [[q, r] for q, r in hexes]
        s.rooms = [start_point()] + [empty_room(t) for t in tiles]
    s.rng = rng.state
    if characters and not all(characters):
        open_character_choice(s, list(range(n)))
    return s


def open_character_choice(s: BarcadiaState, seats: list[int]) -> None:
    """HB-68: ask ``seats`` for their characters, all at once and in secret (``flow``
    resolves the round when the last of them has chosen)."""
    s.phase = PHASE_CHARACTERS
    s.window = {"open": True, "asked": seats, "chosen": {}, "order": []}
    s.step_version = s.version
