"""Barcadia's cards, rooms and House Rules in words, generated from their content data.

Why: a card's text used to be written by hand beside its effect in the TOML files, twice (English
and Vietnamese), and nothing checked that "+3 to your next Boss roll" matched ``roll_bonus Boss
3``. Here one small renderer reads the effect (kind, scope, amount), the timing and who holds
it, so a new card reads in both languages as soon as it loads, and a changed number changes
its text too.

Who "you" is: a Loot card, Power-Up or Signature Move speaks to its holder ("you"); a House
Rule applies to everyone ("Everyone ..."). Scopes follow ``resolutions.ROLL_SCOPES``: a
Monster effect also counts in Team Battles, an "All" bonus counts for every roll.
"""

from __future__ import annotations

from collections.abc import Callable

from engines.contract import Text

#: The decks a card can belong to; the House Rule deck speaks to everyone.
DECKS = ("loot", "powerup", "character", "house_rule")

#: "... your rolls <scope>": where a roll bonus or a damage cut counts (ROLL_SCOPES).
SCOPE = {
    "Monster": ("against Monsters and in Team Battles", "khi đánh Quái Vật và Đội Chiến"),
    "Team": ("in Team Battles", "trong Đội Chiến"),
    "Boss": ("in Boss battles, as challenger or as the Boss", "trong trận Trùm, dù thách đấu hay đóng vai Trùm"),
    "Guardian": ("against the Grand Drink Guardian", "khi đấu Người Giữ Cửa Đồ Uống Vĩ Đại"),
    "Duel": ("in duels", "khi đấu tay đôi"),
    "Trap": ("when disarming traps", "khi gỡ bẫy"),
    "All": ("", ""),
}
#: "your next roll <scope>": a Loot bonus counts in its owner's own turn only.
NEXT_SCOPE = {
    "Monster": ("against a Monster or in a Team Battle", "khi đánh Quái Vật hoặc Đội Chiến"),
    "Team": ("in a Team Battle", "trong Đội Chiến"),
    "Boss": ("in a Boss battle", "trong trận Trùm"),
    "Guardian": ("against the Grand Drink Guardian", "khi đấu Người Giữ Cửa Đồ Uống Vĩ Đại"),
    "Duel": ("in a duel", "khi đấu tay đôi"),
    "Trap": ("to disarm a trap", "khi gỡ bẫy"),
    "All": ("", ""),
}
#: What deals the damage a ``damage_reduction`` cuts.
DAMAGE_FROM = {
    "Monster": ("Monsters and Team Battles", "Quái Vật và Đội Chiến"),
    "Team": ("Team Battles", "Đội Chiến"),
    "Boss": ("Bosses", "Trùm"),
    "Guardian": ("the Grand Drink Guardian", "Người Giữ Cửa Đồ Uống Vĩ Đại"),
    "Duel": ("lost duels", "thua đấu tay đôi"),
    "Trap": ("traps", "cạm bẫy"),
    "All": ("every source", "mọi nguồn"),
}


def _join(*parts: str) -> str:
    return " ".join(p for p in parts if p)


def _loot_text(kind: str, scope: str, n: int) -> Text:
    """A one-shot Loot card, played by its holder."""
    where_en, where_vi = NEXT_SCOPE[scope]
    texts: dict[str, tuple[str, str]] = {
        "heal": (f"Heal {n} HP.", f"Hồi {n} HP."),
        "damage_player": (f"An opponent of your choice takes {n} damage.", f"Một đối thủ bạn chọn chịu {n} sát thương."),
        "roll_bonus": (_join(f"+{n} to your next roll", where_en, "this turn."),
                       _join(f"+{n} cho lần tung kế tiếp", where_vi, "trong lượt này.")),
        "extra_action": (f"{n} more action{'s' if n > 1 else ''} this turn.", f"Thêm {n} hành động trong lượt này."),
        "trap": ("Put a trap on an empty room (not the Starting Point; at most 3 a room).",
                 "Đặt một cạm bẫy vào phòng không có người (trừ Điểm Xuất Phát; tối đa 3 mỗi phòng)."),
        "disarm_target": (f"For the rest of this turn you disarm traps on a roll of {n} or more.",
                          f"Đến hết lượt này bạn gỡ bẫy khi tung được {n} trở lên."),
        "swap_rooms": ("Swap two empty rooms next to yours (never the Starting Point).",
                       "Đổi chỗ hai phòng trống cạnh phòng bạn (không phải Điểm Xuất Phát)."),
        "steal_loot": ("Take a random Loot card from an opponent in a room next to yours.",
                       "Lấy ngẫu nhiên một thẻ Chiến Lợi Phẩm của đối thủ ở phòng cạnh phòng bạn."),
        "shield": (f"The next damage you take is {n} less.", f"Lần sát thương kế tiếp bạn nhận giảm {n}."),
        "draw_loot": (f"Draw {n} Loot card{'s' if n > 1 else ''}.", f"Rút {n} thẻ Chiến Lợi Phẩm."),
        "clear_traps": ("Remove every trap from a room next to yours.", "Gỡ mọi cạm bẫy khỏi một phòng cạnh phòng bạn."),
        "extra_duel": ("Duel once more this turn (still before your action).",
                       "Đấu tay đôi thêm một lần trong lượt (vẫn trước hành động)."),
        "damage_adjacent": (f"Every opponent in a room next to yours takes {n} damage.",
                            f"Mọi đối thủ ở phòng cạnh phòng bạn chịu {n} sát thương."),
        "recall": ("Go back to the Starting Point.", "Quay về Điểm Xuất Phát."),
        "blink": ("Step into a face-up room next to yours without using your action.",
                  "Bước vào một phòng đã lật cạnh phòng bạn mà không tốn hành động."),
        "extra_teleport": ("Use a portal once more this turn.", "Dùng cổng dịch chuyển thêm một lần trong lượt."),
    }
    en, vi = texts[kind]
    return Text(en, vi)


def _lasting_text(kind: str, scope: str, n: int, everyone: bool) -> Text:
    """A lasting effect: a Power-Up or Signature Move ("you") or a House Rule ("everyone")."""
    where_en, where_vi = SCOPE[scope]
    src_en, src_vi = DAMAGE_FROM[scope]
    if everyone:
        texts = {
            "roll_bonus": (_join(f"Everyone adds {n} to their rolls", where_en) + "." if scope != "All"
                           else f"Everyone adds {n} to every roll.",
                           _join(f"Mọi người cộng {n} vào các lần tung", where_vi) + "." if scope != "All"
                           else f"Mọi người cộng {n} vào mọi lần tung."),
            "disarm_target": (f"Everyone disarms traps on a roll of {n} or more.", f"Mọi người gỡ bẫy khi tung được {n} trở lên."),
            "damage_reduction": (f"{src_en[0].upper()}{src_en[1:]} deal everyone {n} less damage.",
                                 f"{src_vi} gây ít hơn {n} sát thương cho mọi người."),
            "start_heal": (f"Everyone heals {n} HP at the start of their turn.", f"Mọi người hồi {n} HP đầu lượt của mình."),
            "extra_loot": (f"Whenever anyone gains Loot, they draw {n} more.",
                           f"Mỗi khi ai đó nhận Chiến Lợi Phẩm, người đó rút thêm {n} thẻ."),
            "move_range": (f"Everyone may enter up to {n} face-up rooms with one action.",
                           f"Mọi người được vào tối đa {n} phòng đã lật với một hành động."),
            "duel_damage": (f"The loser of a duel takes {n} damage.", f"Người thua đấu tay đôi chịu {n} sát thương."),
            "trap_damage": (f"A trap that is not disarmed deals {n} damage.", f"Cạm bẫy không gỡ được gây {n} sát thương."),
        }
    else:
        texts = {
            "roll_bonus": (_join(f"+{n} to your rolls", where_en) + "." if scope != "All" else f"+{n} to every roll you make.",
                           _join(f"+{n} cho các lần tung của bạn", where_vi) + "." if scope != "All"
                           else f"+{n} cho mọi lần tung của bạn."),
            "disarm_target": (f"You disarm traps on a roll of {n} or more.", f"Bạn gỡ bẫy khi tung được {n} trở lên."),
            "damage_reduction": (f"{src_en[0].upper()}{src_en[1:]} deal you {n} less damage.",
                                 f"{src_vi} gây ít hơn {n} sát thương cho bạn."),
            "start_heal": (f"Heal {n} HP at the start of each of your turns.", f"Hồi {n} HP đầu mỗi lượt của bạn."),
            "extra_loot": (f"Whenever you gain Loot, draw {n} more.", f"Mỗi khi nhận Chiến Lợi Phẩm, rút thêm {n} thẻ."),
            "move_range": (f"Enter up to {n} face-up rooms with one action.", f"Vào tối đa {n} phòng đã lật với một hành động."),
        }
    en, vi = texts[kind]
    return Text(en, vi)


def _lower(sentence: str) -> str:
    return sentence[:1].lower() + sentence[1:]


def effect_text(deck: str, kind: str, scope: str, amount: int) -> Text:
    """The sentence for one card of ``deck`` whose effect is ``kind``/``scope``/``amount``.

    >>> effect_text("loot", "heal", "All", 10).en
    'Heal 10 HP.'
    >>> effect_text("house_rule", "duel_damage", "Duel", 20).vi
    'Người thua đấu tay đôi chịu 20 sát thương.'

    Raises ``KeyError`` for an effect this deck cannot have (the loader reports it).
    """
    if deck not in DECKS:
        raise KeyError(deck)
    if deck == "loot":
        return _loot_text(kind, scope, amount)
    text = _lasting_text(kind, scope, amount, everyone=deck == "house_rule")
    if deck == "character":
        return Text("Signature Move: " + _lower(text.en), "Chiêu đặc trưng: " + _lower(text.vi))
    return text


def played_text(kind: str, scope: str, n: int) -> Text | None:
    """What a played Loot card does, told to everyone (no "you"); ``None`` when the lines that
    follow already say it ("An heals 10 HP", "A trap is set in room 4")."""
    where_en, where_vi = NEXT_SCOPE[scope]
    texts: dict[str, tuple[str, str]] = {
        "roll_bonus": (_join(f"+{n} to the next roll", where_en, "this turn"),
                       _join(f"+{n} cho lần tung kế tiếp", where_vi, "trong lượt này")),
        "extra_action": (f"{n} more action{'s' if n > 1 else ''} this turn", f"thêm {n} hành động trong lượt này"),
        "disarm_target": (f"disarms traps on a roll of {n} or more for the rest of this turn",
                          f"gỡ bẫy khi tung được {n} trở lên đến hết lượt này"),
        "shield": (f"the next damage taken is {n} less", f"lần sát thương kế tiếp phải nhận giảm {n}"),
        "extra_duel": ("may duel once more this turn", "được đấu tay đôi thêm một lần trong lượt này"),
        "extra_teleport": ("may use a portal once more this turn", "được dùng cổng dịch chuyển thêm một lần trong lượt này"),
    }
    if kind not in texts:
        return None
    en, vi = texts[kind]
    return Text(en, vi)


#: When a Loot card may be played (HB-51), said next to its name.
TIMING = {"between": ("between turns", "giữa lượt"), "turn": ("in your turn", "trong lượt của bạn")}


def timing_text(timing: str) -> Text:
    en, vi = TIMING[timing]
    return Text(en, vi)


def reward_text(reward: tuple[tuple[str, int], ...]) -> Text:
    """``(("loot", 2), ("powerup", 1))`` -> "2 Loot cards and 1 Power-Up"."""
    names = {"loot": (("Loot card", "Loot cards"), "thẻ Chiến Lợi Phẩm"),
             "powerup": (("Power-Up", "Power-Ups"), "Thẻ Tăng Cường")}
    en = [f"{n} {names[deck][0][n != 1]}" for deck, n in reward]
    vi = [f"{n} {names[deck][1]}" for deck, n in reward]
    return Text(" and ".join(en), " và ".join(vi))


def room_text(kind: str, level: int, damage: int, reward: tuple[tuple[str, int], ...]) -> Text:
    """What a room of ``kind`` does to whoever enters it, with its numbers (HB-29..47)."""
    gain = reward_text(reward)
    lines: dict[str, Callable[[], tuple[str, str]]] = {
        "monster": lambda: (
            f"Monster, level {level}: roll {level} or more on a d20 to beat it and gain {gain.en}; "
            f"otherwise you take {damage} damage and the room turns face down again.",
            f"Quái Vật cấp {level}: tung d20 được {level} trở lên thì thắng và nhận {gain.vi}; "
            f"nếu không bạn chịu {damage} sát thương và phòng bị úp lại."),
        "team": lambda: (
            f"Team Battle, level {level}: you and a teammate you choose each roll a d20; a total of {level} or more "
            f"beats it and each of you gains {gain.en}; otherwise each of you takes {damage} damage.",
            f"Đội Chiến cấp {level}: bạn và một đồng đội bạn chọn mỗi người tung một d20; tổng {level} trở lên "
            f"thì thắng và mỗi người nhận {gain.vi}; nếu không mỗi người chịu {damage} sát thương."),
        "boss": lambda: (
            f"Boss: an opponent you name rolls for the Boss against your roll; if you win you gain {gain.en} and "
            f"they take {damage} damage, otherwise you take {damage} damage.",
            f"Trùm: một đối thủ bạn chọn tung thay Trùm để đấu với bạn; bạn thắng thì nhận {gain.vi} và người đó "
            f"chịu {damage} sát thương, nếu không bạn chịu {damage} sát thương."),
        "reward": lambda: (f"Reward: enter and gain {gain.en}.", f"Phần Thưởng: vào phòng và nhận {gain.vi}."),
        "portal": lambda: ("Magic Portal: once a turn, step to another face-up portal without using an action.",
                           "Cổng Dịch Chuyển: mỗi lượt một lần, bước sang cổng đã lật khác mà không tốn hành động."),
        "hoard": lambda: (
            f"Drink Hoard: with 3 Power-Ups, fight the Grand Drink Guardian (level {level}): roll {level} or more on "
            f"a d20 to win the game; otherwise you take {damage} damage.",
            f"Kho Báu Đồ Uống: có đủ 3 Thẻ Tăng Cường thì đấu Người Giữ Cửa Đồ Uống Vĩ Đại (cấp {level}): tung d20 được {level} "
            f"trở lên là thắng cả trò chơi; nếu không bạn chịu {damage} sát thương."),
    }
    en, vi = lines[kind]()
    return Text(en, vi)
