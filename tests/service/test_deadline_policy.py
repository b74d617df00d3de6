"""The deadline library the admin CLI and leagues call: policy parsing and JSON, weekend
arithmetic, set_policy / extend / pause / resume, the skip rule, city time zones, and the
whole-line rule for ``resign``. No mail servers: the database and the manual clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy.engine import Engine

import engines
from service.clock import ManualClock
from service.config import Settings
from service.context import AppContext
from service.play.player_commands import GAME_COMMANDS, find_command, resolve_zone
from service.play.seats import RESIGN_RULES, open_seat, resign_rule
from service.play.start import create_game
from service.schedule.deadlines import (
    DeadlinePolicy,
    PolicyError,
    _pass_action,
    extend,
    pause,
    policy_of,
    resume,
    set_policy,
)
from service.store.games import create_player, load, save_state
from service.store.models import Game, GameSeat
from service.store.policy import deadline_after


@pytest.fixture
def ctx(settings: Settings, db: Engine, clock: ManualClock) -> AppContext:
    return AppContext(settings=settings, db=db, clock=clock)


@pytest.fixture
def game_id(ctx: AppContext) -> int:
    with ctx.session() as s:
        players = [create_player(s, f"{n}@x.test", n, ctx=ctx).address for n in ("ann", "bob")]
        game = create_game(s, "toy", players, seed=2, ctx=ctx)
        s.commit()
        assert game.id is not None
        return game.id


def test_policy_parses_the_operators_words_and_round_trips_as_json(settings: Settings) -> None:
    base = DeadlinePolicy.defaults(settings)
    assert (base.hours, base.reminders, base.grace_hours, base.on_miss) == (72.0, (24.0, 2.0), 0.0, "default")
    policy = DeadlinePolicy.parse("hours=48 reminders=2,12 grace=6h weekend=on miss=wait", base)
    assert policy == DeadlinePolicy(48, (12.0, 2.0), 6, True, "wait")
    assert DeadlinePolicy.from_json(policy.to_json(), settings) == policy
    assert DeadlinePolicy.from_json("", settings) == base
    assert DeadlinePolicy.parse("reminders=none", base).reminders == ()
    assert "48 h per decision; reminders 12 h, 2 h before; grace 6 h; weekends do not count" in policy.describe()
    assert "trễ hạn thì chờ người chơi" in policy.describe("vi")


@pytest.mark.parametrize("words, field", [
    ("hours=0", "hours"), ("hours=abc", "not a number"), ("reminders=80", "reminders"), ("miss=forfeit", "on_miss"),
    ("colour=red", "unknown"), ("hours", "name=value"), ("weekend=maybe", "weekend"), ("grace=-1", "grace_hours"),
])
def test_a_bad_policy_is_refused_naming_the_field(settings: Settings, words: str, field: str) -> None:
    with pytest.raises(PolicyError, match=field):
        DeadlinePolicy.parse(words, DeadlinePolicy.defaults(settings))


def test_weekends_do_not_count_when_paused() -> None:
    friday_noon = datetime(2026, 1, 2, 12, 0, tzinfo=UTC)
    assert deadline_after(friday_noon, 72) == datetime(2026, 1, 5, 12, 0, tzinfo=UTC)
    assert deadline_after(friday_noon, 72, weekend_pause=True) == datetime(2026, 1, 7, 12, 0, tzinfo=UTC)
    saturday = datetime(2026, 1, 3, 9, 0, tzinfo=UTC)
    assert deadline_after(saturday, 24, weekend_pause=True) == datetime(2026, 1, 6, 0, 0, tzinfo=UTC)


def test_set_policy_extend_pause_resume(ctx: AppContext, clock: ManualClock, game_id: int) -> None:
    start = clock.now()
    with ctx.session() as s:
        game = s.get_one(Game, game_id)
        assert game.deadline == start + timedelta(hours=72)
        set_policy(s, ctx, game, DeadlinePolicy.parse("hours=24", policy_of(game, ctx.settings)))
        assert game.deadline == start + timedelta(hours=24)
        clock.advance(hours=30)
        set_policy(s, ctx, game, DeadlinePolicy.parse("hours=12", policy_of(game, ctx.settings)))
        assert game.deadline == clock.now()  # never in the past
        assert extend(s, ctx, game, timedelta(hours=10)) == clock.now() + timedelta(hours=10)
        pause(s, ctx, game)
        assert game.paused and game.deadline is None and game.paused_left == 36000
        clock.advance(days=5)
        assert resume(s, ctx, game) == clock.now() + timedelta(hours=10)
        pause(s, ctx, game)
        engine, state = load(game)  # a move while paused: the new decision gets its whole time
        state, _ = engine.apply(state, 0, engine.parse(state, 0, "high"))
        save_state(s, ctx, game, engine, state)
        assert game.deadline is None
        assert resume(s, ctx, game) == clock.now() + timedelta(hours=12)
        s.commit()
    with ctx.session() as s:
        assert policy_of(s.get_one(Game, game_id), ctx.settings).hours == 12


def test_open_seat_is_stored_for_takeover(ctx: AppContext, game_id: int) -> None:
    with ctx.session() as s:
        open_seat(s, ctx, s.get_one(Game, game_id), 1)
        s.commit()
    with ctx.session() as s:
        rows = s.exec(GameSeat.__table__.select()).all()  # type: ignore[attr-defined]
        assert [r.open for r in rows] == [False, True]


def test_skip_plays_the_engines_pass_where_its_menu_has_one() -> None:
    barcadia = engines.get("barcadia")
    state = barcadia.new_game(["a", "b", "c"], barcadia.resolve_options(None), 3)
    seat = min(barcadia.to_act(state))
    action = _pass_action(barcadia, state, seat)
    assert action is not None and barcadia.format(state, action) == "pass"
    toy = engines.get("toy")
    toy_state = toy.new_game(["a", "b"], toy.resolve_options(None), 3)
    assert _pass_action(toy, toy_state, 0) is None  # no pass: the sweep plays the default


def test_resignation_rules_by_kind_of_game() -> None:
    assert RESIGN_RULES == {"tac": "team", "tagteam": "opponent", "grizzled": "bot", "barcadia": "bot"}

    def rule(engine: str, seats: int) -> str:
        return resign_rule(Game(engine=engine, seed=1, state="{}", created_at=datetime.now(UTC),
                                updated_at=datetime.now(UTC)), seats)

    assert (rule("tac", 4), rule("tagteam", 2), rule("grizzled", 2), rule("grizzled", 4)) == (
        "team", "opponent", "bot", "bot")
    assert (rule("barcadia", 2), rule("barcadia", 5), rule("toy", 2), rule("toy", 3)) == (
        "opponent", "bot", "opponent", "bot")


@pytest.mark.parametrize("written, zone", [
    ("Hanoi", "Asia/Ho_Chi_Minh"), ("Hà Nội", "Asia/Ho_Chi_Minh"), ("Saigon", "Asia/Ho_Chi_Minh"),
    ("Ho Chi Minh City", "Asia/Ho_Chi_Minh"), ("Đà Nẵng", "Asia/Ho_Chi_Minh"), ("paris", "Europe/Paris"),
    ("New York", "America/New_York"), ("new_york", "America/New_York"), ("London", "Europe/London"),
    ("Berlin", "Europe/Berlin"), ("Tokyo", "Asia/Tokyo"), ("Sydney", "Australia/Sydney"),
    ("Europe/Berlin", "Europe/Berlin"), ("asia/ho_chi_minh", "Asia/Ho_Chi_Minh"), ("UTC", "UTC"),
    ("Atlantis", None), ("", None), ("Mars/Olympus", None),
])
def test_time_zones_by_city_and_alias(written: str, zone: str | None) -> None:
    assert resolve_zone(written) == zone


@pytest.mark.parametrize("line, command, args", [
    ("resign", "resign", []), ("resign K7Q2", "resign", ["K7Q2"]), ("bỏ cuộc nhé", "resign", []),
    ("please resign", "resign", []), ("resign K7Q2 thanks", "resign", ["K7Q2"]),
    ("I resign", None, None), ("tôi muốn bỏ cuộc", None, None), ("nghỉ 7 nhé", "vacation", ["7"]),
    ("back", "back", []), ("back 4 a", None, None), ("games", "games", []),
])
def test_commands_are_whole_lines(line: str, command: str | None, args: list[str] | None) -> None:
    found = find_command(GAME_COMMANDS, line)
    if command is None:
        assert found is None
    else:
        assert found is not None and found[0].names[0] == command and found[1] == args


def test_a_game_can_start_with_its_own_policy(settings: Settings, clock: ManualClock) -> None:
    from service.schedule.runtime import Service

    service = Service(settings, clock)
    for address in ("ann@x.test", "bob@x.test"):
        service.add_player(address, address[:3])
    game_id = service.new_game("toy", ["ann@x.test", "bob@x.test"], seed=1, policy="hours=24 miss=wait")
    with service.session() as s:
        game = s.get_one(Game, game_id)
        assert game.deadline == clock.now() + timedelta(hours=24)
        assert policy_of(game, settings) == DeadlinePolicy(24, (2.0,), 0, False, "wait")
    with pytest.raises(PolicyError):
        service.new_game("toy", ["ann@x.test", "bob@x.test"], policy="hours=-3")
