"""The tree keeps its shape: import rules hold and no two modules import each other in a circle.

The rules themselves are import-linter contracts in pyproject.toml (engines never import the
service; the production path never imports the local mail servers or the demo; the stages are
layers that never reach back up). Circles are checked here on the module graph that grimp
builds, function-level imports included, so a lazy import cannot hide one.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]


def _circles(graph: grimp.ImportGraph, package: str) -> list[list[str]]:
    """Strongly connected groups of more than one module inside ``package`` (Tarjan)."""
    modules = sorted(m for m in graph.modules if m == package or m.startswith(package + "."))
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.find_modules_directly_imported_by(node)):
            if not nxt.startswith(package):
                continue
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    sys.setrecursionlimit(10_000)
    for module in modules:
        if module not in index:
            visit(module)
    return found


@pytest.mark.parametrize("package", ["engines", "service"])
def test_no_import_circles(package: str) -> None:
    graph = grimp.build_graph(package)
    assert _circles(graph, package) == []


def test_circle_detector_finds_a_circle() -> None:
    """The detector itself: two modules importing each other are reported."""
    graph = grimp.ImportGraph()
    for name in ("pkg", "pkg.a", "pkg.b", "pkg.c"):
        graph.add_module(name)
    graph.add_import(importer="pkg.a", imported="pkg.b")
    graph.add_import(importer="pkg.b", imported="pkg.a")
    graph.add_import(importer="pkg.c", imported="pkg.a")
    assert _circles(graph, "pkg") == [["pkg.a", "pkg.b"]]


def test_import_contracts_hold() -> None:
    """engines never import service; production never imports localmail/demo; layers hold."""
    lint = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
