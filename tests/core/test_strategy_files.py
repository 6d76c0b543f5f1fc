"""The core's strategy-file reader and name resolver (used by Pitch and Pilotta): a table
from JSON or TOML, one-line errors of the caller's error class, built-ins before files."""

from __future__ import annotations

import pytest

from piquet_sim.core.engine.errors import InputError
from piquet_sim.core.game.strategy_files import read_table, resolve


class Oops(InputError):
    pass


def test_reads_json_and_toml_tables(tmp_path):
    (tmp_path / "a.json").write_text('{"name": "a", "bid": {"policy": "x"}}')
    (tmp_path / "b.TOML").write_text('name = "b"\n[bid]\npolicy = "y"\n')
    assert read_table(tmp_path / "a.json") == {"name": "a", "bid": {"policy": "x"}}
    assert read_table(tmp_path / "b.TOML") == {"name": "b", "bid": {"policy": "y"}}


@pytest.mark.parametrize(
    "name, text, message",
    [
        ("missing.toml", None, "no such file"),
        ("bad.json", "{", "not valid JSON"),
        ("bad.toml", "name = ", "not valid TOML"),
        ("list.json", "[1, 2]", "expected a table"),
        ("s.yaml", "name: s", "ends in .json or .toml"),
    ],
)
def test_errors_are_one_line_of_the_callers_class(tmp_path, name, text, message):
    if text is not None:
        (tmp_path / name).write_text(text)
    with pytest.raises(Oops, match=message) as info:
        read_table(tmp_path / name, Oops)
    assert "\n" not in str(info.value)


def test_resolve_prefers_built_ins_then_files(tmp_path):
    registry = {"plain": 1, "x.json": 2}
    loaded = []

    def load(path):
        loaded.append(path)
        return 3

    assert resolve("plain", registry, load) == 1
    assert resolve("x.json", registry, load) == 2 and not loaded  # a built-in wins
    assert resolve("my.toml", registry, load, Oops) == 3 and loaded == ["my.toml"]
    (tmp_path / "noext").write_text("{}")
    assert resolve(str(tmp_path / "noext"), registry, load) == 3  # an existing path
    with pytest.raises(Oops, match="unknown strategy 'nope'.*plain, x.json"):
        resolve("nope", registry, load, Oops)
