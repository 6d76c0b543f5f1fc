"""A toy game defined only through the core's game definition: two players, a 16-card pack
(ten to king in four suits), four cards each and eight never dealt, four tricks, follow suit,
a trick to the higher card of the suit led. Plain Python throughout (no kernels): its state,
record grammar, players, card values (every world solved by a small minimax) and review plan
are the hooks; the core serves it ``play``, ``review``, the studies and an OpenSpiel game."""
