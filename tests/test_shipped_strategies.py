"""The strategy files shipped in docs/strategies load, and say what the docs measured."""

from __future__ import annotations

from pathlib import Path

from piquet_sim.piquet import policies as P
from piquet_sim.piquet.strategies import load

DOCS = Path(__file__).resolve().parents[1] / "docs" / "strategies"


def test_pimcw_strong_is_the_measured_setting_against_pimc():
    strong, pimc = load(DOCS / "pimcw-strong.toml"), load(DOCS / "pimc.toml")
    row = P.get("play", "pimcw")
    params = dict(zip(row.params, strong.elder.play.params, strict=True))
    assert strong.elder == strong.younger and pimc.elder == pimc.younger
    assert (strong.elder.play.policy, pimc.elder.play.policy) == ("pimcw", "pimc")
    assert (strong.elder.exchange.policy, pimc.elder.exchange.policy) == ("heuristic",) * 2
    measured = {"worlds": 32, "oversample": 64, "exchange_epsilon": 0.1, "exchange_draws": 32}
    defaults = dict(zip(row.params, row.defaults, strict=True))
    assert params == defaults | measured
