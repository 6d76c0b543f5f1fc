"""`piquet ladder` says it is compiling its kernels on a cold cache (and only then)."""

from __future__ import annotations


def test_a_cold_ladder_with_the_solver_says_it_is_compiling(run_main, monkeypatch):
    """`piquet ladder` with a solver policy compiled for about 52 s and printed nothing."""
    from piquet_sim.core.app import cli as core_cli
    from piquet_sim.core.app import compile as compile_module
    from piquet_sim.piquet import ladder as LD

    asked = []

    def cold(*dispatchers):
        asked.extend(dispatchers)
        return True

    def ladder(*args, **kwargs):
        raise KeyboardInterrupt  # the notice is all this test needs

    monkeypatch.setattr(compile_module, "kernels_cold", cold)  # the notice reads it there
    monkeypatch.setattr(LD, "ladder", ladder)
    code, _, err = run_main("ladder", "--policies", "heuristic,pimc", "--solver-deals", "10")
    assert code == 130 and core_cli.COMPILING in err
    assert {getattr(d, "__name__", "") for d in asked} == {"mirrored_deals"}
