"""Cold first-run CPU seconds of each command's help example, as last measured: command ->
(CPU seconds, processes it compiles on). Written by ``scripts/compile_profile.py --docs``
(the table in ``docs/benchmarks.md`` gives the load and date); read by the compile notice."""

COLD: dict[str, tuple[float, int]] = {}
