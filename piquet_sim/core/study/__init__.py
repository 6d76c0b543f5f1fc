"""Studies over any game: mirrored matches, tournaments, ladders, series of runs."""
