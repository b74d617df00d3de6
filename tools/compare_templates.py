"""One-off check that the single template tree renders the same mails as the old en/ and vi/
copies: every purpose, both languages, with and without the optional sections.

    .venv/bin/python tools/compare_templates.py OLD_RENDER_PY OLD_TEMPLATES_DIR

(OLD_* from ``git show <before>:service/outbound/render.py`` and ``git archive <before> mail_templates``).
"""

from __future__ import annotations

import importlib.util
import sys
from typing import Any

from service.outbound.render import PURPOSES, Renderer


def samples() -> list[dict[str, Any]]:
    game = {"title": "TAC", "id": 7}
    full = {"player": "Ann", "host": "Bob", "game": game, "game_title": "TAC", "players": ["Ann", "Bob"],
            "results": {"done": ["play 5"], "not_understood": [{"text": "xyz", "why": "no"}], "ignored": ["hi"]},
            "digest": ["Bob played 3"], "board": "BOARD", "menu": [{"n": 1, "command": "play 5", "label": "L"}],
            "examples": ["play 5", "pass"], "deadline": "2026-01-01 10:00 (UTC)", "lines": ["a line"],
            "commands": [("help", "this")], "outcome": "Ann wins", "final_board": True, "waiting": 2,
            "why": "Because.", "title": "Notice", "to_act": True,
            "games": [{"tag": "[TAC #1]", "title": "TAC", "late": True, "deadline": "d", "on_miss": "wait",
                       "acts_at": "x", "left": "2 hours"},
                      {"tag": "[TAC #2]", "title": "TAC", "late": False, "deadline": "d", "on_miss": "default",
                       "acts_at": "x", "left": "1 day"}]}
    slim = {**full, "results": None, "digest": [], "board": "", "menu": [], "examples": [], "deadline": None,
            "lines": [], "commands": [], "final_board": False, "waiting": 1, "why": "", "to_act": False,
            "games": [full["games"][0]]}
    late = {**slim, "games": [{**full["games"][0], "on_miss": "default"}]}
    return [full, slim, late]


def _norm(html: str) -> str:
    """The old templates escaped a quote inside translated words as an entity; the catalog's
    words are trusted markup and keep the character. Both display the same."""
    return html.replace("&#34;", '"').replace("&#39;", "'")


def main(old_render: str, old_dir: str) -> int:
    spec = importlib.util.spec_from_file_location("old_render", old_render)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["old_render"] = module
    spec.loader.exec_module(module)
    old, new = module.Renderer(old_dir), Renderer()
    same = differ = 0
    for purpose in PURPOSES:
        for lang in ("en", "vi"):
            for values in samples():
                a = old.render(purpose, lang, **values)
                b = new.render(purpose, lang, **values)
                for part in ("subject", "text", "html"):
                    if _norm(getattr(a, part)) == _norm(getattr(b, part)):
                        same += 1
                    else:
                        differ += 1
                        print(f"--- {purpose} {lang} {part}\n{getattr(a, part)!r}\n+++\n{getattr(b, part)!r}")
    print(f"{same} parts identical, {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
