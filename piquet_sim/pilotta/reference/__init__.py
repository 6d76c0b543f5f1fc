"""Plain-Python reference versions of Pilotta's rules, for tests only (slow, obvious, no numba).

Nothing here imports ``piquet_sim.pilotta.kernels``: the code is written from the rules
(``docs/rules/pilotta.md``) directly, with its own rank orders and point tables, so comparing it
with the kernels checks both. Cards are indices 0..31 (suit * 8 + natural rank) and hands are
Python ints used as masks, as everywhere in the project.
"""
