"""The Rules object (every option of the spec, declared as rows), its array form, the options
table of the rules document, the CLI options, and the record layouts."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from piquet_sim.core.engine.errors import InputError
from piquet_sim.core.game.spec import DOC_END, DOC_START, RULES_DTYPE
from piquet_sim.pilotta import layouts
from piquet_sim.pilotta.rules import (
    PRESETS,
    SET_ONLY_IN_JSON,
    SPEC,
    Rules,
    RulesError,
    RuleSlot,
    preset,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules" / "pilotta.md"


def test_defaults_follow_the_spec():
    r = Rules()
    assert r.trump_kq_points == (4, 3) and r.total_points == 162
    assert not r.pass_is_final and r.equal_declarations == "first_in_order"
    assert r.first_lead == "contractor" and not r.partner_exemption
    assert not r.contract_on_card_points_only and r.failed_contract_loses_declarations
    assert r.game_target == 351


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(
            trump_kq_points=(3, 2),
            pass_is_final=True,
            equal_declarations="nobody",
            first_lead="after_dealer",
            partner_exemption=True,
            contract_on_card_points_only=True,
            failed_contract_loses_declarations=False,
            game_target=501,
        ),
    ],
)
def test_array_round_trip(rules):
    assert Rules.from_array(rules.to_array()) == rules


@pytest.mark.parametrize(
    "kwargs",
    [
        {"trump_kq_points": (4, 4)},
        {"equal_declarations": "both"},
        {"first_lead": "dealer"},
        {"partner_exemption": 1},
        {"partner_exemption": "sometimes"},
        {"under_trump": "never"},
        {"capot_points": 251},
        {"game_target": 0},
    ],
)
def test_bad_options_raise_an_input_error(kwargs):
    with pytest.raises(RulesError) as info:
        Rules(**kwargs)
    assert isinstance(info.value, InputError)


def test_bad_array_raises():
    arr = Rules().to_array()
    arr[RuleSlot.PARTNER_EXEMPTION] = 3
    with pytest.raises(RulesError):
        Rules.from_array(arr)
    with pytest.raises(RulesError):
        Rules.from_array(np.zeros(3, dtype=np.int32))


def test_literal_kq_total_is_160():
    assert Rules(trump_kq_points=(3, 2)).total_points == 160


def test_layouts_have_unique_fields_and_lengths():
    names = ("Decl", "Comb", "Score", "Auction", "RoundRec", "Game", "OddsScope", "View")
    for name in names:
        cls = getattr(layouts, name)
        members = [m for m in cls.__members__.values() if m.name != "LEN"]
        # an IntEnum silently aliases equal values: every name must be its own member
        assert len(cls.__members__) == len(list(cls)), name
        assert sorted(int(m) for m in members) == list(range(len(members))) or name == "RoundRec"
        assert int(cls.LEN) == max(int(m) for m in members) + 1 or name == "RoundRec"
    # layouts with blocks: each block fits before the next field
    s = layouts.Setup
    assert s.PARAMS_EW - s.PARAMS_NS == layouts.N_AUCTION_PARAMS
    assert s.WORLDS_NS == s.PARAMS_EW + layouts.N_AUCTION_PARAMS and s.PLAY_EW < s.PARAMS_NS
    assert s.LEN == s.DECLARE_EW + 1
    pub = layouts.Pub
    assert pub.GONE == pub.SHOWN + 4 and pub.ANNOUNCED == pub.GONE + 4
    assert pub.LEADER == pub.TRICK + 3 and pub.LEN == pub.CAPOT + 1
    a = layouts.AState
    assert a.LOG == a.SUIT_N + 4 and sorted(int(m) for m in a)[:-2] == list(range(9))
    assert a.LEN == a.LOG + layouts.MAX_CALLS
    rr = layouts.RoundRec
    assert int(rr.LEN) == int(rr.SCORE) + int(layouts.Score.LEN)


def test_array_is_int64_with_the_former_slots():
    """The rows keep the slot order and numbers of the former int32 array, so a stored array
    means the same rules (slot: 0 trump K/Q (1: 3,2), 1 pass final, 2 equal declarations
    (1: nobody), 3 first lead (1: after the dealer), 4 exemption (1 always; 2 plain-suit leads
    is new), 5 card points only, 6 failed contract loses declarations, 7 game target); the
    Belote Contree options follow (8 under-trumping optional, 9 capot 252)."""
    assert [int(s) for s in RuleSlot] == list(range(11)) and RuleSlot.LEN == len(SPEC) == 10
    every = Rules(
        trump_kq_points=(3, 2),
        pass_is_final=True,
        equal_declarations="nobody",
        first_lead="after_dealer",
        partner_exemption=True,
        contract_on_card_points_only=True,
        failed_contract_loses_declarations=False,
        game_target=501,
    )
    assert every.to_array().dtype == RULES_DTYPE == np.int64
    assert every.to_array().tolist() == [1, 1, 1, 1, 1, 1, 0, 501, 0, 0]
    assert Rules().to_array().tolist() == [0, 0, 0, 0, 0, 0, 1, 351, 0, 0]
    assert (
        Rules.from_array(np.array([1, 0, 0, 0, 0, 0, 1, 351, 0, 0], dtype=np.int32)).total_points
        == 160
    )
    contree = every.replace(
        partner_exemption="plain_leads", under_trump="optional", capot_points=252
    )
    assert contree.to_array().tolist() == [1, 1, 1, 1, 2, 1, 0, 501, 1, 1]


def test_exemption_keeps_its_bool_spellings():
    """partner_exemption was a bool: True and False (and JSON true/false) still mean always
    and never, the names are taken too, and a number is refused (1 is not True)."""
    assert Rules(partner_exemption=True) == Rules(partner_exemption="always")
    assert Rules(partner_exemption="never") == Rules() and not Rules().partner_exemption
    assert Rules(partner_exemption=np.bool_(True)).partner_exemption is True
    assert Rules.from_dict({"partner_exemption": True}).to_dict()["partner_exemption"] is True
    assert Rules(partner_exemption="plain_leads").to_array()[RuleSlot.PARTNER_EXEMPTION] == 2
    with pytest.raises(RulesError, match="never, always, plain_leads"):
        Rules(partner_exemption=2)


def test_contree_options_appear_in_json_only_when_set():
    """Outputs under Pilotta's rules keep their former rules dict (the golden outputs); a
    setting of the Belote Contree options is shown, and every dict reads back."""
    assert set(Rules().to_dict()) == set(SPEC.by_name) - set(SET_ONLY_IN_JSON)
    contree = preset("contree")
    shown = contree.to_dict()
    assert shown["under_trump"] == "optional" and shown["capot_points"] == 252
    assert shown["partner_exemption"] == "plain_leads" and shown["first_lead"] == "after_dealer"
    assert Rules.from_dict(shown) == contree and Rules.from_dict(Rules().to_dict()) == Rules()


def test_presets():
    assert preset("pilotta") == Rules()
    assert preset("contree", capot_points=250).capot_points == 250
    assert set(PRESETS) == {"pilotta", "contree"}
    for values in PRESETS.values():
        assert set(values) <= set(SPEC.by_name)
    with pytest.raises(RulesError, match="unknown rules preset"):
        preset("belote")


def test_rules_document_shows_the_generated_table():
    text = DOC.read_text(encoding="utf-8")
    shown = text[text.index(DOC_START) + len(DOC_START) : text.index(DOC_END)].strip()
    assert shown == SPEC.markdown_table().strip()


@pytest.mark.parametrize(
    "command, game",
    [
        ("hand", False),
        ("solve", False),
        ("batch", False),
        ("tournament", False),
        ("game", True),
        ("bid", True),
        ("report", True),
    ],
)
def test_every_playing_command_offers_every_rules_option(run_main, command, game):
    code, out, _ = run_main("pilotta", command, "--help")
    assert code == 0
    for option in SPEC.options:
        flag = option.cli_flag().split("/")[0]
        if command == "game" and flag == "--game-target":
            flag = "--target"  # the study commands' one spelling in every game
        assert (flag in out) == (option.scope == "deal" or game), (command, flag)


def test_rules_options_reach_the_command(run_main):
    """A rules option given on the command line is the one the command plays under."""
    import json

    code, out, err = run_main(
        "pilotta",
        "game",
        "bold",
        "heuristic",
        "-n",
        "20",
        "--game-target",
        "151",
        "--pass-is-final",
        "--first-lead",
        "after_dealer",
        "--json",
    )
    assert code == 0, err
    assert json.loads(out)["target"] == 151
    code, out, err = run_main(
        "pilotta",
        "batch",
        "bold",
        "cautious",
        "-n",
        "50",
        "--equal-declarations",
        "nobody",
        "--no-failed-contract-loses-declarations",
        "--trump-kq",
        "3,2",
        "--json",
    )
    rules = json.loads(out)["rules"]
    assert code == 0 and rules["equal_declarations"] == "nobody"
    assert rules["trump_kq_points"] == [3, 2] and not rules["failed_contract_loses_declarations"]
    code, _, err = run_main("pilotta", "game", "bold", "heuristic", "--game-target", "0")
    assert code == 2 and err.count("\n") == 1 and "game-target" in err


@pytest.mark.parametrize(
    "args, want",
    [
        ((), Rules()),
        (("--partner-exemption",), Rules(partner_exemption=True)),
        (("--partner-exemption", "plain_leads"), Rules(partner_exemption="plain_leads")),
        (("--no-partner-exemption",), Rules()),
        (("--preset", "contree"), preset("contree")),
        (
            ("--preset", "contree", "--capot-points", "250", "--no-partner-exemption"),
            preset("contree", capot_points=250, partner_exemption=False),
        ),
        (
            ("--under-trump", "optional", "--trump-kq", "3,2"),
            Rules(under_trump="optional", trump_kq_points=(3, 2)),
        ),
    ],
)
def test_preset_and_exemption_spellings_on_the_command_line(args, want):
    """--preset sets the options not typed; --partner-exemption alone is always (its former
    flag), --no-partner-exemption never."""
    import click
    from click.testing import CliRunner

    from piquet_sim.core.app.rules_cli import rules_options

    @click.command()
    @rules_options(Rules, ("deal",))
    def cmd(rules):
        click.echo(repr(rules))

    result = CliRunner().invoke(cmd, list(args))
    assert result.exit_code == 0, result.output
    assert result.output.strip() == repr(want)
    bad = CliRunner().invoke(cmd, ["--partner-exemption", "always", "--no-partner-exemption"])
    assert bad.exit_code == 2
