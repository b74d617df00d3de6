"""The benchmarks run end to end on small sizes and report sane figures (never timing asserts)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import engines
from bench.latency import run_latency
from bench.pipeline import run_pipeline, run_scaling, scaling_lines
from bench.scale import World, bench_settings, full_scans, run_scale
from service.cli.app import app
from service.localmail.postgres import available
from service.schedule.runtime import Service

pytestmark = pytest.mark.e2e


def test_pipeline_bench_applies_every_reply_and_measures_both_sides() -> None:
    report = run_pipeline(12, engine_ids=["tagteam", "grizzled"], echo=lambda _: None)
    assert report.applied == 12
    assert report.mails_sent >= 12
    assert report.service_s > 0 and report.raw_fetch_s > 0 and report.raw_send_s > 0
    assert 0 < report.latency_p50_s <= report.latency_p95_s
    assert any("ratio service/raw" in line for line in report.lines())
    # the service's database work is counted; a reply costs its store, its processing and one
    # commit per mail sent (record and next claim together), plus a share of the batch claims
    assert report.statements > 0
    assert report.commits <= 4 * report.replies, report.commits
    assert any("statements" in line and "commits" in line for line in report.lines())


def test_scale_bench_measures_a_cycle_per_size_without_full_scans() -> None:
    reports = run_scale((20, 40), replies=5, echo=lambda _: None)
    assert [r.games for r in reports] == [20, 40]
    assert [r.players for r in reports] == [80, 160]
    assert [r.handled for r in reports] == [5, 10]
    assert all(r.cpu_ms_per_reply > 0 and r.insert_s > 0 for r in reports)


def test_full_scan_check_names_a_query_without_an_index(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    class Stack:
        host, imap_port, smtp_port = "127.0.0.1", 1, 1

    service = Service(bench_settings(Stack(), tmp_path / "db.sqlite3"))
    assert full_scans(service) == []  # the hot queries all use an index
    monkeypatch.setattr("bench.scale.HOT_QUERIES", {"by options": "SELECT * FROM games WHERE options = 'x'"})
    assert full_scans(service) == ["by options: SCAN games"]


def test_latency_bench_times_each_reply_under_light_load() -> None:
    report = run_latency(3, rate=4.0, echo=lambda _: None)
    assert len(report.service_ms) == 3
    assert all(0 < s <= e for s, e in zip(report.service_ms, report.end_to_end_ms, strict=True))
    assert any("p95" in line for line in report.lines())
    # the breakdown: stored -> committed -> last answer sent adds up to the service time
    assert len(report.pipeline_ms) == len(report.answers_ms) == 3
    for total, pipe, out in zip(report.service_ms, report.pipeline_ms, report.answers_ms, strict=True):
        assert pipe > 0 and out > 0 and abs(pipe + out - total) < 0.01
    assert set(report.engines) <= set(engines.names()) and all(m >= 1 for m in report.mails)
    assert any(line.strip().startswith(report.engines[0]) for line in report.lines())


@pytest.mark.slow
def test_worker_processes_share_one_postgresql() -> None:
    if not available():
        pytest.skip("PostgreSQL is not installed (or we cannot run it as the postgres user)")
    reports = run_scaling(8, [1, 2], db="postgresql", engine_ids=["grizzled"], echo=lambda _: None)
    assert [r.workers for r in reports] == [1, 2]
    assert all(r.applied == 8 for r in reports)
    assert len(scaling_lines(reports)) == 3


@pytest.mark.parametrize("args", [
    ["bench", "pipeline", "--workers", "two"],
    ["bench", "pipeline", "--db", "oracle"],
    ["bench", "pipeline", "--replies", "0"],
    ["bench", "scale", "--games", "100", "--replies", "101"],
    ["bench", "scale", "--games", "0"],
    ["bench", "latency", "--rate", "-1"],
])
def test_bench_commands_refuse_bad_arguments_in_one_line(args: list[str]) -> None:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert result.output.startswith("error: ") and result.output.count("\n") == 1


def test_world_copies_share_their_templates_decisions(tmp_path: Path) -> None:
    """The bulk insert issues keys from the template's decisions, as ``create_game`` would."""
    import random

    from service.outbound.keys import lookup_key

    class Stack:
        host, imap_port, smtp_port = "127.0.0.1", 1, 1

    service = Service(bench_settings(Stack(), tmp_path / "db.sqlite3"))
    world = World(service)
    world.add_templates(["tac"], 1)
    world.add_games(10, random.Random(1))
    with service.session() as s:
        for live in world.to_act:
            info = lookup_key(s, service.ctx.key_secret, live.key)
            assert info is not None and (info.game_id, info.seat) == (live.game_id, live.seat)
