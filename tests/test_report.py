"""Strategy reports: structure of a small report, images, tables, and numbers equal to the APIs'.

Also the exchange-value kernel (forced takes are exact, the policy cell is the simulator's deal),
and the sinking section's two branches (study available / not available) by monkeypatching.
"""

from __future__ import annotations

import base64
import re
import sys
import types
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from PIL import Image

from piquet_sim.piquet import report as R
from piquet_sim.piquet.kernels import exchange_value as KX
from piquet_sim.piquet.kernels import layouts as L
from piquet_sim.piquet.kernels.exchange import _greedy_discard
from piquet_sim.piquet.kernels.tables import SUIT_TABLES
from piquet_sim.piquet.match import tournament_tables
from piquet_sim.piquet.odds import odds
from piquet_sim.piquet.partie import parties
from piquet_sim.piquet.rules import DEFAULT_RULES, Rules
from piquet_sim.piquet.simulation import Policies, simulate
from piquet_sim.piquet.strategies import BOOK, policies
from piquet_sim.piquet.studies import STUDIES

resolve = BOOK.resolve

DEALS = 600
SEED = 3
STRATEGIES = ["greedy", "max", "sink-sets"]
SECTIONS = (
    "reproduce",
    "how-to-read",
    "odds",
    "scores",
    "exchange",
    "rates",
    "tournament",
    "parties",
    "sinking",
    "ladder",
)
CELL = re.compile(r"^([+-]?[\d.]+) \[([+-]?[\d.]+), ([+-]?[\d.]+)\]$")


class Tables(HTMLParser):
    """Every <table> of an HTML document as (caption, header, rows), plus <section> ids and
    <img> attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[dict] = []
        self.sections: list[str] = []
        self.images: list[dict] = []
        self._cell: list[str] | None = None
        self._row: list[str] | None = None
        self._in_caption = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section":
            self.sections.append(a["id"])
        elif tag == "img":
            self.images.append(a)
        elif tag == "table":
            self.tables.append({"caption": "", "rows": []})
        elif tag == "caption":
            self._in_caption = True
        elif tag == "tr":
            self._row = []
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag == "caption":
            self._in_caption = False
        elif tag in ("td", "th") and self._row is not None:
            self._row.append("".join(self._cell or []).strip())
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.tables[-1]["rows"].append(self._row)
            self._row = None

    def handle_data(self, data):
        if self._in_caption:
            self.tables[-1]["caption"] += data
        elif self._cell is not None:
            self._cell.append(data)


def frame(tables: Tables, caption_start: str) -> pd.DataFrame:
    t = next(t for t in tables.tables if t["caption"].startswith(caption_start))
    header, *rows = t["rows"]
    return pd.DataFrame(rows, columns=header)


def fake_sinking(monkeypatch, available: bool) -> None:
    if available:
        mod = types.ModuleType("piquet_sim.piquet.sinking")
        mod.study = lambda n_hands, seed, rules: pd.DataFrame(
            {"choice": ["sink sets"] * n_hands, "gain": np.linspace(-1, 1, n_hands)}
        )
        mod.study_table = lambda df: df.groupby("choice", as_index=False).agg(
            hands=("gain", "size"), mean_gain=("gain", "mean")
        )
        monkeypatch.setitem(sys.modules, "piquet_sim.piquet.sinking", mod)
    else:
        monkeypatch.setitem(sys.modules, "piquet_sim.piquet.sinking", None)  # import raises


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    fake_sinking(mp, available=True)
    try:
        out = tmp_path_factory.mktemp("report")
        lines: list[str] = []
        paths = R.build_report(
            out, DEALS, STRATEGIES, SEED, DEFAULT_RULES, progress=lines.append, sink_hands=6
        )
    finally:
        mp.undo()
    html = paths["html"].read_text(encoding="utf-8")
    parsed = Tables()
    parsed.feed(html)
    return paths, html, parsed, lines


def test_every_section_is_present_in_html_and_markdown(built):
    paths, html, parsed, lines = built
    assert parsed.sections == list(SECTIONS)
    md = paths["md"].read_text(encoding="utf-8")
    for key in SECTIONS:
        assert f'<a id="{key}"></a>' in md
    assert md.count("\n## ") == len(SECTIONS)
    assert "How to read this report" in html
    assert "Strength ladder of the play policies" in html and "heuristic" in html
    assert any("report written" in line for line in lines)  # progress lines were given


def test_images_exist_open_and_are_embedded(built):
    paths, html, parsed, _ = built
    images = paths["images"]
    assert set(images) == {"scores", "rates", "exchange", "heatmap", "parties"}
    md = paths["md"].read_text(encoding="utf-8")
    embedded = {img["data-file"]: img["src"] for img in parsed.images}
    for path in images.values():
        path = Path(path)
        assert path.is_file() and path.parent == paths["html"].parent
        with Image.open(path) as im:
            im.verify()
            assert im.format == "PNG"
        assert f"]({path.name})" in md  # the twin references the PNG beside it
        src = embedded[path.name]
        assert src.startswith("data:image/png;base64,")
        assert base64.b64decode(src.split(",", 1)[1]) == path.read_bytes()
    assert 'src="http' not in html and "<link" not in html  # self-contained


def test_tables_parse_and_every_estimate_has_an_interval_and_a_count(built):
    paths, _, parsed, _ = built
    assert len(parsed.tables) >= 14
    for t in parsed.tables:
        header, *rows = t["rows"]
        assert rows, t["caption"]
        assert all(len(r) == len(header) for r in rows), t["caption"]
    # estimate columns: value [low, high] with low <= value <= high
    for caption in (
        "Deal events",
        "Elder:",
        "Younger:",
        "Percent of deals",
        "Matches",
        "Partie results",
    ):
        df = frame(parsed, caption)
        est_cols = [c for c in df.columns if df[c].str.match(CELL.pattern).any()]
        assert est_cols, caption
        assert any(c in df.columns for c in ("deals", "mirrored pairs", "parties")), caption
        for c in est_cols:
            for v in df[c]:
                if v in ("", "n/a"):
                    continue
                m, lo, hi = map(float, CELL.match(v).groups())
                assert lo - 1e-9 <= m <= hi + 1e-9, (caption, c, v)
    # the Markdown tables have the same rows
    md = paths["md"].read_text(encoding="utf-8")
    md_rows = [line for line in md.splitlines() if line.startswith("| ")]
    html_rows = sum(len(t["rows"]) for t in parsed.tables)
    assert len(md_rows) == html_rows
    odds_csv = pd.read_csv(paths["odds_csv"])
    assert {"group", "role", "stage", "value", "p", "ci_low", "ci_high", "deals"} <= set(
        odds_csv.columns
    )
    assert (odds_csv["deals"] == DEALS).all()


def test_odds_numbers_match_the_odds_api(built):
    _, _, parsed, _ = built
    s, _ = odds(DEALS, SEED, policies(resolve("greedy"), resolve("greedy")))
    events = frame(parsed, "Deal events").set_index("event")
    assert events.loc["pique", "elder (%)"] == R.fmt_pct_ci(s["elder"]["pique"])
    assert events.loc["capot", "younger (%)"] == R.fmt_pct_ci(s["younger"]["capot"])
    assert events.loc["carte blanche", "exact, dealt hand (%)"] == R.fmt_pct(
        s["elder"]["carte_blanche"]["exact"]
    )
    point = frame(parsed, "Longest suit").set_index("point length")
    assert point.loc["5", "dealt, elder (%)"] == R.fmt_pct_ci(
        s["elder"]["dealt"]["point_length"]["5"]
    )
    assert point.loc["5", "exact (%)"] == R.fmt_pct(
        s["elder"]["dealt"]["point_length"]["5"]["exact"]
    )
    totals = frame(parsed, "Mean deal totals").set_index("quantity")
    assert totals.loc["net, elder minus younger", "mean (points)"] == R.fmt_pts_ci(s["net"], 3)
    rates = frame(parsed, "Percent of deals").set_index("strategy")
    s_max, _ = odds(DEALS, SEED, policies(resolve("max"), resolve("max")))
    assert rates.loc["max", "repique, younger (%)"] == R.fmt_pct_ci(s_max["younger"]["repique"])


def test_tournament_and_partie_numbers_match_their_apis(built):
    _, _, parsed, _ = built
    t = tournament_tables(STUDIES.round_robin(STRATEGIES, DEALS // 2, SEED, DEFAULT_RULES))
    row = t.matches.iloc[0]
    matches = frame(parsed, "Matches")
    assert matches.loc[0, "A's margin (points/deal)"] == R.fmt_pts_ci(
        {"mean": row["net_per_deal"], "ci95": [row["ci_low"], row["ci_high"]]}, 3
    )
    ps = parties("greedy", "max", max(DEALS // 40, 2), SEED).summary
    pt = frame(parsed, "Partie results")
    first = pt[(pt["A"] == "greedy") & (pt["B"] == "max")].iloc[0]
    assert first["rubicon, either way (%)"] == R.fmt_pct_ci(ps["rubicon"])
    assert first["A's settlement (points/partie)"] == R.fmt_pts_ci(ps["a_settlement"], 1)


def test_exchange_policy_row_is_the_simulators_mean(built):
    _, _, parsed, _ = built
    rec = simulate(DEALS // 2, SEED, policies(resolve("greedy"), resolve("greedy")))
    elder = frame(parsed, "Elder:")
    own = elder[elder["elder takes k"].str.startswith("own policy")].iloc[0]
    m = float(CELL.match(own["elder's net (points/deal)"]).group(1))
    assert m == pytest.approx(rec[:, L.REC_NET].mean(), abs=0.006)
    assert len(frame(parsed, "Younger:")) == sum(8 - k for k in range(1, 6))


def test_sinking_section_with_a_study(built):
    _, html, parsed, _ = built
    table = frame(parsed, "Sinking study")
    assert list(table.columns) == ["choice", "hands", "mean_gain"]
    assert table.loc[0, "hands"] == "6"
    assert "not available" not in html.split('id="sinking"')[1]


def test_sinking_section_without_a_study(monkeypatch, tmp_path):
    fake_sinking(monkeypatch, available=False)
    table, reason = R.sinking_table(4, 1, DEFAULT_RULES, lambda line: None)
    assert table is None and "does not import" in reason
    name = "piquet_sim.piquet.sinking"
    monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    table, reason = R.sinking_table(4, 1, DEFAULT_RULES, lambda line: None)
    assert table is None and "offers none" in reason
    fake_sinking(monkeypatch, available=False)
    paths = R.build_report(tmp_path, 200, ["greedy", "random"], 1, DEFAULT_RULES, sink_hands=4)
    html = paths["html"].read_text(encoding="utf-8")
    assert "The sinking study is not available" in html.split('id="sinking"')[1]
    assert "The sinking study is not available" in paths["md"].read_text(encoding="utf-8")
    # without sink_hands the default report leaves the study out and says how to add it
    paths = R.build_report(tmp_path / "default", 200, ["greedy", "random"], 1, DEFAULT_RULES)
    section = paths["html"].read_text(encoding="utf-8").split('id="sinking"')[1]
    assert "Not run in this report" in section and "--sink-hands" in section


# ----------------------------------------------------------------------------- kernel


def _run_cells(cells, n, seed, rules=DEFAULT_RULES):
    from piquet_sim.piquet.kernels.bundles import make_env

    e = np.array([c[0] for c in cells], np.int64)
    y = np.array([c[1] for c in cells], np.int64)
    return KX.exchange_values(
        seed, 0, n, e, y, Policies().stages(), make_env(rules.to_array()), 3, 1
    )


def test_policy_cell_is_the_simulated_deal_and_forced_takes_are_exact():
    cells = R.exchange_cells(DEFAULT_RULES)
    rows = _run_cells(cells, 300, 11)
    rec = simulate(300, 11)
    assert (rows[:, 0, L.XV_NET] == rec[:, L.REC_NET]).all()
    assert (rows[:, 0, L.XV_E_TOOK] == rec[:, L.REC_ELDER + L.RF_TAKEN]).all()
    assert (rows[:, 0, L.XV_Y_TOOK] == rec[:, L.REC_YOUNGER + L.RF_TAKEN]).all()
    for c, (e, y) in enumerate(cells):
        if e >= 0:
            assert (rows[:, c, L.XV_E_TOOK] == e).all()
        if y >= 0:
            assert (rows[:, c, L.XV_Y_TOOK] == y).all()


def test_forced_discard_is_the_greedy_order():
    """Forcing k is the greedy policy clipped to exactly k cards."""
    rng = np.random.default_rng(5)
    params = Policies().arrays()[1][L.STAGE_ELDER_EXCHANGE]
    for _ in range(200):
        hand = 0
        for c in rng.choice(32, 12, replace=False):
            hand |= 1 << int(c)
        for k in range(0, 9):
            for younger in (0, 1):
                want, _ = _greedy_discard(np.int64(hand), k, k, younger, params, SUIT_TABLES)
                got = KX.lowest_discard(np.int64(hand), k, younger, params, SUIT_TABLES)
                assert got == want and bin(got).count("1") == k


def test_younger_may_pass_adds_the_zero_card_cells():
    cells = R.exchange_cells(Rules(younger_must_exchange=False))
    assert (1, 0) in cells and (5, 3) in cells
    rows = _run_cells([(2, 0)], 50, 2, Rules(younger_must_exchange=False))
    assert (rows[:, 0, L.XV_Y_TOOK] == 0).all()


def test_exchange_counts_merge_exactly():
    cells = R.exchange_cells(DEFAULT_RULES)
    whole = R.exchange_study(400, 9, Policies(), chunk=400)
    parts = R.exchange_study(400, 9, Policies(), chunk=150)
    assert whole.deals == parts.deals == 400
    assert (whole.sums == parts.sums).all() and (whole.cross == parts.cross).all()
    assert (whole.y_took == parts.y_took).all() and len(whole.cells) == len(cells)
    d = whole.diff(whole.cell(5, -1), whole.cell(4, -1))
    rows = _run_cells([(5, -1), (4, -1)], 400, 9)
    diff = rows[:, 0, L.XV_NET].astype(float) - rows[:, 1, L.XV_NET]
    assert d["mean"] == pytest.approx(diff.mean())
    assert d["se"] == pytest.approx(diff.std(ddof=1) / np.sqrt(400))


# ----------------------------------------------------------------------------- CLI


def test_cli_report_writes_files_and_rejects_bad_strategies(tmp_path, capsys, monkeypatch):
    from piquet_sim.cli import main

    fake_sinking(monkeypatch, available=False)
    with pytest.raises(SystemExit) as exc:
        main(
            [
                "report",
                "--out",
                str(tmp_path / "r"),
                "--deals",
                "200",
                "--strategies",
                "greedy,random",
                "--quiet",
            ]
        )
    assert exc.value.code == 0
    assert (tmp_path / "r" / "report.html").is_file()
    assert "report.html" in capsys.readouterr().out
    for bad in (["--strategies", "nosuch"], ["--strategies", "greedy"], ["--deals", "5"]):
        with pytest.raises(SystemExit) as exc:
            main(["report", "--out", str(tmp_path / "x"), *bad])
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith("piquet: error:") and err.count("\n") == 1


def test_sinking_rows_are_summarised_with_intervals():
    rows = pd.DataFrame(
        {
            "role": ["elder"] * 4 + ["younger"] * 2,
            "choice": ["sink sets"] * 4 + ["sink point"] * 2,
            "gain": [1.0, -1.0, 2.0, 0.0, -3.0, -1.0],
        }
    )
    t = R.sinking_summary(rows).set_index("seat")
    assert t.loc["elder", "hands"] == 4
    m, lo, hi = map(
        float, CELL.match(t.loc["elder", "gain over declaring all (points/deal)"]).groups()
    )
    assert m == pytest.approx(0.5) and lo < m < hi
    assert t.loc["younger", "hands where it beats declaring all (%)"].startswith("0.000 [")


# ----------------------------------------------------------------------------- polish, Ctrl-C


def test_p_values_print_as_the_cli_does(built):
    _, _, parsed, _ = built
    for v in frame(parsed, "Matches")["p-value"]:
        assert re.fullmatch(r"< 0\.0001|< 0\.001|0\.\d+|1(\.0)?", v), v
    assert R.p_cell(0.0) == "< 0.0001" and R.p_cell(1.7e-215) == "< 0.0001"
    assert R.p_cell(0.0312) == "0.031"


def test_text_columns_are_left_aligned_numbers_right(built):
    from piquet_sim.core.app.report import table_html, text_columns

    df = pd.DataFrame(
        {
            "strategy": ["greedy", "max"],
            "margin": ["+1.2 [+0.3, +2.1]", "n/a"],
            "p": ["< 0.0001", "0.03"],
        }
    )
    assert text_columns(df) == [True, False, False]
    html = table_html(df, "cap")
    assert '<th class="t">strategy</th><th>margin</th>' in html
    assert '<td class="t">greedy</td><td>+1.2 [+0.3, +2.1]</td>' in html
    _, page, _, _ = built
    assert '<td class="t">greedy</td>' in page  # the report's tables use it


@pytest.mark.parametrize("command_block", [True, False])
def test_ctrl_c_marks_the_study_in_flight_partial_and_skips_the_rest(
    tmp_path, monkeypatch, command_block
):
    """Also called from Python with no command's Ctrl-C block open (``command_block=False``):
    the report's cancel token, set by the run the Ctrl-C stopped, skips the later studies."""
    import contextlib
    import json
    import os
    import signal

    from piquet_sim.core.engine.backend import StopOnInterrupt

    real = R.exchange_chunk
    calls = []

    def chunk_then_ctrl_c(*args):
        calls.append(1)
        if len(calls) == 2:
            os.kill(os.getpid(), signal.SIGINT)
        return real(*args)

    from piquet_sim.piquet.report import exchange, studies

    monkeypatch.setattr(exchange, "exchange_chunk", chunk_then_ctrl_c)
    monkeypatch.setattr(studies, "exchange_study", _small_chunk_exchange_study(R.exchange_study))
    with StopOnInterrupt() if command_block else contextlib.nullcontext():
        paths = R.build_report(tmp_path, 400, ["greedy", "random"], 1, DEFAULT_RULES)
    data = json.loads(paths["json"].read_text())
    assert data["partial"] is True
    assert data["studies"]["value of exchanging k cards"] == "partial"
    assert data["studies"]["tournament"] == data["studies"]["parties"] == "not run"
    assert data["studies"]["odds, score distributions, event rates"] == "complete"
    # the first chunk (50) and the one in flight at the Ctrl-C (up to 50: a first chunk slowed
    # by compiling makes the next smaller) finished; nothing after
    assert 50 < data["exchange"]["deals"] <= 100
    html = paths["html"].read_text(encoding="utf-8")
    assert "This report is partial" in html
    assert "Not run: the report was interrupted" in html.split('id="tournament"')[1]
    assert "Not run: the report was interrupted" in html.split('id="parties"')[1]
    parsed = Tables()
    parsed.feed(html)
    assert parsed.sections == list(SECTIONS)  # every section is there, saying what happened


def test_a_cancelled_report_runs_no_study(tmp_path):
    """A caller's token set before the report starts: every study is "not run", the report
    is written and marked partial."""
    import json

    from piquet_sim.core.engine.backend import Cancel

    cancel = Cancel()
    cancel.set()
    paths = R.build_report(tmp_path, 400, ["greedy", "random"], 1, DEFAULT_RULES, cancel=cancel)
    data = json.loads(paths["json"].read_text())
    assert data["partial"] is True
    asked = {k: v for k, v in data["studies"].items() if v != "not requested"}  # sinking
    assert len(asked) >= 5 and set(asked.values()) == {"not run"}, data["studies"]


def _small_chunk_exchange_study(study):
    def run(
        deals,
        seed,
        pol,
        rules=DEFAULT_RULES,
        backend=None,
        chunk=50_000,
        progress=None,
        cancel=None,
    ):
        return study(deals, seed, pol, rules, backend, 50, progress, cancel)

    return run
