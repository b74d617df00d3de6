"""Card effects, icons, tokens and flips in words, for the people reading the mail.

The content notation (``damage actor.tokens:scheme opponent``, ``block => special +1``) is
exact but not for players. Everything here is generated from the parsed ``Act`` structures of
``content.py``, so a card has no hand-written text to keep in step with its data: a new card or
fighter reads in English and Vietnamese as soon as it loads.

Reading rules (engines/tagteam/data/README.md): Actions of one segment happen at the same time
(joined by "and"); ``then`` starts the next segment; ``=> a; b`` are Success bonuses, all of
them paid only if the Action succeeds, so they are shown in brackets after that Action; a
condition belongs to its own Action only (in brackets when the segment has several Actions).

Who "you" is: for a card or an Instant Bonus, the card's fighter, addressed as "you"; for an
icon, a flip or a token's upkeep, a named fighter ("Bödvar", "its holder") in the third person.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from engines.contract import Text, tr
from engines.i18n import each_lang
from engines.tagteam.content import Act, Card, Condition, Content, Fighter, Quantity, Side, TokenKind
from engines.tagteam.fight import Ref, Step

LANGS = ("en", "vi")


@dataclass(frozen=True)
class Voice:
    """Who "you" is in the Actions being read: ``name`` "" means the reader ("you")."""

    lang: str
    content: Content
    fighter: Fighter | None = None
    name: str = ""
    name_vi: str = ""
    poss_en: str = ""  # "its" for "its holder": ``its Aflame! tokens``
    declare: bool = False  # "you heal 1" instead of "heal 1" (next to another subject)

    @property
    def vi(self) -> bool:
        return self.lang == "vi"

    def me(self) -> str:
        return (self.name_vi or self.name) if self.vi else self.name


# ---------------------------------------------------------------------------
# names


def special_name(f: Fighter | None, lang: str) -> str:
    if f is None or not f.special_max:
        return "chỉ số Đặc biệt" if lang == "vi" else "special track"
    return (f.special_name_vi or f.special_name) if lang == "vi" else f.special_name


def side_name(side: Side, lang: str) -> str:
    return (side.name_vi or side.name) if lang == "vi" else side.name


def token_name(t: TokenKind, lang: str) -> str:
    return t.name_vi if lang == "vi" else t.name


def _token(v: Voice, token_id: str) -> TokenKind:
    return v.content.tokens[token_id]


def _side_of(v: Voice, side_id: str) -> str:
    if v.fighter is not None:
        for s in v.fighter.sides:
            if s.id == side_id:
                return side_name(s, v.lang)
    for f in v.content.fighters.values():
        for s in f.sides:
            if s.id == side_id:
                return side_name(s, v.lang)
    return side_id


def who(v: Voice, target: str) -> str:
    """The noun phrase of a target; "" is "you" (the reader, or the named fighter)."""
    if target == "you":
        return ""
    third = v.me()
    if v.vi:
        table = {"partner": "đồng đội" + (" của mình" if third else ""),
                 "opponent": "đối thủ" + (" của mình" if third else ""),
                 "opponent_partner": "đồng đội của đối thủ", "opponents": "cả hai đối thủ"}
    else:
        pre = (v.poss_en or "their") if third else "your"
        table = {"partner": f"{pre} partner", "opponent": f"{pre} opponent",
                 "opponent_partner": f"{pre} opponent's partner", "opponents": "both opponents"}
    if target.startswith("holder:"):
        t = _token(v, target[7:])
        name = token_name(t, v.lang)
        if v.vi:
            return f"người đang giữ token {name}"
        return f"the fighter holding the {name} token" if t.count == 1 else f"each fighter holding {name} tokens"
    return table[target]


def _self(v: Voice) -> str:
    """The subject for "you": nothing (an order to the reader) or the named fighter."""
    return v.me()


def _poss(v: Voice, phrase: str, thing: str) -> str:
    """``your Power`` / ``Sức mạnh của bạn``; ``phrase`` "" means you."""
    if v.vi:
        return f"{thing} của {phrase or v.me() or 'bạn'}"
    if not phrase:
        if v.poss_en:
            return f"{v.poss_en} {thing}"
        return f"{v.me()}'s {thing}" if v.me() else f"your {thing}"
    return f"{phrase}'s {thing}"


def _plural(target: str) -> bool:
    return target == "opponents" or target.startswith("holder:")


def _clause(v: Voice, subject: str, plural: bool, en: tuple[str, str], rest: str, vi: str) -> str:
    """``subject`` "" is "you": imperative for the reader, third person for a named fighter."""
    if v.vi:
        head = subject or _self(v) or ("bạn" if v.declare else "")
        return f"{head} {vi}".strip() if head else vi
    base, third = en
    if not subject:
        me = _self(v)
        if me:
            return f"{me} {third} {rest}".strip()
        return f"{'you ' if v.declare else ''}{base} {rest}".strip()
    return f"{subject} {base if plural else third} {rest}".strip()


# ---------------------------------------------------------------------------
# quantities and conditions


def quantity(v: Voice, q: Quantity, target: str, actor: str) -> str:
    """What an amount read from the board is: ``your Scheme tokens``, ``Cướp Bóc của bạn``."""
    if not q.name:
        return str(q.value)
    whose = (who(v, "partner") if actor == "partner" else "") if q.subject == "actor" else who(v, target)
    if q.name == "hp":
        thing = "máu" if v.vi else "HP"
    elif q.name == "power":
        thing = "Sức mạnh" if v.vi else "Power"
    elif q.name == "special":
        own = q.subject == "actor" and actor == "you"
        thing = special_name(v.fighter if own else None, v.lang)
    else:
        name = token_name(_token(v, q.name[7:]), v.lang)
        thing = f"số token {name}" if v.vi else f"{name} tokens"
    return _poss(v, whose, thing)


def condition(v: Voice, c: Condition, target: str, actor: str) -> str:
    """The condition without its "if": ``your opponent holds the Sheriff token``."""
    if c.side:
        subject = who(v, "partner") if actor == "partner" else ""
        side = _side_of(v, c.side)
        if v.vi:
            return f"{subject or v.me() or 'bạn'} đang ở mặt {side}"
        if not subject and not v.me():
            return f"you are on your {side} side"
        return f"{subject or v.me()} is on the {side} side"
    left = c.left
    if left.name.startswith("tokens:") and left.sign > 0 and (c.op, c.right) in ((">=", 1), (">", 0)):
        kind = _token(v, left.name[7:])
        name = token_name(kind, v.lang)
        subject = (who(v, "partner") if actor == "partner" else "") if left.subject == "actor" else who(v, target)
        if v.vi:
            return f"{subject or v.me() or 'bạn'} đang giữ token {name}"
        article = "the" if kind.count == 1 else "a"
        if not subject and not v.me():
            return f"you hold {article} {name} token"
        return f"{subject or v.me()} {'hold' if _plural(target) and subject else 'holds'} {article} {name} token"
    amount = quantity(v, left, target, actor)
    n = c.right
    if v.vi:
        rel = {">=": f"từ {n} trở lên", "<=": f"từ {n} trở xuống", "==": f"đúng bằng {n}",
               ">": f"lớn hơn {n}", "<": f"nhỏ hơn {n}"}[c.op]
        return f"{amount} {rel}"
    rel = {">=": f"{n} or more", "<=": f"{n} or less", "==": f"exactly {n}",
           ">": f"more than {n}", "<": f"less than {n}"}[c.op]
    verb = "are" if left.name.startswith("tokens:") else "is"
    return f"{amount} {verb} {rel}"


# ---------------------------------------------------------------------------
# one Action


def _amount(v: Voice, a: Act) -> tuple[int | None, str]:
    """``(n, "")`` for a number, ``(None, phrase)`` for an amount read from the board."""
    if not a.amount.name:
        return a.amount.sign * a.amount.value, ""
    return None, quantity(v, a.amount, a.target, a.actor)


def act_words(v: Voice, a: Act, again: bool = False) -> str:
    """One Action as a clause (no capital, no full stop), its Success bonus in brackets."""
    text = _act_core(v, a, again)
    if a.condition is not None:
        text += (" nếu " if v.vi else " if ") + condition(v, a.condition, a.target, a.actor)
    if a.bonus:
        bonus = join_and(v, [act_words(v, b) for b in a.bonus])
        if a.verb == "attack":
            when = "nếu đòn Tấn công trúng" if v.vi else "if the Attack hits"
        elif a.verb == "block":
            when = "nếu đỡ được một đòn Tấn công" if v.vi else "if the Block stops an Attack"
        else:
            when = "nếu thành công" if v.vi else "if it succeeds"
        text += f" ({when}: {bonus})"
    return text


def _act_core(v: Voice, a: Act, again: bool) -> str:
    vi = v.vi
    target = who(v, a.target)
    plural = _plural(a.target)
    doer = who(v, "partner") if a.actor == "partner" else ""
    more = (" thêm lần nữa" if vi else " again") if again else ""
    n, q = _amount(v, a)
    if a.verb == "attack":
        if doer:
            return f"{doer} Tấn công {target}{more}" if vi else f"{doer} attacks {target}{more}"
        return _clause(v, "", False, ("attack", "attacks"), f"{target}{more}", f"Tấn công {target}{more}")
    if a.verb == "block":
        for_whom = "" if a.target == "you" else (f" cho {target}" if vi else f" for {target}")
        if doer:
            return f"{doer} Đỡ đòn{for_whom}" if vi else f"{doer} blocks{for_whom}"
        return _clause(v, "", False, ("block", "blocks"), f"{for_whom.strip()}{more}", f"Đỡ đòn{for_whom}{more}")
    if a.verb in ("heal", "damage"):
        heal = a.verb == "heal"
        if n is not None and n < 0:
            heal, n = not heal, -n
        if heal:
            amt_en = f"{n}" if n is not None else f"by {q}"
            amt_vi = f"{n} máu" if n is not None else f"máu bằng {q}"
            return _clause(v, target, plural, ("heal", "heals"), amt_en, f"hồi {amt_vi}")
        if a.target == "you":  # damage to oneself: the token upkeeps
            amt_en = f"{n} damage" if n is not None else f"damage equal to {q}"
            amt_vi = f"{n} sát thương" if n is not None else f"sát thương bằng {q}"
            return _clause(v, "", False, ("take", "takes"), amt_en, f"chịu {amt_vi}")
        if n is not None:
            return _clause(v, "", False, ("deal", "deals"), f"{n} damage to {target}",
                           f"gây {n} sát thương lên {target}")
        return _clause(v, "", False, ("deal", "deals"), f"damage to {target} equal to {q}",
                       f"gây sát thương lên {target} bằng {q}")
    if a.verb in ("power", "special"):
        gain = (n if n is not None else a.amount.sign) >= 0
        count = str(abs(n)) if n is not None else ""
        if a.verb == "power":
            thing_en, thing_vi = "Power", "Sức mạnh"
        else:
            own = a.target == "you"
            thing_en = special_name(v.fighter if own else None, "en")
            thing_vi = special_name(v.fighter if own else None, "vi")
        if n is None:
            amt_en, amt_vi = f"{thing_en} equal to {q}", f"{thing_vi} bằng {q}"
        else:
            amt_en, amt_vi = f"{count} {thing_en}", f"{count} {thing_vi}"
        verb_en = ("gain", "gains") if gain else ("lose", "loses")
        verb_vi = "nhận thêm" if gain else "mất"
        return _clause(v, target, plural, verb_en, amt_en, f"{verb_vi} {amt_vi}")
    if a.verb == "token":
        kind = _token(v, a.token)
        name_en, name_vi = kind.name, kind.name_vi
        gain = (n if n is not None else a.amount.sign) >= 0
        k = abs(n) if n is not None else 0
        unique = kind.count == 1 and k == 1
        if n is None:
            many_en, many_vi = f"{name_en} tokens equal to {q}", f"số token {name_vi} bằng {q}"
        elif unique:
            many_en, many_vi = f"the {name_en} token", f"token {name_vi}"
        else:
            many_en, many_vi = f"{k} {name_en} token{'s' if k != 1 else ''}", f"{k} token {name_vi}"
        if gain:
            if a.target == "you":
                return _clause(v, "", False, ("take", "takes"), many_en, f"nhận {many_vi}")
            return _clause(v, "", False, ("give", "gives"), f"{target} {many_en}", f"đặt {many_vi} lên {target}")
        if a.target == "you":
            return _clause(v, "", False, ("remove", "removes"), many_en, f"bỏ {many_vi}")
        if a.target.startswith("holder:") and a.target[7:] == a.token:
            from_en, from_vi = ("its holder", "người đang giữ") if unique else ("each holder", "mỗi người đang giữ")
            return _clause(v, "", False, ("remove", "removes"), f"{many_en} from {from_en}",
                           f"bỏ {many_vi} khỏi {from_vi}")
        return _clause(v, "", False, ("remove", "removes"), f"{many_en} from {target}", f"bỏ {many_vi} khỏi {target}")
    if a.verb == "flip":
        side = _side_of(v, a.side)
        return _clause(v, target, plural, ("flip", "flips"), f"to the {side} side", f"lật bảng sang mặt {side}")
    raise ValueError(f"no words for the Action verb {a.verb!r} ({a.source!r})")


# ---------------------------------------------------------------------------
# cards, icons, tokens, flips


def join_and(v: Voice, parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    me = v.me()
    if me:  # "Bödvar gains 1 Power and heals 3", not "... and Bödvar heals 3"
        parts = [parts[0], *(p[len(me) + 1:] if p.startswith(f"{me} ") and q.startswith(f"{me} ") else p
                             for q, p in pairwise(parts))]
    word = " và " if v.vi else " and "
    return ", ".join(parts[:-1]) + word + parts[-1]


def sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    return text[0].upper() + text[1:] + ("" if text.endswith((".", "!")) else ".")


def _key(a: Act) -> tuple[str, str, str]:
    return a.verb, a.target, a.actor


def segments_words(v: Voice, segments: tuple[tuple[Act, ...], ...]) -> str:
    """Segments joined by "then"; the Actions of one segment, at the same time, by "and"."""
    seen: set[tuple[str, str, str]] = set()
    out = []
    base = v
    for seg in segments:
        parts = []
        mixed = any(_other_subject(a) for a in seg) and not all(_other_subject(a) for a in seg)
        v = Voice(base.lang, base.content, base.fighter, base.name, base.name_vi, base.poss_en, mixed)
        for a in seg:
            again = a.verb in ("attack", "block") and _key(a) in seen
            text = act_words(v, a, again)
            if a.condition is not None and len(seg) > 1:  # the condition is this Action's alone
                plain = act_words(v, Act(a.verb, a.amount, a.target, a.actor, a.token, a.side, None, a.bonus),
                                  again)
                cond = condition(v, a.condition, a.target, a.actor)
                text = f"{plain} (chỉ khi {cond})" if v.vi else f"{plain} (only if {cond})"
            parts.append(text)
        seen.update(_key(a) for a in seg)
        out.append(join_and(v, parts))
    return (", rồi " if v.vi else ", then ").join(out)


def _other_subject(a: Act) -> bool:
    """Does this Action's clause have its own subject ("your partner heals 2")?"""
    return a.actor == "partner" or (a.verb in ("heal", "power", "special", "flip") and a.target != "you")


def card_voice(content: Content, card: Card, lang: str) -> Voice:
    return Voice(lang, content, content.fighters.get(card.fighter))


def card_text(content: Content, card: Card, lang: str) -> str:
    """The whole card in sentences: its Actions, then its Instant Bonus if it has one."""
    v = card_voice(content, card, lang)
    text = sentence(segments_words(v, card.segments))
    if card.instant:
        head = "Thưởng tức thì khi thêm thẻ này" if v.vi else "Instant Bonus when you add this card"
        text += f" {head}: {join_and(v, [act_words(v, a) for a in card.instant])}."
    return text


def instant_text(content: Content, fighter_id: str, acts: tuple[Act, ...], lang: str) -> str:
    """An announced Instant Bonus, told about the fighter by name: ``Joan gains 1 Power``."""
    f = content.fighters.get(fighter_id)
    name = f.name if f is not None else fighter_id
    v = Voice(lang, content, f, name)
    return join_and(v, [act_words(v, a) for a in acts])


def icon_text(content: Content, f: Fighter, icon: str, lang: str) -> str:
    """What a track icon does, for that fighter: ``Stop``, ``Cancel``, ``Joan gains 1 Faith``."""
    vi = lang == "vi"
    if icon == "stop":
        return "Dừng" if vi else "Stop"
    if icon == "cancel":
        return "Hủy" if vi else "Cancel"
    v = Voice(lang, content, f, f.name)
    return join_and(v, [act_words(v, a) for a in f.icon_effects[icon]])


ICON_LEGEND = tr("Track icons act each time a health marker stops on or passes them. Stop: a marker moving over it stops there. Cancel: the card the opposing team revealed this Turn is cancelled (ignored completely).")


def flip_text(content: Content, f: Fighter, side: Side, lang: str) -> str:
    """``When Bödvar's Rage is 3 or more, Bödvar turns to the Berserker Bear side: ...``."""
    if side.flip_when is None or not side.flip_to:
        return ""
    v = Voice(lang, content, f, f.name)
    cond = condition(v, side.flip_when, "you", "you")
    to = side_name(f.side(side.flip_to), lang)
    acts = join_and(v, [act_words(v, a) for a in side.on_flip])
    if lang == "vi":
        return sentence(f"khi {cond}, {f.name} lật sang mặt {to}" + (f": {acts}" if acts else ""))
    return sentence(f"when {cond}, {f.name} flips to the {to} side" + (f": {acts}" if acts else ""))


def token_text(content: Content, t: TokenKind, lang: str) -> str:
    """A token's standing effect: ``Each Attack on its holder deals 1 more.``"""
    vi = lang == "vi"
    parts = []
    if t.attack_taken:
        k = abs(t.attack_taken)
        if vi:
            parts.append(f"mỗi đòn Tấn công vào người giữ token gây {'thêm' if t.attack_taken > 0 else 'bớt'} {k} sát thương")
        else:
            parts.append(f"each Attack on its holder deals {k} {'more' if t.attack_taken > 0 else 'less'} damage")
    if t.upkeep:
        v = Voice(lang, content, content.fighters.get(content.token_owner.get(t.id, "")),
                  "its holder", "người giữ", "its")
        acts = join_and(v, [act_words(v, a) for a in t.upkeep])
        parts.append(f"cuối mỗi Lượt, {acts}" if vi else f"at the end of every Turn, {acts}")
    if not parts:
        owner = content.fighters.get(content.token_owner.get(t.id, ""))
        name = owner.name if owner is not None else ""
        parts.append(f"không tự có hiệu lực; các thẻ của {name} dùng đến nó" if vi
                     else f"no effect by itself; {name}'s cards count it")
    return sentence("; ".join(parts))


def token_count_text(t: TokenKind, lang: str) -> str:
    if lang == "vi":
        return f"{t.count} trong hộp, {t.start} khi bắt đầu"
    return f"{t.count} in the box, {t.start} at setup"


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
        special = each_lang(special_name, f)
        line = (tr("{name} gains {d} {special} ({special} {after})", name=name, d=d, special=special, after=after) if d > 0
                else tr("{name} loses {value} {special} ({special} {after})", name=name, value=-d, special=special, after=after))
    elif k == "token":
        t = content.tokens[step.name]
        token = each_lang(token_name, t)
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
        face = each_lang(side_name, side)
        line = (tr("{name} flips to the {face} side (HP {before}→{after})", name=name, face=face, before=before, after=after) if d
                else tr("{name} flips to the {face} side", name=name, face=face))
    elif k == "icon":
        icon = each_lang(icon_text, content, f, step.name)
        line = tr("{name}'s marker enters space {after}: {icon}", name=name, after=after, icon=icon)
    elif k == "upkeep":
        t = content.tokens[step.name]
        line = tr("end of Turn: {name}'s {token_name} token acts", name=name, token_name=each_lang(token_name, t))
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
    "ICON_LEGEND", "LANGS", "Voice", "act_words", "as_sentence", "card_text", "condition", "flip_text", "icon_text",
    "instant_text", "join_texts", "quantity", "segments_words", "sentence", "special_name", "step_text", "token_text",
]
