"""The core's keeper of solver workspaces: one per key, the factory's defaults filled in, kept
until dropped, safe to call from the threads of a parallel search."""

from concurrent.futures import ThreadPoolExecutor

import pytest

from piquet_sim.core.engine.workspaces import KeptWorkspaces


def _counting_keeper():
    made = []

    def make(rules="default", slot=0):
        made.append((rules, slot))
        return {"rules": rules, "slot": slot}

    return KeptWorkspaces(make), made


def test_a_key_made_once_and_kept():
    workspace, made = _counting_keeper()
    first = workspace("a", 1)
    assert workspace("a", 1) is first
    assert workspace(rules="a", slot=1) is first
    assert made == [("a", 1)]


def test_defaults_filled_in_so_spellings_of_one_key_share_a_table():
    workspace, made = _counting_keeper()
    assert workspace() is workspace("default") is workspace("default", 0) is workspace(slot=0)
    assert made == [("default", 0)]


def test_an_argument_the_factory_ignores_still_tells_tables_apart():
    workspace = KeptWorkspaces(lambda slot=0: object())
    assert workspace(0) is not workspace(1)
    assert len(workspace) == 2


def test_drop_forgets_and_returns_the_workspace():
    workspace, made = _counting_keeper()
    first = workspace()
    assert workspace.drop() is first
    assert workspace.drop() is None
    assert workspace() is not first
    assert len(made) == 2


def test_arguments_the_factory_does_not_take_are_refused():
    workspace, _ = _counting_keeper()
    with pytest.raises(TypeError):
        workspace("a", 1, 2)


def test_threads_asking_for_one_key_get_one_workspace():
    workspace, made = _counting_keeper()
    with ThreadPoolExecutor(8) as pool:
        got = list(pool.map(lambda _: workspace("x", 3), range(64)))
    assert all(w is got[0] for w in got)
    assert made == [("x", 3)]
