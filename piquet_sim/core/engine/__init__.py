"""The engine: cards, masks, random streams, statistics, backends, jit helpers (no game, no
UI)."""
