"""Pilotta (Cypriot belote): declarations, legal play, round scoring, games to 351, an exact
double-dummy solver and combination odds, on the project's shared core. The rules implemented
are written down in ``docs/rules/pilotta.md``."""
