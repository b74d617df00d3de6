"""One-off check that moving the texts into the catalogs changed no mail: every mail of the
seeded bot games of ``tests/i18n/mails.py`` (4 engines, English and Vietnamese), rendered by
a tree before the change and by this one, must be identical.

    git archive <before> engines service mail_templates | tar -x -C /tmp/before
    .venv/bin/python tools/compare_game_mails.py /tmp/before /tmp/before.json   # the old tree
    .venv/bin/python tools/compare_game_mails.py . /tmp/after.json              # this tree
    .venv/bin/python tools/compare_game_mails.py --diff /tmp/before.json /tmp/after.json

Each tree runs in its own process (both define the packages ``engines`` and ``service``).
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

MAILS = Path(__file__).resolve().parents[1] / "tests" / "i18n" / "mails.py"


def dump(root: str, out: str) -> int:
    sys.path.insert(0, root)
    spec = importlib.util.spec_from_file_location("game_mails", MAILS)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["game_mails"] = module
    spec.loader.exec_module(module)
    from service.outbound.render import Renderer

    renderer = Renderer(Path(root) / "mail_templates")
    rows = [[eid, lang, m.purpose, m.seat, m.subject, m.text]
            for eid, n, seed in module.GAMES for lang in ("en", "vi")
            for m in module.game_mails(eid, n, seed, lang, renderer)]
    Path(out).write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
    print(f"{len(rows)} mails written to {out}")
    return 0


def diff(before: str, after: str) -> int:
    a = json.loads(Path(before).read_text(encoding="utf-8"))
    b = json.loads(Path(after).read_text(encoding="utf-8"))
    differ = [x for x, y in zip(a, b, strict=False) if x != y]
    print(f"{len(a)} / {len(b)} mails; {len(differ)} differ")
    for row in differ[:5]:
        print(row[:4])
    return 1 if differ or len(a) != len(b) else 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--diff":
        sys.exit(diff(sys.argv[2], sys.argv[3]))
    if len(sys.argv) != 3:
        sys.exit("usage: compare_game_mails.py ROOT OUT.json | --diff BEFORE.json AFTER.json")
    sys.exit(dump(sys.argv[1], sys.argv[2]))
