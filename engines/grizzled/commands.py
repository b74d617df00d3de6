"""Commands: the legal choices with labels, their canonical text, and reading what people write.

Why one module: ``format`` and ``parse`` must round-trip, so both use the same vocabulary.
Words are matched without diacritics and case (``mưa``, ``mua`` and ``Rain`` all mean rain);
the words for threats, Hard Knocks and tiles come from the content files, the verbs from
``VERBS`` below. A command is a verb and a bag of words: ``play shell rain`` is
``play rain shell``. Words may be left out while only one legal choice fits (``charm``,
``withdraw``), and ``play 3`` plays the third card of the hand as the view numbers it.

A line is a command only when the WHOLE line is one: polite fillers at either end go first
(``engines.wording.strip_fillers``: "play rain shell, thanks!", "cường độ 3 nhé"), then the line
must start with a verb and every other word must be a number or a word of ``word_table``.
"bỏ cuộc thì không bao giờ nhé, cường độ 3" ("give up? never") is not Intensity 3.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from functools import cache, lru_cache

from engines import i18n
from engines.contract import Action, AmbiguousCommand, Choice, IllegalCommand, InvalidCommand, Text, tr, trc
from engines.grizzled import danger, rules
from engines.grizzled.content import content
from engines.grizzled.state import CHOOSE, CHRISTMAS, INTENSITY, SPEECH, SUPPORT, TURN, GrizzledState
from engines.wording import strip_fillers

# canonical verb (= Action.kind) -> words a player may write (any language, diacritics optional)
VERBS: dict[str, tuple[str, ...]] = {
    "choose": ("choose", "pick", "chọn", "chọn thẻ"),
    "intensity": ("intensity", "cường độ", "intensité"),
    "play": ("play", "đánh", "chơi", "đánh bài"),
    "charm": ("charm", "lucky charm", "bùa", "bùa may mắn", "dùng bùa"),
    "speech": ("speech", "speak", "phát biểu", "diễn văn"),
    "withdraw": ("withdraw", "retreat", "rút lui", "rút"),
    "discard": ("discard", "bỏ", "bỏ bài"),
    "keep": ("keep", "pass", "giữ", "giữ bài", "không bỏ"),
    "heal": ("heal", "chữa", "xóa"),
    "remove": ("remove", "loại bỏ", "loại"),
    "recover": ("recover", "khôi phục", "lấy lại"),
    "decline": ("decline", "refuse", "từ chối"),
}
# extra argument words that are not content names
EXTRA_WORDS: dict[str, tuple[str, ...]] = {
    "trap": ("trap", "bẫy"),
    "drop": ("drop", "bỏ", "bỏ đi"),
    "charm": ("charm", "bùa", "bùa may mắn"),
}


def normalize(text: str) -> list[str]:
    """Lower case, no diacritics (``đ`` → ``d``), punctuation as spaces, split into words."""
    text = text.lower().replace("đ", "d")
    text = "".join(ch for ch in unicodedata.normalize("NFD", text) if not unicodedata.combining(ch))
    return "".join(ch if ch.isalnum() else " " for ch in text).split()


def _table(entries: dict[str, tuple[str, ...]]) -> dict[tuple[str, ...], str]:
    return {tuple(normalize(alias)): canon for canon, aliases in entries.items() for alias in (canon, *aliases)}


def _said(word: Text) -> tuple[str, ...]:
    """``word`` in every language served (a new catalog's words parse with no code change)."""
    return i18n.translations(word.msgid, word.context)


def verb_table() -> dict[tuple[str, ...], str]:
    return _verb_table(i18n.locale_key(), i18n.languages())


@cache
def _verb_table(folder: str, langs: tuple[str, ...]) -> dict[tuple[str, ...], str]:
    return _table({verb: (*words, *_said(COMMAND_VERBS[verb])) for verb, words in VERBS.items()})


def word_table() -> dict[tuple[str, ...], str]:
    return _word_table(i18n.locale_key(), i18n.languages())


@cache
def _word_table(folder: str, langs: tuple[str, ...]) -> dict[tuple[str, ...], str]:
    c = content()
    entries: dict[str, tuple[str, ...]] = {w: (*words, *_said(COMMAND_ARGS[w])) for w, words in EXTRA_WORDS.items()}
    for named in (*c.threats, *c.knocks.values(), *c.tiles.values(), *(n for n, _ in c.specials.values())):
        entries[named.id] = (*named.aliases, *_said(named.name))
    for ch in c.characters:  # "Félix Moreau", "Félix" or "Moreau"
        entries[ch.id] = (ch.name, *ch.name.split())
    return _table(entries)


def _longest(tokens: list[str], start: int, table: dict[tuple[str, ...], str]) -> tuple[str, int] | None:
    for size in range(min(4, len(tokens) - start), 0, -1):
        found = table.get(tuple(tokens[start : start + size]))
        if found is not None:
            return found, size
    return None


def read(text: str) -> tuple[str, tuple[str, ...]]:
    """(verb, argument words) in canonical form; ``InvalidCommand`` for words we do not know.

    Cached (per set of catalogs): the same few hundred command texts are read again and again
    when matching."""
    return _read(text, i18n.locale_key(), i18n.languages())


@lru_cache(maxsize=16384)
def _read(text: str, folder: str, langs: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    tokens = normalize(text)
    if not tokens:
        raise InvalidCommand(tr("The reply is empty: write a command such as `play rain shell` or a menu number."))
    verb = _longest(tokens, 0, verb_table())
    if verb is None:
        raise InvalidCommand(tr("'{tokens}' is not a command. A line counts only when the whole line is a command: write just e.g. `play rain shell`, `charm`, `speech gas`, `withdraw left`, `intensity 3`, or a menu number.", tokens=tokens[0]))
    args: list[str] = []
    i = verb[1]
    while i < len(tokens):
        if tokens[i].isdigit():
            args.append(str(int(tokens[i])))
            i += 1
            continue
        word = _longest(tokens, i, word_table())
        if word is None:
            raise InvalidCommand(tr("Unknown word '{tokens}': a line counts only when the whole line is a command. After the command word, name only threats (rain, snow, night, whistle, gas, shell), cards as in your hand, or tiles (left, right, left2, right2).", tokens=tokens[i]))
        args.append(word[0])
        i += word[1]
    merged: list[str] = []
    for arg in args:
        if merged and merged[-1] == "drop" and arg in content().tiles:
            merged[-1] = f"drop:{arg}"
        else:
            merged.append(arg)
    return verb[0], tuple(merged)


# ---------------------------------------------------------------------------
# Canonical text


def format_action(action: Action) -> str:
    k, a = action.kind, action.args
    if k == "withdraw":
        place, drop = a
        return " ".join(["withdraw", *([str(place)] if place else []), *([f"drop {drop}"] if drop else [])])
    if k == "recover":
        return "recover charm"
    return " ".join([k, *(str(x) for x in a if x is not None)])


#: canonical verb -> its command word, a catalog message a menu shows in the reader's language
#: (each translation parses back: ``verb_table`` adds every catalog's words to ``VERBS``)
COMMAND_VERBS: dict[str, Text] = {
    "choose": trc("grizzled command", "choose"), "intensity": trc("grizzled command", "intensity"), "play": trc("grizzled command", "play"),
    "charm": trc("grizzled command", "charm"), "speech": trc("grizzled command", "speech"), "withdraw": trc("grizzled command", "withdraw"),
    "discard": trc("grizzled command", "discard"), "keep": trc("grizzled command", "keep"), "heal": trc("grizzled command", "heal"),
    "remove": trc("grizzled command", "remove"), "recover": trc("grizzled command", "recover"), "decline": trc("grizzled command", "decline"),
}
#: argument words that are not content names (``recover charm``, ``withdraw left drop right``)
COMMAND_ARGS: dict[str, Text] = {"trap": trc("grizzled command argument", "trap"), "drop": trc("grizzled command argument", "drop"),
                                 "charm": trc("grizzled command argument", "charm")}


def _content_words() -> dict[str, Text]:
    """Canonical argument word -> the content name it stands for (threats, knocks, tiles, specials)."""
    c = content()
    return {named.id: named.name for named in (*c.threats, *c.knocks.values(), *c.tiles.values(),
                                               *(n for n, _ in c.specials.values()))}


def _in(lang: str, word: Text, canonical: str) -> str:
    """``word`` in ``lang``, lower case; the canonical word where the catalog has no translation
    (English, or a language that has not translated it yet), so what is shown always parses."""
    said = word.get(lang)
    return canonical if said == i18n.gettext(i18n.SOURCE_LANG, word.msgid) else said.lower()


def format_in(action: Action, lang: str) -> str:
    """The command in ``lang``'s words (Vietnamese ``đánh mưa còi bẫy``); ``read`` gives back the
    same words as for ``format_action``, so both parse to the same action."""
    verbs, words = _shown_words(lang, i18n.locale_key())
    verb, *rest = format_action(action).split()
    return " ".join([verbs.get(verb, verb), *(words.get(word, word) for word in rest)])


@cache
def _shown_words(lang: str, folder: str) -> tuple[dict[str, str], dict[str, str]]:
    """Canonical verbs and argument words -> as ``lang``'s menus show them; two tables, since
    ``charm`` is a verb ("dùng bùa") and an argument ("lấy lại bùa"). Built once per language
    and set of catalogs: menus are written for every choice of every step."""
    verbs = {verb: _in(lang, text, verb) for verb, text in COMMAND_VERBS.items()}
    words = {word: _in(lang, name, word) for word, name in _content_words().items()}
    words |= {word: _in(lang, text, word) for word, text in COMMAND_ARGS.items()}
    return verbs, words


def _threat(threat: str) -> Text:
    return content().threat_name(threat)


def _face(face: str) -> Text:
    return content().face_text(face)


def _tile(tile: str) -> Text:
    return content().tiles[tile].name


def _intensity_label(state: GrizzledState, n: int) -> Text:
    """What an Intensity really deals (GR-22): never more cards than the Trials pile holds."""
    pile = len(state.trials)
    if n * state.n < pile:
        return tr("Intensity {n}: deal {n} card(s) to each player", n=n)
    if n * state.n == pile:
        return tr("Intensity {n}: deal {n} card(s) to each player, the whole Trials pile", n=n)
    counts = rules.deal_counts(state, n)
    order = [(state.leader + i) % state.n for i in range(state.n)]
    shown = ", ".join(f"{state.players[p]} {counts[p]}" for p in order)
    return tr("Intensity {n}: deal the last {pile} card(s) of the Trials pile ({shown})", n=n, pile=pile, shown=shown)


def intensity_error(state: GrizzledState, n: int) -> Text:
    """Why Intensity ``n`` is refused, and which Intensities are possible (GR-20, GR-21)."""
    lo, hi = rules.min_intensity(state), rules.max_intensity(state)
    if lo == hi:
        may = tr("The only possible Intensity is {lo}.", lo=lo)
    else:
        may = tr("Choose an Intensity from {lo} to {hi}.", lo=lo, hi=hi)
    if n > hi:
        pile = len(state.trials)
        return tr("Intensity {n} is not possible: the Trials pile holds {pile} card(s), and Intensity {hi} already deals them all. {may}", n=n, pile=pile, hi=hi, may=may)
    if state.mission == 1:
        return tr("Intensity {n} is not possible: the first Mission's Intensity is at least {lo}. {may}", n=n, lo=lo, may=may)
    return tr("Intensity {n} is not possible: the Intensity is at least {lo}. {may}", n=n, lo=lo, may=may)


def label(state: GrizzledState, seat: int, action: Action) -> Text:
    k, a = action.kind, action.args
    if k == "choose":
        t = rules.character_text(str(a[0]))
        return tr("choose {t}", t=t)
    if k == "intensity":
        return _intensity_label(state, int(str(a[0])))
    if k == "play":
        f = _face(str(a[0]))
        return tr("play {f}", f=f)
    if k == "charm":
        f = _face(str(a[0]))
        return tr("use your lucky charm to remove {f} from No Man's Land", f=f)
    if k == "speech":
        t = _threat(str(a[0]))
        return tr("give a speech about {t} (uses a Speech token)", t=t)
    if k == "withdraw":
        place, drop = a
        gone = _tile(str(drop)) if drop else None
        tile = _tile(str(place)) if place else None
        target = state.players[rules.tile_target(state, seat, str(place))] if place else ""
        by_chance = not place and bool(state.tiles[seat]) and (not drop or len(state.tiles[seat]) > 1)
        if gone is not None and tile is not None:
            return tr("withdraw, first removing a {gone} tile, and place your {tile} Support tile (for {target})", gone=gone, tile=tile, target=target)
        if gone is not None and by_chance:
            return tr("withdraw, first removing a {gone} tile (your Support tile is picked at random)", gone=gone)
        if gone is not None:
            return tr("withdraw, first removing a {gone} tile", gone=gone)
        if tile is not None:
            return tr("withdraw and place your {tile} Support tile (for {target})", tile=tile, target=target)
        if by_chance:
            return tr("withdraw (your Support tile is picked at random)")
        return tr("withdraw")
    if k == "discard":
        f = _face(str(a[0]))
        return tr("discard {f} from your hand", f=f)
    if k == "keep":
        return tr("keep your cards")
    if k == "heal":
        f = _face(str(a[0]))
        owner = next((state.players[p] for p in range(state.n)
                      for c in state.knocks[p] if rules.card(c).face == a[0]), "")
        return tr("remove {f} from {owner}", f=f, owner=owner)
    if k == "remove":
        knocks = _face(str(a[0]))
        for x in a[1:]:
            knocks = tr("{knocks} and {face}", knocks=knocks, face=_face(str(x)))
        return tr("remove your Hard Knock(s): {knocks}", knocks=knocks)
    if k == "recover":
        return tr("turn your Grizzled card back to the lucky charm")
    return tr("decline the help")


# ---------------------------------------------------------------------------
# Legal actions


def legal(state: GrizzledState, seat: int) -> list[Action]:
    s = state
    if s.phase == CHOOSE:
        if seat not in s.choosers:
            return []
        return [Action("choose", (cid,)) for cid in rules.free_characters(s)]
    if s.phase == INTENSITY:
        if seat != s.leader:
            return []
        return [Action("intensity", (n,)) for n in range(rules.min_intensity(s), rules.max_intensity(s) + 1)]
    if s.phase == TURN:
        if seat != s.turn:
            return []
        out: list[Action] = []
        rule = rules.withdraw_rule(s, seat)
        if rule != "forced":
            out += [Action("play", (f,)) for f in rules.hand_faces(s, seat)]
            out += [Action("charm", (f,)) for f in rules.charm_targets(s, seat)]
            if rules.can_speak(s, seat):
                out += [Action("speech", (t,)) for t in content().threat_ids]
        if rule != "forbidden":
            out += [Action("withdraw", (p, d)) for p, d in rules.withdraw_options(s, seat)]
        return out
    if s.phase == SPEECH:
        if seat not in s.responders:
            return []
        faces = rules.speech_faces(s, seat, s.speech_threat or "")
        return [*(Action("discard", (f,)) for f in faces), Action("keep", ())]
    if s.phase == CHRISTMAS:
        if seat != s.turn:
            return []
        return [Action("heal", (f,)) for f in rules.christmas_targets(s)]
    if s.phase == SUPPORT:
        if seat != s.turn:
            return []
        return [Action(kind, faces) for kind, faces in rules.support_options(s, seat)]
    return []


def choices(state: GrizzledState, seat: int) -> list[Choice]:
    return [Choice(a, format_action(a), warned_label(state, seat, a), i18n.LazyWords(format_in, a)) for a in legal(state, seat)]


def warned_label(state: GrizzledState, seat: int, action: Action) -> Text:
    """The label, with a warning when the choice loses the game at once (``danger``)."""
    text = label(state, seat, action)
    warn = danger.warning(state, seat, action)
    if warn is None:
        return text
    return tr("{text} — {warn}", text=text, warn=warn)


def hand_in_view_order(state: GrizzledState, seat: int) -> list[str]:
    """The seat's hand as faces, in the order the view numbers them (``play 3``)."""
    return sorted((rules.card(c).face for c in state.hands[seat]), key=content().face_order)


def parse(state: GrizzledState, seat: int, text: str) -> Action:
    options = legal(state, seat)
    examples = [format_action(a) for a in options[:8]]
    try:
        verb, words = read(strip_fillers(text))
    except InvalidCommand as err:
        raise InvalidCommand(err.message, examples) from None
    args = list(words)
    if not options:
        raise IllegalCommand(tr("Nothing is asked of you right now; wait for your turn."))
    if verb == "play" and len(args) == 1 and args[0].isdigit():
        hand = hand_in_view_order(state, seat)
        index = int(args[0])
        if not 1 <= index <= len(hand):
            raise IllegalCommand(tr("Your hand has {n} card(s); `play {index}` names none of them.", n=len(hand), index=index), examples)
        args = hand[index - 1].split()
    if verb == "choose":  # a Grizzled may be named by its lucky charm: `choose night`
        charms = {ch.charm: ch.id for ch in content().characters}
        args = [charms.get(arg, arg) for arg in args]
    if verb == "intensity" and len(args) == 1 and args[0].isdigit() and state.phase == INTENSITY:
        n = int(args[0])
        if not rules.min_intensity(state) <= n <= rules.max_intensity(state):
            raise IllegalCommand(intensity_error(state, n), examples)
    wanted = Counter(args)
    exact, wider = [], []
    for action in options:
        if action.kind != verb:
            continue
        have = Counter(read(format_action(action))[1])
        if have == wanted:
            exact.append(action)
        elif not wanted - have:
            wider.append(action)
    if exact:
        return exact[0]
    if len(wider) == 1:
        return wider[0]
    if wider:
        raise AmbiguousCommand(tr("That fits several choices; write one of these in full."),
                               [format_action(a) for a in wider])
    written = i18n.each_lang(lambda lang: ", ".join(format_in(a, lang) for a in options[:8]))  # in the reader's words
    raise IllegalCommand(tr("`{strip}` is not possible now. You may write: {written}.", strip=text.strip(), written=written),
                         examples)
