"""Command text: canonical ``format``, bilingual menu labels and a forgiving ``parse``.

Canonical commands use room numbers (``reveal 12``, ``enter 3 7``, ``portal sp``) because a
number is never ambiguous; players may also write directions (``reveal ne``, ``enter n nw``:
each relative to the room reached so far; from the Starting Point a direction means the room
two steps from its centre hex), card names in English or Vietnamese, with or without
diacritics, and player names or their first letters.

Forgiving is not guessing: a line is a command only when the WHOLE line is one. Polite fillers at
either end go first (``engines.wording.strip_fillers``: "pass please", "lật 12 nhé"); then the
line starts with a verb (or a Loot card's name) and every word after it must be an argument in its
place: a room, a player, a card, a number. "2 kids, 1 dog" or "duel bob later maybe" are refused.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import cache, lru_cache

from engines import i18n
from engines.barcadia.content import content
from engines.barcadia.hexes import DIRECTION_WORDS, DIRECTIONS, START_POINT, direction_between
from engines.barcadia.rules import room_label
from engines.barcadia.state import KNOWN, PHASE_CHARACTERS, TILE, UP, BarcadiaState
from engines.contract import Action, AmbiguousCommand, IllegalCommand, InvalidCommand, Seat, Text, tr, trc
from engines.i18n import each_lang
from engines.wording import strip_fillers


@lru_cache(maxsize=4096)
def fold(text: str) -> str:
    """Lower case without diacritics (``Lật`` -> ``lat``, ``đấu`` -> ``dau``).

    Cached (a pure function of the text): the same commands are read again and again."""
    text = text.lower().replace("đ", "d")
    return "".join(ch for ch in unicodedata.normalize("NFD", text) if not unicodedata.combining(ch))


@cache
def slug(text: str) -> str:
    return "-".join(re.sub(r"[^a-z0-9]+", " ", fold(text)).split())


BUILTIN_VERBS: dict[str, str] = {
    "reveal": "reveal", "open": "reveal", "flip": "reveal", "explore": "reveal", "lat": "reveal", "lat mo": "reveal",
    "mo": "reveal", "kham pha": "reveal",
    "enter": "enter", "move": "enter", "go": "enter", "walk": "enter", "vao": "enter", "di": "enter",
    "hoard": "hoard", "attempt": "hoard", "guardian": "hoard", "fight": "hoard", "kho": "hoard", "kho bau": "hoard",
    "danh": "hoard",
    "duel": "duel", "dau": "duel", "dau tay doi": "duel", "thach dau": "duel",
    "portal": "portal", "teleport": "portal", "tp": "portal", "cong": "portal", "dich chuyen": "portal",
    "play": "play", "use": "play", "dung": "play", "choi": "play",
    "trap": "trap", "bay": "trap", "cam bay": "trap", "dat bay": "trap",
    "pass": "pass", "end": "pass", "done": "pass", "skip": "pass", "qua": "pass", "bo qua": "pass", "xong": "pass",
    "ket thuc": "pass",
    "autopass": "autopass", "auto-pass": "autopass", "auto pass": "autopass", "tu bo qua": "autopass",
    "tu dong bo qua": "autopass",
    "team": "team", "teammate": "team", "mate": "team", "dong doi": "team",
    "boss": "boss", "trum": "boss",
    "wait": "wait", "stay": "wait", "later": "wait", "cho": "wait", "o lai": "wait", "doi": "wait",
    "drop": "drop", "discard": "drop", "bo": "drop", "bo lai": "drop", "tha": "drop",
    "put": "put", "dat": "put", "de": "put",
    "keep": "keep", "giu": "keep",
    "place": "place", "build": "place", "xay": "place",
    "character": "character", "choose": "character", "pick": "character", "hero": "character",
    "chon": "character", "nhan vat": "character", "chon nhan vat": "character",
}
OFF_WORDS = {"off", "tat", "no", "khong"}
ON_WORDS = {"on", "bat", "yes", "co"}
SP_WORDS = {"sp", "start", "0", "xp", "xuat-phat", "diem-xuat-phat", "start-point"}


#: The command word of each action kind, a catalog message (msgctxt "barcadia command") shown
#: in the reader's language; every catalog's translation parses back (``verbs``).
COMMAND_VERBS: dict[str, Text] = {
    "reveal": trc("barcadia command", "reveal"), "enter": trc("barcadia command", "enter"),
    "portal": trc("barcadia command", "portal"), "hoard": trc("barcadia command", "hoard"),
    "duel": trc("barcadia command", "duel"), "play": trc("barcadia command", "play"),
    "trap": trc("barcadia command", "trap"), "pass": trc("barcadia command", "pass"),
    "autopass": trc("barcadia command", "autopass"), "team": trc("barcadia command", "team"),
    "boss": trc("barcadia command", "boss"), "wait": trc("barcadia command", "wait"),
    "drop": trc("barcadia command", "drop"), "put": trc("barcadia command", "put"),
    "keep": trc("barcadia command", "keep"), "character": trc("barcadia command", "character"),
    "place": trc("barcadia command", "place"),
}
#: The Starting Point and "auto-pass off" in commands, in the reader's words.
START_WORD = trc("barcadia command", "sp")
OFF_WORD = trc("barcadia command", "off")


def _folded(word: Text) -> set[str]:
    """``word`` in every catalog, folded as parsing reads it."""
    return {" ".join(re.sub(r"[^a-z0-9#\- ]+", " ", fold(t)).split()) for t in i18n.translations(word.msgid, word.context)}


def verbs() -> dict[str, str]:
    """Every verb a player may write (folded) -> its action kind: the built-in aliases and the
    command words of every catalog present."""
    return _verbs(i18n.locale_key(), i18n.languages())


@cache
def _verbs(folder: str, langs: tuple[str, ...]) -> dict[str, str]:
    out = dict(BUILTIN_VERBS)
    for kind, word in COMMAND_VERBS.items():
        for said in _folded(word):
            out.setdefault(said, kind)
    return out


def sp_words() -> set[str]:
    return SP_WORDS | {w.replace(" ", "-") for w in _folded(START_WORD)}


def off_words() -> set[str]:
    return OFF_WORDS | _folded(OFF_WORD)


def card_slugs(deck: str) -> dict[str, str]:
    """A deck's card words (slugs) -> card id: ids, and the names in every catalog present."""
    return _card_slugs(deck, i18n.locale_key(), i18n.languages())


@cache
def _card_slugs(deck: str, folder: str, langs: tuple[str, ...]) -> dict[str, str]:
    c = content()
    cards = {"loot": c.loot, "powerup": c.powerups, "character": c.characters}[deck]
    out: dict[str, str] = {}
    for card in cards.values():
        for alias in (card.id, *(slug(t) for t in i18n.translations(card.name.msgid, card.name.context))):
            out.setdefault(alias, card.id)
    return out


# ---------------------------------------------------------------------------
# Formatting


def player_ref(s: BarcadiaState, seat: Seat) -> str:
    return player_refs(tuple(s.players))[seat]


@cache
def player_refs(players: tuple[str, ...]) -> tuple[str, ...]:
    """One word per player: the name's slug, or ``#k`` where the slug cannot name the player.

    A name that is also a verb ("Dũng" / ``dùng``) is fine: a player is only ever read after
    a verb (``duel dung``). ``#k`` is kept for names two players share, names of digits only
    (a room number), and names that would join the verb before them into another verb."""
    slugs = [slug(p) or f"#{i + 1}" for i, p in enumerate(players)]
    joined = {phrase.split(" ", 1)[1] for phrase in verbs() if " " in phrase}
    return tuple(f"#{i + 1}" if slugs.count(m) > 1 or m.isdigit() or m in joined or m in card_slugs("loot")
                 else m for i, m in enumerate(slugs))


def _in(lang: str | None, word: Text, canonical: str) -> str:
    """``word`` in ``lang``; the canonical word for the canonical command (``lang`` None) and
    where the catalog has no translation (English, or a language that has not translated it)."""
    said = word.get(lang) if lang else word.msgid
    return canonical if said == word.msgid else said


def room_ref(room: int, lang: str | None = None) -> str:
    return _in(lang, START_WORD, "sp") if room == 0 else str(room)


def _who(s: BarcadiaState, seat: Seat, lang: str | None) -> str:
    """A player as a command names them: a menu keeps the name's own letters ("Dũng") when it
    reads back to the same word; the canonical command uses the plain word ("dung")."""
    ref = player_ref(s, seat)
    name = s.players[seat].strip()
    return name if lang is not None and " " not in name and slug(name) == ref else ref


def _card_word(deck: str, card_id: str, lang: str | None) -> str:
    """A card as a command names it: its name in ``lang`` (English too: a player reads "drop
    crown of courage", never the id "boss-crown") when that name reads back to the same card;
    the id for the canonical command (``lang`` None) or a name that would not read back."""
    if lang is None:
        return card_id
    c = content()
    card = {"loot": c.loot, "powerup": c.powerups, "character": c.characters}[deck][card_id]
    said = card.name.get(lang)
    return said.lower() if card_slugs(deck).get(slug(said)) == card_id else card_id


def format_action(s: BarcadiaState, a: Action, lang: str | None = None) -> str:
    """The canonical command for ``a``; with ``lang``, the same command in that language's
    command words and names, as a menu shows it (both parse back to ``a``)."""
    args = a.args
    k = a.kind
    verb = _in(lang, COMMAND_VERBS[k], k) if k in COMMAND_VERBS else k
    if k in ("reveal", "put", "portal"):
        return f"{verb} {room_ref(int(str(args[0])), lang)}"
    if k == "enter":
        return verb + " " + " ".join(room_ref(int(str(x)), lang) for x in args)
    if k in ("duel", "team", "boss"):
        return f"{verb} {_who(s, int(str(args[0])), lang)}"
    if k in ("drop", "keep", "character"):
        deck = {"drop": "powerup", "keep": "loot", "character": "character"}[k]
        return f"{verb} {_card_word(deck, str(args[0]), lang)}"
    if k == "autopass":
        return verb if args[0] else f"{verb} {_in(lang, OFF_WORD, 'off')}"
    if k == "place":
        return f"{verb} {args[0]},{args[1]}"
    if k == "play":
        card = content().loot[str(args[0])]
        rest = [room_ref(int(str(x)), lang) if card.effect.kind not in ("damage_player", "steal_loot")
                else _who(s, int(str(x)), lang) for x in args[1:]]
        if card.effect.kind == "trap":
            return " ".join([_in(lang, COMMAND_VERBS["trap"], "trap"), *rest])
        return " ".join([verb, _card_word("loot", card.id, lang), *rest])
    return verb


# ---------------------------------------------------------------------------
# Labels


def describe_room(s: BarcadiaState, room: int) -> Text:
    shown = s.rooms[room][TILE] if room and (s.rooms[room][UP] or s.rooms[room][KNOWN]) else ""
    return _room_text(room, shown)


@cache
def _room_text(room: int, tile_id: str) -> Text:
    """Cached: menus name the same rooms again and again."""
    if room == 0:
        return tr("the Starting Point")
    tile = content().rooms.get(tile_id)
    if tile is None:
        return tr("room {room} (face down)", room=room)
    return tr("room {room} ({name})", room=room, name=tile.name)


def _room_there(s: BarcadiaState, room: int, d: Text) -> Text:
    """A room next to the reader's, with where it lies: "room 4 (face down, south of you)"."""
    shown = s.rooms[room][TILE] if s.rooms[room][UP] or s.rooms[room][KNOWN] else ""
    tile = content().rooms.get(shown)
    if tile is None:
        return tr("room {room} (face down, {d} of you)", room=room, d=d)
    return tr("room {room} ({name}, {d} of you)", room=room, name=tile.name, d=d)


#: Compass directions in words (a map with north up), for labels in each language.
COMPASS = {  # one catalog word per direction
    "n": tr("north"),
    "ne": tr("north-east"),
    "se": tr("south-east"),
    "s": tr("south"),
    "sw": tr("south-west"),
    "nw": tr("north-west"),
}


def where(s: BarcadiaState, seat: Seat, room: int) -> Text | None:
    """Where ``room`` lies from ``seat``'s room ("north"), when it is a neighbour of a room."""
    here = s.pos[seat]
    if here == 0 or room == 0:
        return None
    d = direction_between((s.layout[here][0], s.layout[here][1]), (s.layout[room][0], s.layout[room][1]))
    if not d:
        return None
    return COMPASS[d]


def label(s: BarcadiaState, seat: Seat, a: Action) -> Text:
    c = content()
    k = a.kind
    args = a.args
    if k == "reveal":
        room = int(str(args[0]))
        d = where(s, seat, room)
        known = describe_room(s, room) if not d else _room_there(s, room, d)
        return tr("Reveal {known} and enter it if you can", known=known)
    if k == "enter":
        rooms = [describe_room(s, int(str(x))) for x in args]
        path = rooms[0]
        for nxt in rooms[1:]:
            path = tr("{path}, then {nxt}", path=path, nxt=nxt)
        return tr("Enter {path}", path=path)
    if k == "hoard":
        h = c.hoard
        return tr("Fight the Grand Drink Guardian (level {level}, damage {damage}) for the win", level=h.level, damage=h.damage)
    if k == "duel":
        o = int(str(args[0]))
        return tr("Duel {players} in room {pos} (the loser takes 10 damage; win = swap rooms)", players=s.players[o], pos=s.pos[o])
    if k == "portal":
        room = int(str(args[0]))
        others = [o for o in s.occupants(room) if o != seat] if room != 0 else []
        if others:
            return tr("Duel {players} through the portal in room {room}", players=s.players[others[0]], room=room)
        return tr("Teleport to {room_label} (not an action)", room_label=room_label(room))
    if k == "play":  # the card's text is in the hand list of the same mail, said once there
        card = c.loot[str(args[0])]
        if card.effect.kind in ("damage_player", "steal_loot"):
            who = s.players[int(str(args[1]))]
            return tr("Play {name} on {who}", name=card.name, who=who)
        if len(args) > 1:
            rooms = [room_label(int(str(x))) for x in args[1:]]  # room 0 is "the Starting Point"
            aimed = rooms[0]
            for nxt in rooms[1:]:
                aimed = tr("{aimed} and {nxt}", aimed=aimed, nxt=nxt)
            return tr("Play {name} on {aimed}", name=card.name, aimed=aimed)
        return tr("Play {name}", name=card.name)
    if k == "pass":
        if s.pending or s.phase == "window":
            return tr("Pass: play no card now")
        return tr("End your turn")
    if k == "autopass":
        if args[0]:
            return tr("Pass, and stop asking me between turns (auto-pass)")
        return tr("Turn auto-pass off (be asked between turns again)")
    if k == "team":
        o = int(str(args[0]))
        return tr("Take {players} as your teammate", players=s.players[o])
    if k == "boss":
        o = int(str(args[0]))
        return tr("{players} plays the Boss against you", players=s.players[o])
    if k == "wait":
        return tr("Do not fight the Guardian now")
    if k == "drop":
        pu = c.powerups[str(args[0])]
        death = bool(s.pending) and s.pending[0]["kind"] == "death_drop"
        if death:
            return tr("Leave {name} where you died", name=pu.name)
        return tr("Give up {name} (you then choose the room for it)", name=pu.name)
    if k == "put":
        return tr("Put the Power-Up in {describe_room}", describe_room=describe_room(s, int(str(args[0]))))
    if k == "keep":
        card = c.loot[str(args[0])]
        return tr("Keep {name} (discard the rest)", name=card.name)
    if k == "character":
        card = c.characters[str(args[0])]
        return tr("Be the {name}", name=card.name)
    if k == "place":
        q, r = int(str(args[0])), int(str(args[1]))
        near = _placed_neighbour(s, (q, r))
        side = COMPASS.get(near[1]) or Text.fixed(near[1])  # "?": no placed neighbour
        return tr("Place the next room face down at {q},{r} ({side} of {room_label})", q=q, r=r, side=side, room_label=room_label(near[0]))
    return tr(k)


def _placed_neighbour(s: BarcadiaState, h: tuple[int, int]) -> tuple[int, str]:
    """A placed room next to hex ``h`` and the direction from it, to describe where a tile goes."""
    for i, (q, r) in enumerate(s.layout):
        cells = [(q, r)] if i else list(START_POINT)
        for cell in cells:
            d = direction_between(cell, h)
            if d:
                return i, d
    return 0, "?"


# ---------------------------------------------------------------------------
# Parsing


def _fail_invalid(s: BarcadiaState, text: str, legal: Sequence[Action]) -> InvalidCommand:
    """"Cannot read": with examples that are legal now and name this game's players."""
    examples = each_lang(_examples, s, legal, "`", ", ", 4)
    return InvalidCommand(
        tr("Cannot read {text!r}: a line counts only when the whole line is a command. Write just a command, such as {examples}, or a number from the menu.", text=text, examples=examples),
        _ex(s, legal))


#: what an error message suggests when nothing else is legal
PASS_EXAMPLE = tr("`pass`")


def _examples(s: BarcadiaState, legal: Sequence[Action], quote: str, sep: str, limit: int, lang: str) -> str:
    """A few legal commands as a player of ``lang`` writes them, for an error message (each
    language's own command words; ``each_lang`` calls it once per language)."""
    said = sep.join(f"{quote}{x}{quote}" for x in _ex(s, legal, lang)[:limit])
    return said or PASS_EXAMPLE[lang]


def _match_verb(words: list[str]) -> tuple[str, list[str]] | None:
    for size in (3, 2, 1):
        if len(words) >= size:
            phrase = " ".join(words[:size])
            known = verbs()
            if phrase in known:
                return known[phrase], words[size:]
    return None


def _player(s: BarcadiaState, seat: Seat, word: str) -> int | None:
    if word.startswith("#") and word[1:].isdigit():
        k = int(word[1:]) - 1
        return k if 0 <= k < s.n else None
    exact = [i for i in range(s.n) if slug(s.players[i]) == word]
    if len(exact) == 1:
        return exact[0]
    prefix = [i for i in range(s.n) if slug(s.players[i]).startswith(word) and i != seat]
    return prefix[0] if len(prefix) == 1 else None


def _room(s: BarcadiaState, word: str, here: int) -> int | None:
    if word in sp_words():
        return 0
    if word.isdigit():
        return int(word)
    d = DIRECTION_WORDS.get(word.replace("-", ""))
    if d is None:
        return None
    if here >= len(s.layout):
        return -1  # a direction from a room number that does not exist ("enter 99 n") names no room
    dq, dr = DIRECTIONS[d]
    q, r = s.layout[here] if here else (0, 0)
    target = (q + dq * (1 if here else 2), r + dr * (1 if here else 2))
    for i in range(1, len(s.layout)):
        if (s.layout[i][0], s.layout[i][1]) == target:
            return i
    return -1


def _card(words: list[str], deck: str) -> tuple[str, list[str]] | None:
    slugs = card_slugs(deck)
    for k in range(len(words), 0, -1):
        key = "-".join(words[:k])
        if key in slugs:
            return slugs[key], words[k:]
    return None


def _commands(s: BarcadiaState, actions: Sequence[Action], lang: str) -> str:
    """Actions as commands in ``lang``'s words, "; "-joined (for ``each_lang``)."""
    return "; ".join(format_action(s, a, lang) for a in actions)


def _ex(s: BarcadiaState, legal: Sequence[Action], lang: str | None = None) -> list[str]:
    """A few valid commands for an error message (computed only when an error is raised): one of
    each kind first, so the examples show what can be done rather than six rooms to reveal."""
    firsts = list({a.kind: a for a in reversed(legal)}.values())[::-1]
    picked = firsts + [a for a in legal if a not in firsts]
    return [format_action(s, a, lang) for a in picked[:6]]


def parse_command(s: BarcadiaState, seat: Seat, text: str, legal: Sequence[Action]) -> Action:
    text = strip_fillers(text)
    words = re.sub(r"[^a-z0-9#\- ]+", " ", fold(text).replace(",", " ")).split()
    if not words:
        raise _fail_invalid(s, text, legal)
    matched = _match_verb(words)
    if matched is None and s.phase == PHASE_CHARACTERS and _card(words, "character"):
        matched = ("character", words)  # a bare character name, while characters are chosen
    if matched is None:
        card = _card(words, "loot")
        if card is None:
            raise _fail_invalid(s, text, legal)
        verb, rest = "play", words
    else:
        verb, rest = matched
    kind = verb
    if verb in ("hoard", "pass", "wait") and rest:
        raise _fail_invalid(s, text, legal)
    given: list[str | int | bool | None] = []
    here = s.pos[seat] if s.pos else 0
    if verb in ("reveal", "put", "portal", "enter"):
        for w in rest:
            room = _room(s, w, here)
            if room is None:
                raise _fail_invalid(s, text, legal)
            given.append(room)
            here = room if room >= 0 else here
    elif verb in ("duel", "team", "boss"):
        if len(rest) > 1:  # one player, nothing else: "duel bob later maybe" is a sentence
            raise _fail_invalid(s, text, legal)
        for w in rest:
            who = _player(s, seat, w)
            if who is None:
                raise IllegalCommand(tr("No player called {w!r}: write one of {join}", w=w, join=', '.join(s.players)), _ex(s, legal))
            given.append(who)
    elif verb == "autopass":
        off = off_words()
        if len(rest) > 1 or (rest and rest[0] not in off | ON_WORDS):
            raise _fail_invalid(s, text, legal)
        given.append(not (rest and rest[0] in off))
    elif verb in ("drop", "keep", "character"):
        named = _card(rest, {"drop": "powerup", "keep": "loot", "character": "character"}[verb])
        if rest and (named is None or named[1]):  # a card name and nothing after it
            raise _fail_invalid(s, text, legal)
        if named:
            given.append(named[0])
    elif verb == "place":
        if not all(re.fullmatch(r"-?\d+", w) for w in rest):  # numbers only, never picked out of words
            raise _fail_invalid(s, text, legal)
        given += [int(x) for x in rest]
    elif verb in ("play", "trap"):
        if verb == "trap":
            found: tuple[str, list[str]] | None = ("trap", rest)
        else:
            found = _card(rest, "loot")
            if found is None:
                raise _fail_invalid(s, text, legal)
        assert found is not None
        card_id, rest = found
        kind = "play"
        given.append(card_id)
        effect = content().loot[card_id].effect.kind
        for w in rest:
            target = _player(s, seat, w) if effect in ("damage_player", "steal_loot") else _room(s, w, s.pos[seat])
            if target is None:
                raise _fail_invalid(s, text, legal)
            given.append(target)
    candidates = [a for a in legal if a.kind == kind and tuple(a.args[:len(given)]) == tuple(given)]
    exact = [a for a in candidates if len(a.args) == len(given)]
    if len(exact) == 1:
        return exact[0]
    if len(candidates) == 1 and kind != "enter":
        return candidates[0]
    if len(candidates) > 1:
        options = [format_action(s, a) for a in candidates[:8]]
        written = each_lang(_commands, s, candidates[:8])
        raise AmbiguousCommand(tr("{text!r} could mean several moves; nothing was done. Write one of: {written}", text=text, written=written),
                               options)
    examples = _ex(s, legal)
    written = each_lang(_examples, s, legal, "", "; ", len(examples))
    raise IllegalCommand(tr("{text!r} is not possible now. You can write e.g.: {written}", text=text, written=written), examples)
