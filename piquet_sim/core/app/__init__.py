"""The application layer: click commands, rich tables, plots, reports, benchmarks (the only
core layer that imports click or rich)."""
