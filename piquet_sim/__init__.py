"""piquet_sim: exact and Monte Carlo analysis for the card game Piquet."""

__version__ = "0.1.0"
