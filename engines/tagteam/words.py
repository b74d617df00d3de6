"""Card effects, icons, tokens and flips in words, for the people reading the mail.

The content notation (``damage actor.tokens:scheme opponent``, ``block => special +1``) is
exact but not for players. Everything here is generated from the parsed ``Act`` structures of
``content.py``, so a card has no hand-written text to keep in step with its data: a new card or
fighter reads in every language as soon as it loads.

Every piece is a catalog message (``trc("tagteam", ...)``) with named fields: a whole clause
("deal {n} damage to {target}"), never words glued per language, so a language with another
word order translates the clause as a whole and a third language is one more ``.po``. The code
chooses a message only by structure (who acts, how many), never by language. Names of tokens,
special tracks and board sides are content: their translations are catalog entries with the
context ``token``, ``track`` or ``side`` (extracted from the fighter files by ``catalog.py``).

Reading rules (engines/tagteam/data/README.md): Actions of one segment happen at the same time
(joined by "and"); ``then`` starts the next segment; ``=> a; b`` are Success bonuses, all of
them paid only if the Action succeeds, so they are shown in brackets after that Action; a
condition belongs to its own Action only (in brackets when the segment has several Actions).

Who "you" is: for a card or an Instant Bonus, the card's fighter, addressed as "you"; for an
icon, a flip or a token's upkeep, a named fighter ("Bödvar", "its holder") in the third person.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import pairwise

from engines.contract import Text, tr, trc
from engines.i18n import each_lang
from engines.tagteam.catalog import SIDE, TOKEN, TRACK
from engines.tagteam.content import Act, Card, Condition, Content, Fighter, Quantity, Side, TokenKind
from engines.tagteam.fight import Ref, Step

#: A piece of a sentence: a catalog message, or a number / a proper name used as it is.
Words = Text | str


@dataclass(frozen=True)
class Voice:
    """Who "you" is in the Actions being read: ``name`` "" means the reader ("you"); else the
    named fighter (or "its holder", ``holder``) is told about in the third person."""

    content: Content
    fighter: Fighter | None = None
    name: Words = ""
    holder: bool = False  # the subject is a token's holder: "its Aflame! tokens"
    declare: bool = False  # "you heal 1" instead of "heal 1" (next to another subject)

    @property
    def person(self) -> str:
        return "its" if self.holder else "third" if self.name else "you"


@dataclass(frozen=True)
class Said:
    """One clause; ``rest`` is the clause without its subject when that subject is the voice's
    named fighter, so "Bödvar gains 1 Power and heals 3" does not repeat the name."""

    full: Words
    rest: Words | None = None


# ---------------------------------------------------------------------------
# names


def special_name(f: Fighter | None) -> Text:
    """A fighter's special track by its own name (Faith, Rage); "special track" without one."""
    if f is None or not f.special_max:
        return trc("tagteam", "special track")
    return trc(TRACK, f.special_name)


def side_name(side: Side) -> Text:
    return trc(SIDE, side.name)


def token_name(t: TokenKind) -> Text:
    return trc(TOKEN, t.name)


def _token(v: Voice, token_id: str) -> TokenKind:
    return v.content.tokens[token_id]


def _side_of(v: Voice, side_id: str) -> Words:
    if v.fighter is not None:
        for s in v.fighter.sides:
            if s.id == side_id:
                return side_name(s)
    for f in v.content.fighters.values():
        for s in f.sides:
            if s.id == side_id:
                return side_name(s)
    return side_id


def _people() -> dict[tuple[str, str], Text]:
    """The other fighters of a target, as seen by each person who reads or is told about."""
    return {
        ("partner", "you"): trc("tagteam", "your partner"),
        ("opponent", "you"): trc("tagteam", "your opponent"),
        ("opponent_partner", "you"): trc("tagteam", "your opponent's partner"),
        ("partner", "third"): trc("tagteam", "their partner"),
        ("opponent", "third"): trc("tagteam", "their opponent"),
        ("opponent_partner", "third"): trc("tagteam", "their opponent's partner"),
        ("partner", "its"): trc("tagteam", "its partner"),
        ("opponent", "its"): trc("tagteam", "its opponent"),
        ("opponent_partner", "its"): trc("tagteam", "its opponent's partner"),
    }


PEOPLE = _people()


def who(v: Voice, target: str) -> Words | None:
    """The noun phrase of a target; None is "you" (the reader, or the named fighter)."""
    if target == "you":
        return None
    if target == "opponents":
        return trc("tagteam", "both opponents")
    if target.startswith("holder:"):
        t = _token(v, target[7:])
        if t.count == 1:
            return trc("tagteam", "the fighter holding the {token} token", token=token_name(t))
        return trc("tagteam", "each fighter holding {token} tokens", token=token_name(t))
    return PEOPLE[(target, v.person)]


def _poss(v: Voice, owner: Words | None, thing: Words) -> Text:
    """``your Power``, ``its Aflame! tokens``, ``Bödvar's Rage``; ``owner`` None means "you"."""
    if owner is None:
        if v.holder:
            return trc("tagteam", "its {thing}", thing=thing)
        if v.name:
            owner = v.name
        else:
            return trc("tagteam", "your {thing}", thing=thing)
    return trc("tagteam", "{owner}'s {thing}", owner=owner, thing=thing)


def _plural(target: str) -> bool:
    return target == "opponents" or target.startswith("holder:")


def _clause(v: Voice, subject: Words | None, plural: bool, second: Text, third: Text) -> Said:
    """``second`` is the action said to "you" (or to several), ``third`` to one other fighter;
    ``subject`` None is "you": an order to the reader, or the named fighter in the third person."""
    if subject is not None:
        return Said(trc("tagteam", "{subject} {action}", subject=subject, action=second if plural else third))
    if v.name:
        return Said(trc("tagteam", "{subject} {action}", subject=v.name, action=third), third)
    if v.declare:
        return Said(trc("tagteam", "you {action}", action=second))
    return Said(second)


def _both(said: Said, make: object) -> Said:
    """The same wrapper (a condition, a bonus) around the clause and around its subject-less rest."""
    assert callable(make)
    return Said(make(said.full), make(said.rest) if said.rest is not None else None)


# ---------------------------------------------------------------------------
# quantities and conditions


def quantity(v: Voice, q: Quantity, target: str, actor: str) -> Words:
    """What an amount read from the board is: ``your Scheme tokens``, ``their partner's HP``."""
    if not q.name:
        return str(q.value)
    whose = (who(v, "partner") if actor == "partner" else None) if q.subject == "actor" else who(v, target)
    thing: Words
    if q.name == "hp":
        thing = trc("tagteam", "HP")
    elif q.name == "power":
        thing = trc("tagteam", "Power")
    elif q.name == "special":
        own = q.subject == "actor" and actor == "you"
        thing = special_name(v.fighter if own else None)
    else:
        thing = trc("tagteam", "{token} tokens", token=token_name(_token(v, q.name[7:])))
    return _poss(v, whose, thing)


_COMPARE = {
    (">=", False): "{amount} is {n} or more", ("<=", False): "{amount} is {n} or less",
    ("==", False): "{amount} is exactly {n}", (">", False): "{amount} is more than {n}",
    ("<", False): "{amount} is less than {n}",
    (">=", True): "{amount} are {n} or more", ("<=", True): "{amount} are {n} or less",
    ("==", True): "{amount} are exactly {n}", (">", True): "{amount} are more than {n}",
    ("<", True): "{amount} are less than {n}",
}


def _compare(op: str, many: bool, amount: Words, n: int) -> Text:
    """One comparison as a whole clause (written out so that extraction finds every one)."""
    if many:
        if op == ">=":
            return trc("tagteam", "{amount} are {n} or more", amount=amount, n=n)
        if op == "<=":
            return trc("tagteam", "{amount} are {n} or less", amount=amount, n=n)
        if op == "==":
            return trc("tagteam", "{amount} are exactly {n}", amount=amount, n=n)
        if op == ">":
            return trc("tagteam", "{amount} are more than {n}", amount=amount, n=n)
        return trc("tagteam", "{amount} are less than {n}", amount=amount, n=n)
    if op == ">=":
        return trc("tagteam", "{amount} is {n} or more", amount=amount, n=n)
    if op == "<=":
        return trc("tagteam", "{amount} is {n} or less", amount=amount, n=n)
    if op == "==":
        return trc("tagteam", "{amount} is exactly {n}", amount=amount, n=n)
    if op == ">":
        return trc("tagteam", "{amount} is more than {n}", amount=amount, n=n)
    return trc("tagteam", "{amount} is less than {n}", amount=amount, n=n)


def condition(v: Voice, c: Condition, target: str, actor: str) -> Text:
    """The condition without its "if": ``your opponent holds the Sheriff token``."""
    if c.side:
        subject = who(v, "partner") if actor == "partner" else None
        side = _side_of(v, c.side)
        if subject is None and not v.name:
            return trc("tagteam", "you are on your {side} side", side=side)
        return trc("tagteam", "{subject} is on the {side} side", subject=subject or v.name, side=side)
    left = c.left
    if left.name.startswith("tokens:") and left.sign > 0 and (c.op, c.right) in ((">=", 1), (">", 0)):
        kind = _token(v, left.name[7:])
        token = token_name(kind)
        subject = (who(v, "partner") if actor == "partner" else None) if left.subject == "actor" else who(v, target)
        unique = kind.count == 1
        if subject is None and not v.name:
            return (trc("tagteam", "you hold the {token} token", token=token) if unique
                    else trc("tagteam", "you hold a {token} token", token=token))
        if subject is not None and _plural(target):
            return (trc("tagteam", "{subject} hold the {token} token", subject=subject, token=token) if unique
                    else trc("tagteam", "{subject} hold a {token} token", subject=subject, token=token))
        return (trc("tagteam", "{subject} holds the {token} token", subject=subject or v.name, token=token) if unique
                else trc("tagteam", "{subject} holds a {token} token", subject=subject or v.name, token=token))
    amount = quantity(v, left, target, actor)
    return _compare(c.op, left.name.startswith("tokens:"), amount, c.right)


# ---------------------------------------------------------------------------
# one Action


def _amount(v: Voice, a: Act) -> tuple[int | None, Words]:
    """``(n, "")`` for a number, ``(None, phrase)`` for an amount read from the board."""
    if not a.amount.name:
        return a.amount.sign * a.amount.value, ""
    return None, quantity(v, a.amount, a.target, a.actor)


def act_words(v: Voice, a: Act, again: bool = False) -> Said:
    """One Action as a clause (no capital, no full stop), its Success bonus in brackets."""
    said = _act_core(v, a, again)
    if a.condition is not None:
        cond = condition(v, a.condition, a.target, a.actor)
        said = _both(said, lambda x: trc("tagteam", "{action} if {condition}", action=x, condition=cond))
    if a.bonus:
        bonus = join_and(v, [act_words(v, b) for b in a.bonus])
        if a.verb == "attack":
            said = _both(said, lambda x: trc("tagteam", "{action} (if the Attack hits: {bonus})", action=x, bonus=bonus))
        elif a.verb == "block":
            said = _both(said, lambda x: trc("tagteam", "{action} (if the Block stops an Attack: {bonus})",
                                             action=x, bonus=bonus))
        else:
            said = _both(said, lambda x: trc("tagteam", "{action} (if it succeeds: {bonus})", action=x, bonus=bonus))
    return said


def _attack(v: Voice, a: Act, target: Words | None, again: bool) -> Said:
    if a.actor == "partner":
        doer = who(v, "partner")
        return Said(trc("tagteam", "{doer} attacks {target} again", doer=doer, target=target) if again
                    else trc("tagteam", "{doer} attacks {target}", doer=doer, target=target))
    if again:
        return _clause(v, None, False, trc("tagteam", "attack {target} again", target=target),
                       trc("tagteam", "attacks {target} again", target=target))
    return _clause(v, None, False, trc("tagteam", "attack {target}", target=target),
                   trc("tagteam", "attacks {target}", target=target))


def _block(v: Voice, a: Act, target: Words | None, again: bool) -> Said:
    if a.actor == "partner":
        doer = who(v, "partner")
        return Said(trc("tagteam", "{doer} blocks for {target}", doer=doer, target=target) if target is not None
                    else trc("tagteam", "{doer} blocks", doer=doer))
    if target is not None:
        if again:
            return _clause(v, None, False, trc("tagteam", "block for {target} again", target=target),
                           trc("tagteam", "blocks for {target} again", target=target))
        return _clause(v, None, False, trc("tagteam", "block for {target}", target=target),
                       trc("tagteam", "blocks for {target}", target=target))
    if again:
        return _clause(v, None, False, trc("tagteam", "block again"), trc("tagteam", "blocks again"))
    return _clause(v, None, False, trc("tagteam", "block"), trc("tagteam", "blocks"))


def _heal_or_damage(v: Voice, a: Act, target: Words | None) -> Said:
    n, q = _amount(v, a)
    heal = a.verb == "heal"
    if n is not None and n < 0:
        heal, n = not heal, -n
    if heal:
        if n is not None:
            return _clause(v, target, _plural(a.target), trc("tagteam", "heal {n}", n=n), trc("tagteam", "heals {n}", n=n))
        return _clause(v, target, _plural(a.target), trc("tagteam", "heal by {q}", q=q), trc("tagteam", "heals by {q}", q=q))
    if a.target == "you":  # damage to oneself: the token upkeeps
        if n is not None:
            return _clause(v, None, False, trc("tagteam", "take {n} damage", n=n), trc("tagteam", "takes {n} damage", n=n))
        return _clause(v, None, False, trc("tagteam", "take damage equal to {q}", q=q),
                       trc("tagteam", "takes damage equal to {q}", q=q))
    if n is not None:
        return _clause(v, None, False, trc("tagteam", "deal {n} damage to {target}", n=n, target=target),
                       trc("tagteam", "deals {n} damage to {target}", n=n, target=target))
    return _clause(v, None, False, trc("tagteam", "deal damage to {target} equal to {q}", target=target, q=q),
                   trc("tagteam", "deals damage to {target} equal to {q}", target=target, q=q))


def _gain_or_lose(v: Voice, a: Act, target: Words | None) -> Said:
    n, q = _amount(v, a)
    gain = (n if n is not None else a.amount.sign) >= 0
    thing = trc("tagteam", "Power") if a.verb == "power" else special_name(v.fighter if a.target == "you" else None)
    plural = _plural(a.target)
    if n is None:
        if gain:
            return _clause(v, target, plural, trc("tagteam", "gain {thing} equal to {q}", thing=thing, q=q),
                           trc("tagteam", "gains {thing} equal to {q}", thing=thing, q=q))
        return _clause(v, target, plural, trc("tagteam", "lose {thing} equal to {q}", thing=thing, q=q),
                       trc("tagteam", "loses {thing} equal to {q}", thing=thing, q=q))
    k = abs(n)
    if gain:
        return _clause(v, target, plural, trc("tagteam", "gain {n} {thing}", n=k, thing=thing),
                       trc("tagteam", "gains {n} {thing}", n=k, thing=thing))
    return _clause(v, target, plural, trc("tagteam", "lose {n} {thing}", n=k, thing=thing),
                   trc("tagteam", "loses {n} {thing}", n=k, thing=thing))


def _tokens(v: Voice, a: Act, target: Words | None) -> Said:
    n, q = _amount(v, a)
    kind = _token(v, a.token)
    token = token_name(kind)
    gain = (n if n is not None else a.amount.sign) >= 0
    k = abs(n) if n is not None else 0
    unique = kind.count == 1 and k == 1
    if n is None:
        many = trc("tagteam", "{token} tokens equal to {q}", token=token, q=q)
    elif unique:
        many = trc("tagteam", "the {token} token", token=token)
    elif k == 1:
        many = trc("tagteam", "{k} {token} token", k=k, token=token)
    else:
        many = trc("tagteam", "{k} {token} tokens", k=k, token=token)
    if gain:
        if a.target == "you":
            return _clause(v, None, False, trc("tagteam", "take {many}", many=many), trc("tagteam", "takes {many}", many=many))
        return _clause(v, None, False, trc("tagteam", "give {target} {many}", target=target, many=many),
                       trc("tagteam", "gives {target} {many}", target=target, many=many))
    if a.target == "you":
        return _clause(v, None, False, trc("tagteam", "remove {many}", many=many),
                       trc("tagteam", "removes {many}", many=many))
    if a.target.startswith("holder:") and a.target[7:] == a.token:
        if unique:
            return _clause(v, None, False, trc("tagteam", "remove {many} from its holder", many=many),
                           trc("tagteam", "removes {many} from its holder", many=many))
        return _clause(v, None, False, trc("tagteam", "remove {many} from each holder", many=many),
                       trc("tagteam", "removes {many} from each holder", many=many))
    return _clause(v, None, False, trc("tagteam", "remove {many} from {target}", many=many, target=target),
                   trc("tagteam", "removes {many} from {target}", many=many, target=target))


def _act_core(v: Voice, a: Act, again: bool) -> Said:
    target = who(v, a.target)
    if a.verb == "attack":
        return _attack(v, a, target, again)
    if a.verb == "block":
        return _block(v, a, target, again)
    if a.verb in ("heal", "damage"):
        return _heal_or_damage(v, a, target)
    if a.verb in ("power", "special"):
        return _gain_or_lose(v, a, target)
    if a.verb == "token":
        return _tokens(v, a, target)
    if a.verb == "flip":
        side = _side_of(v, a.side)
        return _clause(v, target, _plural(a.target), trc("tagteam", "flip to the {side} side", side=side),
                       trc("tagteam", "flips to the {side} side", side=side))
    raise ValueError(f"no words for the Action verb {a.verb!r} ({a.source!r})")


# ---------------------------------------------------------------------------
# cards, icons, tokens, flips


def join_and(v: Voice, parts: list[Said]) -> Text | str:
    """``a``, ``a and b``, ``a, b and c``; a named subject is said once ("Bödvar gains 1 Power
    and heals 3", not "... and Bödvar heals 3")."""
    if not parts:
        return ""
    texts: list[Words] = [parts[0].full]
    for prev, cur in pairwise(parts):
        texts.append(cur.rest if cur.rest is not None and prev.rest is not None else cur.full)
    out = texts[-1]
    if len(texts) == 1:
        return out
    out = trc("tagteam", "{first} and {second}", first=texts[-2], second=texts[-1])
    for text in reversed(texts[:-2]):
        out = trc("tagteam", "{first}, {second}", first=text, second=out)
    return out


def _words(text: Words, lang: str) -> str:
    return text.get(lang) if isinstance(text, Text) else text


def sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    return text[0].upper() + text[1:] + ("" if text.endswith((".", "!")) else ".")


def _key(a: Act) -> tuple[str, str, str]:
    return a.verb, a.target, a.actor


def segments_words(v: Voice, segments: tuple[tuple[Act, ...], ...]) -> Words:
    """Segments joined by "then"; the Actions of one segment, at the same time, by "and"."""
    seen: set[tuple[str, str, str]] = set()
    out: list[Words] = []
    base = v
    for seg in segments:
        parts = []
        mixed = any(_other_subject(a) for a in seg) and not all(_other_subject(a) for a in seg)
        v = replace(base, declare=mixed)
        for a in seg:
            again = a.verb in ("attack", "block") and _key(a) in seen
            said = act_words(v, a, again)
            if a.condition is not None and len(seg) > 1:  # the condition is this Action's alone
                plain = act_words(v, replace(a, condition=None), again)
                cond = condition(v, a.condition, a.target, a.actor)
                said = _both(plain, lambda x, c=cond: trc("tagteam", "{action} (only if {condition})",
                                                          action=x, condition=c))
            parts.append(said)
        seen.update(_key(a) for a in seg)
        out.append(join_and(v, parts))
    text = out[0]
    for nxt in out[1:]:
        text = trc("tagteam", "{first}, then {second}", first=text, second=nxt)
    return text


def _other_subject(a: Act) -> bool:
    """Does this Action's clause have its own subject ("your partner heals 2")?"""
    return a.actor == "partner" or (a.verb in ("heal", "power", "special", "flip") and a.target != "you")


def card_voice(content: Content, card: Card) -> Voice:
    return Voice(content, content.fighters.get(card.fighter))


def card_text(content: Content, card: Card, lang: str) -> str:
    """The whole card in sentences: its Actions, then its Instant Bonus if it has one."""
    v = card_voice(content, card)
    text = sentence(_words(segments_words(v, card.segments), lang))
    if card.instant:
        bonus = join_and(v, [act_words(v, a) for a in card.instant])
        text += " " + trc("tagteam", "Instant Bonus when you add this card: {bonus}.", bonus=bonus).get(lang)
    return text


def instant_text(content: Content, fighter_id: str, acts: tuple[Act, ...]) -> Text | str:
    """An announced Instant Bonus, told about the fighter by name: ``Joan gains 1 Power``."""
    f = content.fighters.get(fighter_id)
    v = Voice(content, f, f.name if f is not None else fighter_id)
    return join_and(v, [act_words(v, a) for a in acts])


def icon_text(content: Content, f: Fighter, icon: str) -> Text | str:
    """What a track icon does, for that fighter: ``Stop``, ``Cancel``, ``Joan gains 1 Faith``."""
    if icon == "stop":
        return trc("tagteam", "Stop")
    if icon == "cancel":
        return trc("tagteam", "Cancel")
    v = Voice(content, f, f.name)
    return join_and(v, [act_words(v, a) for a in f.icon_effects[icon]])


ICON_LEGEND = tr("Track icons act each time a health marker stops on or passes them. Stop: a marker moving over it stops there. Cancel: the card the opposing team revealed this Turn is cancelled (ignored completely).")


def flip_text(content: Content, f: Fighter, side: Side, lang: str) -> str:
    """``When Bödvar's Rage is 3 or more, Bödvar turns to the Berserker Bear side: ...``."""
    if side.flip_when is None or not side.flip_to:
        return ""
    v = Voice(content, f, f.name)
    cond = condition(v, side.flip_when, "you", "you")
    to = side_name(f.side(side.flip_to))
    acts = join_and(v, [act_words(v, a) for a in side.on_flip])
    if acts:
        said = trc("tagteam", "when {condition}, {name} flips to the {side} side: {actions}",
                   condition=cond, name=f.name, side=to, actions=acts)
    else:
        said = trc("tagteam", "when {condition}, {name} flips to the {side} side", condition=cond, name=f.name, side=to)
    return sentence(said.get(lang))


def token_text(content: Content, t: TokenKind, lang: str) -> str:
    """A token's standing effect: ``Each Attack on its holder deals 1 more damage.``"""
    parts: list[Words] = []
    if t.attack_taken:
        k = abs(t.attack_taken)
        parts.append(trc("tagteam", "each Attack on its holder deals {k} more damage", k=k) if t.attack_taken > 0
                     else trc("tagteam", "each Attack on its holder deals {k} less damage", k=k))
    if t.upkeep:
        v = Voice(content, content.fighters.get(content.token_owner.get(t.id, "")),
                  trc("tagteam", "its holder"), holder=True)
        acts = join_and(v, [act_words(v, a) for a in t.upkeep])
        parts.append(trc("tagteam", "at the end of every Turn, {actions}", actions=acts))
    if not parts:
        owner = content.fighters.get(content.token_owner.get(t.id, ""))
        parts.append(trc("tagteam", "no effect by itself; {name}'s cards count it", name=owner.name if owner else ""))
    said = parts[0]
    for part in parts[1:]:
        said = trc("tagteam", "{first}; {second}", first=said, second=part)
    return sentence(_words(said, lang))


def token_count_text(t: TokenKind, lang: str) -> str:
    return trc("tagteam", "{count} in the box, {start} at setup", count=t.count, start=t.start).get(lang)


# ---------------------------------------------------------------------------
# the Turn log: one short line per recorded step (issue 15)


def _cause_text(name: str, target: str, verb: str, actor: str, n: int) -> Text:
    """One Action's part in a marker's move: ``Bödvar hits Bass Reeves for 3``, ``Bödvar heals 3``."""
    if verb == "attack":
        return tr("{actor} hits {target} for {value}", actor=actor, target=target, value=-n)
    if verb == "cancel":
        return tr("the Cancel hands {target}'s HP back", target=target)
    if n >= 0:  # a heal, or a negative damage
        if name == actor:
            return tr("{target} heals {n}", target=target, n=n)
        return tr("{actor} heals {target} for {n}", actor=actor, target=target, n=n)
    if name == actor:
        return tr("{target} takes {value} damage", target=target, value=-n)
    return tr("{actor} deals {value} damage to {target}", actor=actor, value=-n, target=target)


def step_text(content: Content, fighters: list[list[str]], step: Step) -> Text:
    """One step of a Turn as one short line in both languages, from the recorded data alone.

    ``fighters`` are the fighter ids of both teams in board order, to name each ``Ref``. A
    ``cancel`` step is told by ``rules.cancel_text``; ``tag`` is added by the rules.
    """

    def fighter(ref: Ref) -> Fighter:
        return content.fighters[fighters[ref[0]][ref[1]]]

    f = fighter(step.ref)
    name = f.name
    k = step.kind
    before, after, d = step.before, step.after, step.after - step.before
    if k == "hp":
        parts = [_cause_text(name, name, verb, fighter(actor).name, n) for verb, actor, n in step.causes]
        said = parts[0] if parts else tr("{name}'s HP", name=name)
        for part in parts[1:]:
            said = tr("{said} and {part}", said=said, part=part)
        line = tr("{said} ({before}→{after})", said=said, before=before, after=after)
    elif k == "stop":
        line = tr("{name}'s marker is halted by the Stop space on {after}", name=name, after=after)
    elif k == "block":
        attacker = fighter(step.other).name if step.other is not None else ""
        line = tr("{name} blocks {attacker}'s attack", name=name, attacker=attacker)
    elif k == "power" and d > 0:
        line = tr("{name} gains {d} Power (Power {after})", name=name, d=d, after=after)
    elif k == "power":
        line = tr("{name} loses {value} Power (Power {after})", name=name, value=-d, after=after)
    elif k == "special":
        special = special_name(f)
        line = (tr("{name} gains {d} {special} ({special} {after})", name=name, d=d, special=special, after=after) if d > 0
                else tr("{name} loses {value} {special} ({special} {after})", name=name, value=-d, special=special, after=after))
    elif k == "token":
        t = content.tokens[step.name]
        token = token_name(t)
        if d == 1:
            line = tr("{name} gains {d} {token} token (now {after})", name=name, d=d, token=token, after=after)
        elif d > 0:
            line = tr("{name} gains {d} {token} tokens (now {after})", name=name, d=d, token=token, after=after)
        elif d == -1:
            line = tr("{name} loses {value} {token} token (now {after})", name=name, value=-d, token=token, after=after)
        else:
            line = tr("{name} loses {value} {token} tokens (now {after})", name=name, value=-d, token=token, after=after)
    elif k == "flip":
        side = f.side(step.name)
        face = side_name(side)
        line = (tr("{name} flips to the {face} side (HP {before}→{after})", name=name, face=face, before=before, after=after) if d
                else tr("{name} flips to the {face} side", name=name, face=face))
    elif k == "icon":
        icon = icon_text(content, f, step.name)
        line = tr("{name}'s marker enters space {after}: {icon}", name=name, after=after, icon=icon)
    elif k == "upkeep":
        t = content.tokens[step.name]
        line = tr("end of Turn: {name}'s {token_name} token acts", name=name, token_name=token_name(t))
    elif k == "ko":
        line = tr("{name} is knocked out", name=name)
    else:
        raise ValueError(f"no words for the Turn step {k!r}")
    return as_sentence(line)


def as_sentence(line: Text) -> Text:
    """``line`` as a sentence (capital first, full stop) in every language served: the
    catalogs translate the line, ``sentence`` then shapes each language's words."""
    return Text("{line}", args={"line": each_lang(_sentence_in, line)})


def _sentence_in(line: Text, lang: str) -> str:
    return sentence(line.get(lang))


def join_texts(texts: list[Text], sep: str, lead: str, lang: str) -> str:
    """Texts in one language, each after ``lead``, joined by ``sep`` (for ``each_lang``: a list
    whose length the code decides is no catalog sentence, its items are)."""
    return sep.join(lead + t.get(lang) for t in texts)


__all__ = [
    "ICON_LEGEND", "Voice", "act_words", "as_sentence", "card_text", "condition", "flip_text", "icon_text",
    "instant_text", "join_texts", "quantity", "segments_words", "sentence", "special_name", "step_text", "token_text",
]
