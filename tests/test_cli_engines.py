"""The engine-only commands work on any registered engine (here the toy engine)."""

from __future__ import annotations

from typer.testing import CliRunner

from service.cli.app import app
from service.cli.selfplay import Summary, play_game
from tests.support.toy import ENGINE as TOY

runner = CliRunner()


def test_selfplay_prints_the_first_game_and_a_summary() -> None:
    result = runner.invoke(app, ["selfplay", "toy", "--games", "5", "--players", "3", "--bots", "heuristic,random"])
    assert result.exit_code == 0, result.output
    assert "Alice: " in result.output  # the move log of the first game
    assert "Result:" in result.output
    assert "5 games, 3 players" in result.output
    assert "games won by a 'heuristic' seat" in result.output


def test_selfplay_refuses_an_unknown_engine_and_bot() -> None:
    assert runner.invoke(app, ["selfplay", "nope"]).exit_code != 0
    result = runner.invoke(app, ["selfplay", "toy", "--bots", "genius"])
    assert result.exit_code != 0


def test_a_wrong_option_is_a_one_line_error_not_a_traceback() -> None:
    for args in (["selfplay", "toy", "--option", "rounds=99"], ["play", "toy", "--option", "colour=red"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, result.output  # typer's usage error, not an exception
        assert "Invalid value for --option" in result.output and "Traceback" not in result.output


def test_selfplay_and_play_refuse_a_bad_option_in_one_line() -> None:
    for command in (["selfplay", "toy"], ["play", "toy"]):
        for option in ("rounds=lots", "colour=red"):
            result = runner.invoke(app, [*command, "--option", option])
            assert result.exit_code == 2, result.output
            assert "Invalid value for --option" in result.output and "Traceback" not in result.output


def test_selfplay_is_reproducible_from_its_seed() -> None:
    a = play_game(TOY, 3, 42, ["random"], keep_log=True)
    b = play_game(TOY, 3, 42, ["random"], keep_log=True)
    assert [(s, c) for s, c, _ in a.log] == [(s, c) for s, c, _ in b.log]
    assert a.outcome == b.outcome


def test_summary_counts_wins_per_bot_kind() -> None:
    summary = Summary()
    for seed in range(20):
        summary.add(play_game(TOY, 2, seed, ["heuristic", "random"]))
    assert summary.games == 20
    assert summary.bot_wins["heuristic"] + summary.bot_wins["random"] + summary.draws >= 20
    assert summary.win_rate("heuristic") > summary.win_rate("random")


def test_hot_seat_play_reads_numbers_and_text_until_the_end() -> None:
    # Two players, one round: Alice calls, then both play a card (a number and a free-text command).
    from engines.contract import Action

    state = TOY.new_game(["Alice", "Bình"], {"rounds": 1}, 1)
    bob_card = TOY.legal_actions(TOY.apply(state, 0, Action("call", ("high",)))[0], 1)[0].command
    script = "\n".join(["1", "xyzzy", "1", bob_card]) + "\n"
    result = runner.invoke(app, ["play", "toy", "--players", "2", "--option", "rounds=1"], input=script)
    assert result.exit_code == 0, result.output
    assert "Cannot read" in result.output  # the bad command got an answer, not a crash
    assert "Game over:" in result.output


def test_bench_engines_prints_rates() -> None:
    result = runner.invoke(app, ["bench", "engines", "--engine", "toy", "--seconds", "0.2"])
    assert result.exit_code == 0, result.output
    assert "toy" in result.output and "games/s" in result.output
