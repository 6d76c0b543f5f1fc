"""Every integer record layout Pilotta's kernels share, defined once (the rules array's slots
are ``rules.RuleSlot``, generated from the rules rows).

Each layout is an ``IntEnum`` (numba reads the members as compile-time integers); ``LEN`` is the
record length. Names are qualified by their layout (``RoundRec.BID``, ``Score.BID_NS``), so two
layouts can never collide. Perspective is in the field name: ``_NS``/``_EW`` are teams,
``_C``/``_D`` the contracting and defending teams, seats are 0 N, 1 E, 2 S, 3 W.
"""

from __future__ import annotations

from enum import IntEnum


class Decl(IntEnum):
    """One seat's declarations (``declare_hand``), points in card-point units (a tierce is 20)."""

    BEST_KEY = 0  # comparison key of the seat's best combination (0: none); higher is better
    POINTS = 1  # all its combinations together (pilotta excluded)
    N_SEQ3 = 2  # sequences of exactly 3 cards
    N_SEQ4 = 3  # of exactly 4
    N_SEQ5 = 4  # of 5 or more
    FOURS = 5  # bit r set: four cards of rank r (natural rank, 7 = ace)
    PILOTTA = 6  # 1: holds the king and queen of trumps
    LEN = 7


class Comb(IntEnum):
    """The comparison of the four seats' declarations (``compare_declarations``)."""

    TEAM = 0  # team scoring its combinations: 0 NS, 1 EW, -1 nobody
    SEAT = 1  # seat holding the best combination (-1 none)
    POINTS_NS = 2  # combination points scored by NS (0 unless TEAM is 0)
    POINTS_EW = 3
    PILOTTA_SEAT = 4  # seat holding K+Q of trumps (-1 none)
    LEN = 5


class Score(IntEnum):
    """A scored round (``score_round``). ``CARD_*``: step 1 (card points with the last trick,
    250 for a capot); ``FINAL_*``: the same after a failed contract gives everything away;
    ``*_GP_*``: game points."""

    CARD_NS = 0
    CARD_EW = 1
    CAPOT_TEAM = 2  # team that took all eight tricks (-1 none)
    MADE = 3  # 1: contract made
    FINAL_NS = 4
    FINAL_EW = 5
    CARD_GP_NS = 6  # FINAL_* with the last digit dropped (and the rounding point)
    CARD_GP_EW = 7
    BID_GP_NS = 8  # the bid (bid / 10, capot 25)
    BID_GP_EW = 9
    COMB_GP_NS = 10  # combinations / 10
    COMB_GP_EW = 11
    PILOTTA_GP_NS = 12  # 2 for the pilotta
    PILOTTA_GP_EW = 13
    TOTAL_NS = 14  # game points of the round
    TOTAL_EW = 15
    LEN = 16


class Auction(IntEnum):
    """The result of an auction (``run_auction``)."""

    BIDDER = 0  # seat of the highest bidder (-1: all four passed, cards thrown in)
    BID = 1  # points 80..160, or BID_CAPOT
    TRUMP = 2  # suit 0..3 (-1 when thrown in)
    N_CALLS = 3  # calls made (passes and bids)
    LEN = 4


class RoundRec(IntEnum):
    """One simulated round (``simulate_round``): deal, auction, declarations, play, score.
    The 32 cards in playing order are a separate int8 row (card index per play)."""

    DEALER = 0
    HAND_N = 1  # the dealt hands (masks)
    HAND_E = 2
    HAND_S = 3
    HAND_W = 4
    BIDDER = 5  # -1: thrown in (nothing else is filled)
    BID = 6
    TRUMP = 7
    FIRST_LEADER = 8
    DECL_TEAM = 9  # Comb.TEAM
    DECL_NS = 10  # combination points scored by each team (card-point units)
    DECL_EW = 11
    PILOTTA_SEAT = 12
    TRICKS_NS = 13
    RAW_NS = 14  # card points won in play by NS, last trick included (before capot)
    RAW_EW = 15
    LEGAL_SUM = 16  # sum over the 32 plays of the number of legal cards (a cheap checksum)
    SCORE = 17  # Score fields follow from here
    LEN = 17 + Score.LEN


class Setup(IntEnum):
    """How simulated rounds are played (int64 array): each team's auction and play policy ids
    and its auction parameters (ids and parameters: :data:`policies.REGISTRY`)."""

    AUCTION_NS = 0  # auction policy id of North and South
    AUCTION_EW = 1  # of East and West
    PLAY_NS = 2  # play policy id of North and South
    PLAY_EW = 3  # of East and West
    PARAMS_NS = 4  # N_AUCTION_PARAMS auction parameters of NS from here
    PARAMS_EW = 12  # and of EW
    WORLDS_NS = 20  # worlds per decision of the pimc play policy, NS
    WORLDS_EW = 21
    DECLARE_NS = 22  # declaration policy id of North and South
    DECLARE_EW = 23
    LEN = 24


class BidParam(IntEnum):
    """Parameters of the ``threshold`` auction policy (card-point units). The seat's estimate of
    its team's round points with trump t is BASE + its trump card points + TRUMP_LEN per trump
    + ACE per side ace + TEN per side ten + its own combinations + 20 for the pilotta in t, + RAISE
    when its partner has bid t."""

    BASE = 0
    TRUMP_LEN = 1
    ACE = 2
    TEN = 3
    MARGIN = 4  # the estimate must reach the bid + MARGIN
    RAISE = 5
    CAPOT = 6  # estimate at which it bids the capot (0: never)
    LEN = 7


class AdvParam(IntEnum):
    """Parameters of the ``advisor`` auction policy (the bid advisor's recommended call)."""

    WORLDS = 0  # worlds sampled per call (consistent with the auction under the threshold prior)
    REBID = 1  # 1: in the worlds the seat bids on after its call as the prior does (0: passes)
    Z100 = 2  # a bid must gain over the pass by Z100 / 100 standard errors (0: the best mean)
    JUMPS = 3  # bids considered: at most JUMPS levels above the lowest
    LEN = 4


class MCParam(IntEnum):
    """Parameters of the ``montecarlo`` auction policy."""

    WORLDS = 0  # worlds sampled per call
    MARGIN = 1  # card-point units: the mean reach must reach the bid + MARGIN
    LEN = 2


class AState(IntEnum):
    """An auction in progress (int64 array; ``kernels.auction``)."""

    DEALER = 0
    LEVEL = 1  # last bid level 0..9 (-1: none)
    BIDDER = 2  # its seat (-1)
    TRUMP = 3  # its suit (-1)
    PASSES = 4  # passes since the last bid (or from the start)
    CALLS = 5  # calls made
    PASSED = 6  # bit p: seat p has passed at least once
    DONE = 7  # 1: the auction is over
    SUIT_N = 8  # last suit bid by each seat (-1: none), N E S W
    LOG = 12  # the calls in order, MAX_CALLS slots: -1 a pass, 4 * level + suit a bid
    LEN = 12 + 48


class View(IntEnum):
    """What a play policy sees besides its hand and its legal cards (int64 array)."""

    SEAT = 0
    POS = 1  # cards already in the trick (0..3)
    LED = 2  # suit led (-1 at a trick start)
    TOP_TRUMP = 3  # trump strength of the highest trump in the trick (-1 none)
    WIN_POWER = 4  # power of the winning card (-1 none)
    WIN_SEAT = 5  # seat winning the trick so far
    PLAYED = 6  # mask of every card played so far, the current trick included
    VOIDS = 7  # bit 4 * seat + suit: that seat has shown it holds no card of that suit
    C_TEAM = 8  # contracting team
    TRUMP = 9
    KQ = 10  # 1: trump K 3, Q 2
    LEN = 11


class Pub(IntEnum):
    """What the table knows during the play besides :class:`View` (int64 array; the pimc
    player's sampler): the cards each seat showed when declaring, the cards each seat has
    played, the points each seat announced, the current trick."""

    SHOWN = 0  # 4 masks, N E S W: cards shown in declared combinations
    GONE = 4  # 4 masks: cards played by each seat (the current trick included)
    ANNOUNCED = 8  # 4 counts: combination points declared by each seat
    TRICK = 12  # 3 cards of the current trick in playing order (natural index)
    LEADER = 15  # seat that led the current trick
    CAPOT = 16  # 1: the contracting team has won every trick so far
    LEN = 17


class Game(IntEnum):
    """The state of a game to the target (``game_reset`` / ``game_add``)."""

    NS = 0  # game points so far
    EW = 1
    ROUNDS = 2  # rounds dealt, thrown-in ones included
    DEALER = 3  # dealer of the next round
    DONE = 4  # 1 when the game is over
    WINNER = 5  # team that won (-1 while playing)
    LEN = 6


class OddsScope(IntEnum):
    """Whose cards an odds counter looks at: North's hand, North-South, or all four hands."""

    HAND = 0
    TEAM = 1
    TABLE = 2
    LEN = 3


class OddsBin(IntEnum):
    """Counters of one scope (``odds_batch``): deals in which the scope holds ... Counter
    ``scope * OddsBin.LEN + bin``."""

    SEQ = 0  # 0..3: longest sequence in one hand: none, 3, 4, 5 or more cards
    FOUR = 4  # 4..11: a four of natural rank r (4 + r; sevens and eights never count)
    ANY_FOUR = 12  # a four of any counting rank
    PILOTTA = 13  # the K and Q of the named trump in one hand
    TRUMPS = 14  # 14..22: trumps held: hand and team their number, table the most in one hand
    LEN = 32


class SolverPos(IntEnum):
    """A position for the double-dummy solver besides its hands and trick (int64 array)."""

    LEADER = 0  # seat leading the current trick
    PLAYED = 1  # cards already in the current trick (0..3)
    TEAM = 2  # contracting team (0 NS, 1 EW)
    CAPOT = 3  # 1: the contracting team has won every trick of the round so far
    KQ = 4  # 1: trump K 3, Q 2
    PLAY = 5  # the options deciding legal cards (kernels.tricks.play_code): 0 by default
    CAPOT_252 = 6  # 1: a capot is worth 252 (capot_points; 0: 250)
    LEN = 7


class SolverStat(IntEnum):
    """The solver's counters (``ws.stats``)."""

    NODES = 0  # nodes entered
    TT_CUTS = 1  # trick starts settled by the table
    BOUND_CUTS = 2  # trick starts settled by the bounds
    SEARCHES = 3  # null-window searches
    LEN = 4


class Frame(IntEnum):
    """One node of the solver's explicit search stack (int64 row per depth)."""

    SEAT = 0  # seat to play
    POS = 1  # cards in the trick before this node's move
    WSEAT = 2  # seat winning the trick so far (-1 at a trick start)
    WCARD = 3  # its card
    TPTS = 4  # card points in the trick so far
    OUT = 5  # mask of the cards in the trick so far
    LED = 6  # internal suit led (-1 at a trick start)
    CAPOT = 7
    NLEFT = 8  # tricks left, the current one included
    R = 9  # card points still in the hands
    A = 10  # window
    B = 11
    A0 = 12  # the window after the table narrowed it (what stored bounds are flagged against)
    B0 = 13
    BEST = 14
    BM = 15  # best move
    N = 16  # moves generated
    I = 17  # next move to try  # noqa: E741
    CARD = 18  # move being searched
    ADD = 19  # points credited between this node and the child being searched
    MAX = 20  # 1: the contracting team moves
    K1 = 21  # table key (trick starts)
    K2 = 22
    LEN = 23


#: The capot bid (above 160) in card points, and its worth in game points.
BID_CAPOT = 250
BID_CAPOT_GP = 25
BIDS = (80, 90, 100, 110, 120, 130, 140, 150, 160, BID_CAPOT)

# Record lengths as plain ints: numba takes IntEnum members as indices but not as array shapes.
DECL_LEN = int(Decl.LEN)
COMB_LEN = int(Comb.LEN)
SCORE_LEN = int(Score.LEN)
AUCTION_LEN = int(Auction.LEN)
ROUND_LEN = int(RoundRec.LEN)
SETUP_LEN = int(Setup.LEN)
N_AUCTION_PARAMS = 8  # parameter slots per team in a Setup
ASTATE_LEN = int(AState.LEN)
MAX_CALLS = ASTATE_LEN - int(AState.LOG)  # calls an auction can log (at most 37 are made)
VIEW_LEN = int(View.LEN)
PUB_LEN = int(Pub.LEN)
GAME_LEN = int(Game.LEN)
ODDS_LEN = int(OddsScope.LEN) * int(OddsBin.LEN)
POS_LEN = int(SolverPos.LEN)
STAT_LEN = int(SolverStat.LEN)
FRAME_LEN = int(Frame.LEN)
