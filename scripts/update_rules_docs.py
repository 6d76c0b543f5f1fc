"""Rewrite the generated options table of every game's ``docs/rules/<game>.md`` from its rules
rows (``<game>/rules.py`` ``SPEC``). ``tests/test_rules_docs.py`` fails until this is run after
a rules option changes.

Usage: python scripts/update_rules_docs.py
"""

from __future__ import annotations

import importlib
from pathlib import Path

from piquet_sim.core.game.spec import DOC_START, replace_doc_table
from piquet_sim.games import GAME_PACKAGES

ROOT = Path(__file__).resolve().parents[1]
GAMES = GAME_PACKAGES


def main() -> None:
    for game in GAMES:
        spec = getattr(importlib.import_module(f"piquet_sim.{game}.rules"), "SPEC", None)
        doc = ROOT / "docs" / "rules" / f"{game}.md"
        text = doc.read_text(encoding="utf-8")
        if spec is None or DOC_START not in text:
            print(f"{doc.relative_to(ROOT)}: no generated table (skipped)")
            continue
        new = replace_doc_table(text, spec)
        if new != text:
            doc.write_text(new, encoding="utf-8")
            print(f"{doc.relative_to(ROOT)}: table rewritten")


if __name__ == "__main__":
    main()
