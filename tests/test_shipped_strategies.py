"""The strategy files shipped in docs/strategies load, and say what the docs measured."""

from __future__ import annotations

from pathlib import Path

from piquet_sim.piquet import policies as P
from piquet_sim.piquet.strategies import BOOK

DOCS = Path(__file__).resolve().parents[1] / "docs" / "strategies"


def test_pimcw_strong_is_the_measured_setting_against_pimc():
    strong, pimc = BOOK.load(DOCS / "pimcw-strong.toml"), BOOK.load(DOCS / "pimc.toml")
    row = P.get("play", "pimcw")
    params = dict(zip(row.params, row.check_params(strong.params("play")), strict=True))
    assert not strong.roles and not pimc.roles  # the same in both seats
    assert (strong.policy("play"), pimc.policy("play")) == ("pimcw", "pimc")
    assert (strong.policy("exchange"), pimc.policy("exchange")) == ("heuristic",) * 2
    measured = {"worlds": 32, "oversample": 64, "exchange_epsilon": 0.1, "exchange_draws": 32}
    defaults = dict(zip(row.params, row.defaults, strict=True))
    assert params == defaults | measured
