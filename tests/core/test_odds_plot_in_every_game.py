"""`odds --plot` of Pilotta and Pitch (one core odds command): the figure is a real PNG that the
JSON names, only when written, with the same numbers as without it; the text says where it went."""

from __future__ import annotations

import json

import pytest
from PIL import Image

#: game -> (the odds command line, the figure's least width and height: its panels of events)
CASES = {
    "pilotta": (("pilotta", "odds", "-n", "2000", "--seed", "3", "--quiet"), (1000, 500)),
    "pitch": (
        ("pitch", "odds", "--players", "5", "-n", "2000", "--seed", "7", "--quiet"),
        (600, 800),
    ),
}


@pytest.mark.parametrize("game", sorted(CASES))
def test_odds_plot_writes_a_png_that_the_json_names(game, run_main, tmp_path):
    args, (least_width, least_height) = CASES[game]
    path = tmp_path / "odds.png"
    code, out, err = run_main(*args, "--json", "--plot", str(path))
    assert code == 0, err
    with_plot = json.loads(out)
    assert with_plot.pop("plot") == str(path)
    with Image.open(path) as image:
        assert image.format == "PNG"
        width, height = image.size
    assert width > least_width and height > least_height
    code, out, _ = run_main(*args, "--json")
    assert code == 0 and json.loads(out) == with_plot  # without --plot: no key, same numbers


@pytest.mark.parametrize("game", sorted(CASES))
def test_odds_text_says_where_the_figure_went(game, run_main, tmp_path):
    args, _ = CASES[game]
    path = tmp_path / "odds.png"
    code, out, _ = run_main(*args, "--plot", str(path))
    assert code == 0 and f"Figure written to {path}" in out and path.stat().st_size > 10_000
