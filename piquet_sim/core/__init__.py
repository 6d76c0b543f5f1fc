"""Game-independent core: cards and packs, random streams and dealing, bit helpers, statistics
and racing, chunk backends, plotting and report rendering, CLI plumbing. It imports no game."""
