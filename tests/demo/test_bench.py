"""The pipeline and scale benchmarks run end to end on small sizes and report sane figures."""

from __future__ import annotations

import pytest

from bench.pipeline import run_pipeline
from bench.scale import run_scale

pytestmark = pytest.mark.e2e


def test_pipeline_bench_applies_every_reply_and_measures_both_sides() -> None:
    report = run_pipeline(12, engine_ids=["tagteam", "grizzled"], echo=lambda _: None)
    assert report.applied == 12
    assert report.mails_sent >= 12
    assert report.service_s > 0 and report.raw_fetch_s > 0 and report.raw_send_s > 0
    assert 0 < report.latency_p50_s <= report.latency_p95_s
    assert any("ratio service/raw" in line for line in report.lines())


def test_scale_bench_measures_a_cycle_per_size() -> None:
    reports = run_scale((20, 40), replies=5, echo=lambda _: None)
    assert [r.games for r in reports] == [20, 40]
    assert [r.players for r in reports] == [80, 160]
    assert [r.handled for r in reports] == [5, 10]
