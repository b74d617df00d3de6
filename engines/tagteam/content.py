"""Fighters and cards as data: the TOML files in ``data/`` parsed and validated on load.

Why a tiny action language: every card effect is composed from the same handful of verbs
(TT-49..TT-54 plus tokens, special tracks and flips), so one line such as
``"attack opponents => power +1"`` says exactly what a card does and the resolver needs no
per-card code. A mistake in a file is reported with the file, the card and the offending
text (``ContentError``), never as a crash in the middle of a game.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from importlib import resources
from typing import Any

from engines.datafile import require

SCHEMA_VERSION = 1

VERBS = ("attack", "block", "heal", "power", "damage", "token", "special", "flip")
TARGETS = ("you", "partner", "opponent", "opponent_partner", "opponents")
ACTORS = ("you", "partner")
OPPOSING = ("opponent", "opponent_partner", "opponents")
COMPARATORS = (">=", "<=", "==", ">", "<")
BUILTIN_ICONS = ("stop", "cancel")

# TT-2: the shared pieces. Any 4 fighters must fit within them (TT-88).
PIECES: Mapping[str, int] = {
    "special_marker": 4,
    "health_marker": 6,
    "sheriff": 1,
    "golem": 1,
    "serpent": 1,
    "concentration": 2,
    "aflame": 5,
    "scheme": 11,
}


class ContentError(ValueError):
    """A data file breaks the schema; the message names the file and the place."""


@dataclass(frozen=True)
class Quantity:
    """An amount read from the board: ``sign * value`` or ``sign * <subject>.<name>``.

    ``name`` is ``""`` for a plain integer, else ``hp``, ``power``, ``special`` or
    ``tokens:<id>``; ``subject`` is ``actor`` or ``target``.
    """

    value: int = 0
    name: str = ""
    subject: str = "actor"
    sign: int = 1


@dataclass(frozen=True)
class Condition:
    """``<subject>.<quantity> <op> <number>`` or ``side:<name>``, read at the step's start."""

    left: Quantity
    op: str
    right: int
    side: str = ""


@dataclass(frozen=True)
class Act:
    """One Action of the vocabulary (TT-49)."""

    verb: str
    amount: Quantity = Quantity()
    target: str = "you"
    actor: str = "you"
    token: str = ""
    side: str = ""
    condition: Condition | None = None
    bonus: tuple[Act, ...] = ()
    source: str = ""


@dataclass(frozen=True)
class Card:
    id: str
    fighter: str
    name: str
    frequency: int
    starting: bool
    segments: tuple[tuple[Act, ...], ...]
    instant: tuple[Act, ...] = ()


@dataclass(frozen=True)
class Side:
    id: str
    name: str
    max_hp: int
    start: int
    icons: Mapping[int, tuple[str, ...]]
    flip_when: Condition | None = None
    flip_to: str = ""
    on_flip: tuple[Act, ...] = ()

    def has(self, space: int, icon: str) -> bool:
        return icon in self.icons.get(space, ())

    def walk(self, pos: int, delta: int) -> tuple[int, list[int]]:
        """TT-47/TT-64: space by space; Stop halts; Max and KO bound. Returns the end and the icon
        spaces entered (stopped on or passed; the starting space is never entered, TT-58/TT-59)."""
        step = 1 if delta > 0 else -1
        entered: list[int] = []
        for _ in range(abs(delta)):
            nxt = pos + step
            if nxt < 0 or nxt > self.max_hp:
                break
            pos = nxt
            icons = self.icons.get(pos)
            if icons:
                if "stop" in icons:
                    break  # a Stop space triggers nothing else (TT-64)
                entered.append(pos)
        return pos, entered


@dataclass(frozen=True)
class TokenKind:
    id: str
    name: str
    count: int
    start: int  # how many start beside the owning fighter
    attack_taken: int = 0  # added to each Attack on the holder, per token held
    upkeep: tuple[Act, ...] = ()  # run for the holder at the end of every Turn


@dataclass(frozen=True)
class Fighter:
    id: str
    name: str
    base_power: int
    sides: tuple[Side, ...]
    special_name: str
    special_max: int
    special_start: int
    tokens: tuple[TokenKind, ...]
    icon_effects: Mapping[str, tuple[Act, ...]]
    cards: tuple[Card, ...]
    aliases: tuple[str, ...]
    first_game: bool
    design: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {s.id: s for s in self.sides})

    @property
    def starting_card(self) -> Card:
        return next(c for c in self.cards if c.starting)

    def side(self, side_id: str) -> Side:
        by_id: dict[str, Side] = self.__dict__["_by_id"]
        return by_id[side_id]


@dataclass(frozen=True)
class Content:
    fighters: Mapping[str, Fighter]
    cards: Mapping[str, Card]
    tokens: Mapping[str, TokenKind]
    token_owner: Mapping[str, str]
    content_version: str = ""

    @cached_property
    def upkeep_tokens(self) -> frozenset[str]:
        """Token kinds that act at the end of every Turn (the resolver skips the rest)."""
        return frozenset(k for k, t in self.tokens.items() if t.upkeep)

    @cached_property
    def flip_fighters(self) -> frozenset[str]:
        """Fighters with a board side that can flip (checked after every step)."""
        return frozenset(f.id for f in self.fighters.values() if any(s.flip_when for s in f.sides))

    def with_cards(self, cards: Iterable[Card]) -> Content:
        """A copy that also knows ``cards`` (scenario tests use made-up cards, TT S-3..)."""
        merged = dict(self.cards)
        for c in cards:
            merged[c.id] = c
        return replace(self, cards=merged)

    def fighter_deck(self, fighter_id: str) -> list[str]:
        """The fighter's 10 card ids, Starting card first (TT-85)."""
        f = self.fighters[fighter_id]
        out = [f.starting_card.id]
        for c in f.cards:
            if not c.starting:
                out.extend([c.id] * c.frequency)
        return out


# ---------------------------------------------------------------------------
# The action language


def _quantity(text: str, where: str) -> Quantity:
    sign = 1
    body = text
    if body.startswith(("+", "-")):
        sign = -1 if body[0] == "-" else 1
        body = body[1:]
    if body.isdigit():
        return Quantity(value=int(body), sign=sign)
    subject = "actor"
    if "." in body:
        subject, body = body.split(".", 1)
        if subject not in ("actor", "target"):
            raise ContentError(f"{where}: quantity subject must be actor or target, not {subject!r}")
    if body in ("hp", "power", "special") or body.startswith("tokens:"):
        return Quantity(name=body, subject=subject, sign=sign)
    raise ContentError(f"{where}: {text!r} is neither a number nor hp/power/special/tokens:<id>")


def parse_condition(text: str, where: str) -> Condition:
    text = text.strip()
    if text.startswith("side:"):
        return Condition(Quantity(), "==", 0, side=text[5:])
    for op in COMPARATORS:
        if op in text:
            left, right = text.split(op, 1)
            if not right.strip().isdigit():
                raise ContentError(f"{where}: condition {text!r} must compare with a whole number")
            return Condition(_quantity(left.strip(), where), op, int(right))
    raise ContentError(f"{where}: condition {text!r} needs one of {' '.join(COMPARATORS)} or side:<name>")


def parse_act(text: str, where: str) -> Act:
    """``<verb> [amount] [token/side] [target] [by partner] [if <cond>] [=> bonus; bonus]``."""
    source = text.strip()
    bonus: tuple[Act, ...] = ()
    if "=>" in source:
        main, _, rest = source.partition("=>")
        bonus = tuple(parse_act(b, where) for b in rest.split(";") if b.strip())
    else:
        main = source
    condition = None
    if " if " in f" {main} ":
        main, _, cond = f" {main} ".partition(" if ")
        condition = parse_condition(cond, where)
    words = main.split()
    if not words or words[0] not in VERBS:
        raise ContentError(f"{where}: {text!r} must start with one of {', '.join(VERBS)}")
    verb = words.pop(0)
    actor = "you"
    if words[-2:] == ["by", "partner"]:
        actor = "partner"
        words = words[:-2]
    token = side = ""
    if verb == "token":
        if not words:
            raise ContentError(f"{where}: {text!r}: token needs a token id")
        token = words.pop(0)
    if verb == "flip":
        if not words:
            raise ContentError(f"{where}: {text!r}: flip needs a side id")
        side = words.pop(0)
    amount = Quantity()
    if verb in ("heal", "power", "damage", "token", "special"):
        if not words:
            raise ContentError(f"{where}: {text!r}: {verb} needs an amount")
        amount = _quantity(words.pop(0), where)
    target = "opponent" if verb in ("attack", "damage") else "you"
    if words:
        target = words.pop(0)
        if target not in TARGETS and not target.startswith("holder:"):
            raise ContentError(f"{where}: {text!r}: unknown target {target!r}; use {', '.join(TARGETS)}")
    if words:
        raise ContentError(f"{where}: {text!r}: cannot read {' '.join(words)!r}")
    if verb == "attack" and target not in OPPOSING and not target.startswith("holder:"):
        raise ContentError(f"{where}: {text!r}: an Attack must aim at the other team")
    if verb == "block" and target not in ("you", "partner"):
        raise ContentError(f"{where}: {text!r}: a Block protects you or partner")
    return Act(verb, amount, target, actor, token, side, condition, bonus, source)


def parse_segments(lines: list[str], where: str) -> tuple[tuple[Act, ...], ...]:
    """A card's actions; the word ``then`` (TT-67) starts a new segment."""
    segments: list[list[Act]] = [[]]
    for line in lines:
        if line.strip().lower() == "then":
            segments.append([])
        else:
            segments[-1].append(parse_act(line, where))
    if any(not seg for seg in segments):
        raise ContentError(f"{where}: empty segment (a `then` at the start, the end or twice)")
    return tuple(tuple(seg) for seg in segments)


# ---------------------------------------------------------------------------
# Loading one fighter file


def _need(table: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
    return require(table, key, kind, where, ContentError)


def _side(table: Mapping[str, Any], where: str) -> Side:
    sid = _need(table, "id", str, where)
    w = f"{where} side {sid}"
    max_hp = _need(table, "max", int, w)
    start = _need(table, "start", int, w)
    if not 1 <= start <= max_hp:
        raise ContentError(f"{w}: Start {start} must lie in 1..{max_hp} (TT-88)")
    icons: dict[int, tuple[str, ...]] = {}
    for key, names in dict(table.get("icons", {})).items():
        if not str(key).isdigit():
            raise ContentError(f"{w}: icon space {key!r} is not a number")
        space = int(key)
        if space == 0:
            raise ContentError(f"{w}: no icon may sit on KO (TT-88)")
        if space > max_hp:
            raise ContentError(f"{w}: icon on space {space} beyond Max {max_hp}")
        icons[space] = tuple([names] if isinstance(names, str) else names)
    flip_when = parse_condition(table["flip_when"], w) if "flip_when" in table else None
    on_flip = tuple(parse_act(a, w) for a in table.get("on_flip", []))
    return Side(sid, _need(table, "name", str, w), max_hp, start, icons, flip_when,
                str(table.get("flip_to", "")), on_flip)


def load_fighter(data: Mapping[str, Any], where: str) -> Fighter:
    if data.get("schema_version") != SCHEMA_VERSION:
        raise ContentError(f"{where}: schema_version must be {SCHEMA_VERSION}")
    _need(data, "content_version", str, where)
    fid = _need(data, "id", str, where)
    sides = tuple(_side(s, where) for s in _need(data, "sides", list, where))
    if not sides:
        raise ContentError(f"{where}: a fighter needs at least one side")
    special = dict(data.get("special", {}))
    tokens = tuple(
        TokenKind(
            _need(t, "id", str, where), _need(t, "name", str, where),
            _need(t, "count", int, where), int(t.get("start", 0)), int(t.get("attack_taken", 0)),
            tuple(parse_act(a, f"{where} token {t['id']}") for a in t.get("upkeep", [])),
        )
        for t in data.get("tokens", [])
    )
    icon_effects = {
        code: tuple(parse_act(a, f"{where} icon {code}") for a in acts)
        for code, acts in dict(data.get("icon_effects", {})).items()
    }
    cards = []
    for c in _need(data, "cards", list, where):
        cid = _need(c, "id", str, where)
        w = f"{where} card {cid}"
        cards.append(Card(
            f"{fid}.{cid}", fid, _need(c, "name", str, w), _need(c, "frequency", int, w),
            bool(c.get("starting", False)), parse_segments(_need(c, "actions", list, w), w),
            tuple(parse_act(a, w) for a in c.get("instant", [])),
        ))
    return Fighter(
        fid, _need(data, "name", str, where), _need(data, "base_power", int, where), sides,
        str(special.get("name", "")), int(special.get("length", 0)), int(special.get("start", 0)),
        tokens, icon_effects, tuple(cards), tuple(data.get("aliases", [])),
        bool(data.get("first_game", False)), _need(data, "design", str, where),
    )


def _walk(acts: Iterable[Act]) -> Iterable[Act]:
    for a in acts:
        yield a
        yield from _walk(a.bonus)


def _quantities(a: Act) -> Iterable[Quantity]:
    yield a.amount
    if a.condition is not None:
        yield a.condition.left


def validate_fighter(f: Fighter, where: str) -> None:
    """TT-88 checks that need the whole fighter."""
    if sum(c.frequency for c in f.cards) != 10:
        raise ContentError(f"{where}: frequencies sum to {sum(c.frequency for c in f.cards)}, not 10 (TT-88)")
    starting = [c for c in f.cards if c.starting]
    if len(starting) != 1 or starting[0].frequency != 1:
        raise ContentError(f"{where}: exactly one Starting card with Frequency 1 (TT-88)")
    if f.special_max and not 0 <= f.special_start <= f.special_max:
        raise ContentError(f"{where}: special track start outside 0..{f.special_max}")
    token_ids = {t.id for t in f.tokens}
    side_ids = {s.id for s in f.sides}
    for t in f.tokens:
        if t.id not in PIECES:
            raise ContentError(f"{where}: token {t.id!r} is not one of the pieces {', '.join(PIECES)} (TT-2)")
        if not 0 <= t.start <= t.count:
            raise ContentError(f"{where}: token {t.id} starts with {t.start} of {t.count}")
    for s in f.sides:
        for names in s.icons.values():
            for icon in names:
                if icon not in BUILTIN_ICONS and icon not in f.icon_effects:
                    raise ContentError(f"{where}: icon {icon!r} on side {s.id} has no icon_effects entry")
        if s.flip_to and s.flip_to not in side_ids:
            raise ContentError(f"{where}: side {s.id} flips to unknown side {s.flip_to!r}")
    every: list[Act] = []
    for c in f.cards:
        every += [a for seg in c.segments for a in seg] + list(c.instant)
        for a in _walk(c.instant):
            if a.verb in ("attack", "block") or a.target in ("opponent", "opponent_partner"):
                raise ContentError(f"{where} card {c.id}: an Instant Bonus has no Active fighter (TT-79): "
                                   f"{a.source!r} must not attack, block or aim at one opponent")
    for acts in f.icon_effects.values():
        every += list(acts)
    for s in f.sides:
        every += list(s.on_flip)
        if s.flip_when is not None and s.flip_when.left.name.startswith("tokens:"):
            every.append(Act("power", s.flip_when.left))
    for t in f.tokens:
        every += list(t.upkeep)
    for a in _walk(every):
        refs = [q.name[7:] for q in _quantities(a) if q.name.startswith("tokens:")]
        if a.token:
            refs.append(a.token)
        if a.target.startswith("holder:"):
            refs.append(a.target[7:])
        for ref in refs:
            if ref not in token_ids:
                raise ContentError(f"{where}: {a.source!r} refers to token {ref!r}, not declared (TT-88)")
        if a.verb == "flip" and a.side not in side_ids:
            raise ContentError(f"{where}: {a.source!r} flips to unknown side {a.side!r}")
        if a.verb == "special" and not f.special_max:
            raise ContentError(f"{where}: {a.source!r} moves a special marker but the fighter has no special track")


def validate_pieces(fighters: Mapping[str, Fighter]) -> None:
    """TT-88: any 4 fighters fit within the TT-2 pieces (each token kind is one fighter's)."""
    worst_special = sorted((1 if f.special_max else 0 for f in fighters.values()), reverse=True)[:4]
    if sum(worst_special) > PIECES["special_marker"]:
        raise ContentError("some 4 fighters need more Special markers than the 4 in the box (TT-88)")
    owners: dict[str, str] = {}
    for f in fighters.values():
        for t in f.tokens:
            if t.id in owners:
                raise ContentError(f"token {t.id!r} is declared by both {owners[t.id]} and {f.id}")
            owners[t.id] = f.id
            if t.count > PIECES[t.id]:
                raise ContentError(f"{f.id}: {t.count} {t.id} tokens, the box has {PIECES[t.id]} (TT-2)")


# ---------------------------------------------------------------------------
# TT-59/TT-60: icon chains must stay finite

# A node is an icon space that runs Actions, ("icon", fighter, side, space), or a flip rule
# whose on_flip Actions run in the wave after it, ("flip", fighter, side it flips from).
Node = tuple[str, str, str, int]


def _directions(a: Act) -> tuple[int, ...]:
    """Which way an Action can move its target's marker: +1 up, -1 down, () not at all."""
    if a.verb == "attack":
        return (-1,)
    if a.verb not in ("heal", "damage"):
        return ()
    way = 1 if a.verb == "heal" else -1
    q = a.amount
    if q.name:
        return (way * q.sign,)  # hp, power, special and token counts are never negative
    n = q.sign * q.value
    return (way if n > 0 else -way,) if n else ()


def _reach(side: Side, space: int, way: int) -> set[int]:
    """Icon spaces a marker can enter moving ``way`` (any amount) from wherever it may stand just
    after it entered ``space``: anywhere from ``space`` to the next Stop or end in the direction
    it came from, coming down (if something lies above) or up (if it could start above KO)."""
    stops = [p for p, icons in side.icons.items() if "stop" in icons]
    low = max((p for p in stops if p < space), default=0)
    high = min((p for p in stops if p > space), default=side.max_hp)
    starts: set[int] = set()
    if space < side.max_hp:
        starts.update(range(low, space + 1))
    if space >= 2:
        starts.update(range(space, high + 1))
    out: set[int] = set()
    for q in starts:
        if way > 0 and q == 0:
            continue  # a KO marker never moves up (TT-41)
        out.update(side.walk(q, way * side.max_hp)[1])
    return out


def validate_icon_chains(fighters: Mapping[str, Fighter], where: Mapping[str, str]) -> None:
    """TT-59: reject content on which icon-caused movement could reach the same icon again.

    Icons fire every time a marker enters them, so an icon whose Actions (directly, or through
    other icons and flip rules) can move a marker back onto it could chain without end. The
    check is conservative: amounts are ignored, a marker stands anywhere its last movement
    could have left it, and another fighter's marker (any fighter may be an opponent) or a
    marker on a board just flipped may stand anywhere at all. Cancel and Stop run no Actions.
    """
    nodes: dict[Node, tuple[Act, ...]] = {}
    for f in fighters.values():
        for side in f.sides:
            for space, icons in sorted(side.icons.items()):
                acts = tuple(a for icon in icons if "stop" not in icons for a in f.icon_effects.get(icon, ()))
                if acts:
                    nodes[("icon", f.id, side.id, space)] = acts
            if side.flip_when is not None and side.flip_to and side.on_flip:
                nodes[("flip", f.id, side.id, 0)] = side.on_flip
    chain_acts = [a for acts in nodes.values() for a in _walk(acts)]
    any_flip = any(a.verb == "flip" and a.target != "you" for a in chain_acts)
    own_flip = {n[1] for n, acts in nodes.items() for a in _walk(acts) if a.verb == "flip" and a.target == "you"}

    def returns(fid: str, frm: str, to: str) -> bool:
        """Can fighter ``fid``'s board get from side ``frm`` back to side ``to`` during a chain?"""
        f = fighters[fid]
        if frm == to or any_flip or fid in own_flip:
            return True
        seen, todo = {frm}, [frm]
        while todo:
            nxt = f.side(todo.pop()).flip_to
            if nxt == to:
                return True
            if nxt and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
        return False

    def icons_of(fid: str, side_id: str | None = None) -> list[Node]:
        return [n for n in nodes if n[0] == "icon" and n[1] == fid and (side_id is None or n[2] == side_id)]

    edges: dict[Node, set[Node]] = {}
    for node, acts in nodes.items():
        kind, fid, side_id, space = node
        f = fighters[fid]
        out = edges[node] = set()
        on = f.side(side_id).flip_to if kind == "flip" else side_id  # the board its movement happens on
        for a in _walk(acts):
            ways = _directions(a)
            if not ways:
                continue
            if a.target == "you" or a.target.startswith("holder:"):
                if kind == "icon":
                    for way in ways:
                        out.update(("icon", fid, on, p) for p in _reach(f.side(on), space, way))
                else:
                    out.update(icons_of(fid, on))
                if any_flip or fid in own_flip:
                    out.update(n for n in icons_of(fid) if n[2] != on)
            if a.target != "you":
                out.update(n for other in fighters if other != fid for n in icons_of(other))
        out.intersection_update(nodes)
    for flip in (n for n in nodes if n[0] == "flip"):
        for node in nodes:  # a flip rule is checked after every step, so it may follow any node
            board = fighters[node[1]].side(node[2]).flip_to if node[0] == "flip" else node[2]
            if node[1] != flip[1] or returns(flip[1], board, flip[2]):
                edges[node].add(flip)

    cycle = _find_cycle(edges)
    if cycle:
        def label(n: Node) -> str:
            kind, fid, side_id, space = n
            acts = "; ".join(a.source for a in nodes[n])
            if kind == "flip":
                return f"{where[fid]} side {side_id} flip to {fighters[fid].side(side_id).flip_to} [{acts}]"
            icons = "/".join(fighters[fid].side(side_id).icons[space])
            return f"{where[fid]} side {side_id} space {space} {icons} [{acts}]"
        path = " → ".join(label(n) for n in [*cycle, cycle[0]])
        raise ContentError(f"{where[cycle[0][1]]}: icon-caused movement could loop (TT-59): {path}. "
                           "An icon's Actions must not be able to move a marker back onto the same icon "
                           "within one chain of waves: move the icon, add a Stop space, or change its Actions.")


def _find_cycle(edges: Mapping[Node, set[Node]]) -> list[Node]:
    """One cycle of the graph (the nodes in order), or [] when there is none."""
    state: dict[Node, int] = {}  # 1 = on the current path, 2 = done
    for root in sorted(edges):
        if root in state:
            continue
        path: list[Node] = [root]
        todo = [iter(sorted(edges[root]))]
        state[root] = 1
        while todo:
            nxt = next(todo[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                todo.pop()
            elif state.get(nxt) == 1:
                return path[path.index(nxt):]
            elif nxt not in state:
                state[nxt] = 1
                path.append(nxt)
                todo.append(iter(sorted(edges[nxt])))
    return []


def build_content(files: Mapping[str, Mapping[str, Any]]) -> Content:
    fighters: dict[str, Fighter] = {}
    where_of: dict[str, str] = {}
    versions = set()
    for where, data in sorted(files.items()):
        f = load_fighter(data, where)
        validate_fighter(f, where)
        if f.id in fighters:
            raise ContentError(f"{where}: fighter id {f.id!r} defined twice")
        fighters[f.id] = f
        where_of[f.id] = where
        versions.add(str(data["content_version"]))
    validate_pieces(fighters)
    validate_icon_chains(fighters, where_of)
    cards = {c.id: c for f in fighters.values() for c in f.cards}
    tokens = {t.id: t for f in fighters.values() for t in f.tokens}
    owner = {t.id: f.id for f in fighters.values() for t in f.tokens}
    return Content(fighters, cards, tokens, owner, ",".join(sorted(versions)))


def load_content() -> Content:
    """The 12 fighters shipped in ``engines/tagteam/data``."""
    files: dict[str, Mapping[str, Any]] = {}
    folder = resources.files("engines.tagteam") / "data"
    for entry in folder.iterdir():
        if entry.name.endswith(".toml"):
            try:
                files[entry.name] = tomllib.loads(entry.read_text(encoding="utf-8"))
            except tomllib.TOMLDecodeError as exc:
                raise ContentError(f"{entry.name}: not valid TOML: {exc}") from exc
    if len(files) != 12:
        raise ContentError(f"expected 12 fighter files in data/, found {len(files)} (TT-1)")
    return build_content(files)


__all__ = [
    "Act", "Card", "Condition", "Content", "ContentError", "Fighter", "Quantity", "Side", "TokenKind",
    "build_content", "load_content", "parse_act", "parse_segments", "validate_icon_chains",
]
