"""Every array layout the Pitch kernels share, defined once.

Each layout is an ``IntEnum`` whose members are slot indices (numba reads ``IntEnum`` members
as integer constants). A member ending in ``_LEN`` or named ``LEN`` is the row length; a slot
that starts a block of per-seat values (six slots, seat 0 first) says so in its comment.
Seats are numbered from the dealer's left: seat 0 bids and plays first in the auction, the
dealer is seat ``players - 1``.
"""

from __future__ import annotations

from enum import IntEnum

#: Slots per per-seat block (the largest table).
SEATS = 6
#: Cards per hand and tricks per round.
TRICKS = 6
#: Plays per round at most (six players, six tricks).
MAX_PLAYS = SEATS * TRICKS


class Point(IntEnum):
    """The six points of a round, in the rules' order (index of ``RoundRec.TAKER`` slots)."""

    HIGH = 0
    LOW = 1
    JACK = 2
    SIX = 3
    LAST = 4
    GAME = 5
    COUNT = 6


POINT_NAMES = tuple(p.name.lower() for p in Point if p is not Point.COUNT)

#: Bids: 0 is a pass, 3..6 a number of points.
BID_PASS = 0
BID_MIN = 3
BID_MAX = 6


class RoundRec(IntEnum):
    """One round, as written by ``kernels.simulate`` (int64 row). Seat-relative throughout."""

    PLAYERS = 0
    BIDDER = 1  # seat of the bidder
    BID = 2  # his bid, 3..6
    TRUMP = 3  # suit of the pitch, 0..3
    STOLE = 4  # 1 when the dealer took the contract at the highest bid
    MADE = 5  # 1 when the bidder took at least his bid
    TOTAL = 6  # points awarded in the round (4 to 6)
    HANDS = 7  # 6 slots: the dealt hands (masks), 0 for absent seats
    BIDS = 13  # 6 slots: each seat's call (0 pass, 3..6), -1 for absent seats
    TAKER = 19  # 6 slots, one per Point: seat that scored it, -1 for nobody
    POINTS = 25  # 6 slots: points taken per seat
    GAME_PTS = 31  # 6 slots: game points in each seat's tricks
    SCORE = 37  # 6 slots: round score per seat (the bidder +bid or -bid)
    LEN = 43


class TraceRec(IntEnum):
    """The play of one round, for differential tests (int64 row)."""

    PLAYS = 0  # 36 slots: cards in the order played (-1 after the last)
    LEGAL = 36  # 36 slots: the mask of legal cards offered at each play
    WINNERS = 72  # 6 slots: winner seat of each trick
    LEN = 78


class View(IntEnum):
    """What a player sees when he chooses a card (int64 row the play policies read)."""

    PLAYERS = 0
    SEAT = 1  # the player to move
    BIDDER = 2
    TRUMP = 3  # -1 before the pitch
    TRICK = 4  # tricks already played (0: the first)
    FIRST = 5  # first card of the current trick, -1 when he leads
    BEST = 6  # card winning the trick so far, -1 when he leads
    WSEAT = 7  # its player
    TMASK = 8  # cards in the trick so far
    IN_TRICK = 9  # how many
    PLAYED = 10  # cards played in earlier tricks
    LEN = 11


class Cand(IntEnum):
    """One candidate call of the bid advisor (int64 row)."""

    CALL = 0  # 0 pass, 3..6 a bid
    TRUMP = 1  # the suit the player pitches if he ends the bidder (-1: a pass)
    FORCED = 2  # 1: the auction stops here and he is the bidder (the per-suit study)
    LEN = 3


class AdviceRec(IntEnum):
    """The outcome of one candidate in one world, for the advising seat (int64 row)."""

    POINTS = 0  # points he took
    SCORE = 1  # his score change (as bidder: +bid or -bid)
    BIDDER = 2  # the round's bidder seat
    BID = 3  # the winning bid
    TAKEN = 4  # bit p set when he scored Point p
    SCORES = 5  # 6 slots: every seat's score change in the round (for P(winning the game))
    LEN = 11


class PlayCache(IntEnum):
    """One play-out kept for the other candidates of a world (int64 row): a candidate whose
    auction ends with the same bidder, pitch and stream position (and bid, for a play that
    weighs it: pimc's ``score``) plays the same cards."""

    BIDDER = 0
    TRUMP = 1  # the trump the bidder must pitch (-1: his choice)
    STATE = 2  # stream position when the play began
    TRUMP_OUT = 3  # the trump the play set
    TRICKS = 4  # 6 slots: each trick's cards (mask)
    WINNERS = 10  # 6 slots: each trick's winner
    BID = 16  # the bid when the play depends on it, else 0
    LEN = 17


class Pos(IntEnum):
    """A position of the play, as the search takes it (int64 row).

    Hands hold the cards not yet played; cards already played to the current trick are in
    ``TRICK`` (play order from the leader), not in the hands."""

    PLAYERS = 0
    LEADER = 1  # seat that leads (or led) the current trick
    BIDDER = 2  # the bidder's seat
    TRUMP = 3  # 0..3, or -1 before the pitch
    PITCH = 4  # 1 while the current trick is the first of the round (the bidder pitches)
    SCORE_HIGH_LOW = 5  # 1: count High and Low (to holders) once trump is known
    LOW_CARD = 6  # lowest trump in play (card index), -1 if unknown or already scored
    TRICK_COUNT = 7  # cards already played to the current trick
    TRICK = 8  # 6 slots: those cards, from the leader
    HANDS = 14  # 6 slots: cards in hand per seat (masks)
    GAME = 20  # 6 slots: game points taken so far per seat
    LEN = 26


class GameSlot(IntEnum):
    """A game to ``target`` (int64 row): players are fixed seats 0..n-1 of the table."""

    SCORES = 0  # 6 slots: running scores per player
    DEALER = 6  # player dealing the next round
    ROUNDS = 7  # rounds played
    WINNER = 8  # player who won the game, -1 while it goes on
    LEN = 9


class SearchStat(IntEnum):
    """Counters a search adds to (int64 row)."""

    NODES = 0
    TT_HITS = 1
    TT_STORES = 2
    CUTS = 3
    RESEARCHES = 4  # max^n: nodes searched again after a speculative cut
    LINE_READS = 5  # last two tricks valued from the line table (F_LINES)
    LINE_BUILDS = 6  # of which the lines were built first (not found in the line table)
    LEN = 7


class Frame(IntEnum):
    """One ply of the search's explicit stack (numba cannot cache recursive functions)."""

    SEAT = 0  # player to move
    K = 1  # cards already in the trick (0: he leads)
    FIRST = 2  # first card of the trick (-1 at a lead)
    BEST = 3  # card winning the trick so far (-1 at a lead)
    WSEAT = 4  # its player
    TMASK = 5  # cards in the trick so far
    TRUMP = 6  # trump suit, -1 before the pitch
    LOW = 7  # Low card still to be captured (capturer rule), else -1
    PITCH = 8  # 1 in the round's first trick
    GLIVE = 9  # 1 while Game is still undecided
    SMAX = 10  # most points still to be decided from here (sum over players)
    NMOVES = 11  # moves generated
    I = 12  # next move to try
    CUR = 13  # move being searched
    GAIN = 14  # points the move decided (packed per seat, or the bidder's in paranoid)
    GWIN = 15  # winner of the trick the move completed, -1 when it did not complete one
    GPTS = 16  # game points of that trick
    VAL = 17  # best value so far (packed vector; paranoid: scalar)
    VKEY = 18  # max^n: its preference key for the mover
    BMOVE = 19  # best move so far
    KEYA = 20  # table key (trick starts)
    KEYB = 21
    PQ = 22  # max^n: the parent's mover (shallow pruning)
    PB = 23  # max^n: that player's best so far at the parent, less the move's gain
    CUT = 24  # max^n: 1 when the node was cut (its value is not exact)
    ALPHA = 25  # paranoid window
    BETA = 26
    A0 = 27  # paranoid window after the table narrowed it (what a stored bound is against)
    B0 = 28
    CLOSED = 29  # 1 when the move completed the next-to-last trick and the last was scored
    UB = 30  # most points each seat can still take from here (packed per seat)
    LB = 31  # points each seat takes whatever anyone plays (packed per seat)
    PBB = 32  # max^n: the bidder's points in the parent's best so far, less the move's gain
    PTIE = 33  # max^n, static-order ties: 1 when the parent's mover keeps his best on a tie
    KMAX = 34  # max^n, static-order ties: moves after this static key cannot win (255: any)
    SPEC = 35  # max^n: 1 when a child was cut speculatively (its value not taken)
    NOSPEC = 36  # max^n: 1 while searched again: no child may cut speculatively against it
    XCUT = 37  # max^n: 1 when the node was cut speculatively (the parent ignores its value)
    LEN = 38


class TTWord(IntEnum):
    """One table entry (int64 words; two entries per 64-byte bucket)."""

    KEYA = 0  # cards still in hand, leader, trump, Game live, mode
    KEYB = 1  # normalised game-point totals (when Game is live), generation
    DATA = 2  # max^n: packed upper | lower bound vectors | best move; paranoid: bounds | move
    DEPTH = 3  # tricks left when stored
    LEN = 4


class Ctx(IntEnum):
    """Constants of one search (int64 row in the workspace)."""

    PLAYERS = 0
    BIDDER = 1
    MUST_FOLLOW = 2
    LOW_CAPT = 3  # Low to the capturer
    TIE_BIDDER = 4  # a tie for Game to the bidder if among the tied
    GEN = 5  # table generation of the deal
    FLAGS = 6  # search techniques switched on (kernels.search_node.F_*)
    PARANOID = 7  # 1 in the paranoid search (closed endgames give the bidder's points)
    NODE_LIMIT = 8  # stop the search (value -1) after this many nodes; 0: no limit
    LEN = 9


class Endgame(IntEnum):
    """One player's turn in the first of the last two tricks (``kernels.search_node``)."""

    SEAT = 0
    OPT = 1  # 2 slots: his legal cards
    NOPT = 3
    PICK = 4  # next option to try
    CUR = 5  # card being tried
    BEST = 6  # trick state before his card: winning card, its player, the trick's cards
    WSEAT = 7
    TMASK = 8
    FIRST = 9
    VAL = 10  # best outcome so far (packed; paranoid: the bidder's points)
    VKEY = 11
    LEN = 12


class OddsSlot(IntEnum):
    """Event counts over deals (``kernels.odds``); seat 0 is "me", one suit is watched."""

    DEALS = 0
    JACK_IN_PLAY = 1
    SIX_IN_PLAY = 2
    I_HOLD_TOP = 3  # my hand holds the suit's highest card in play
    SUIT_IN_PLAY = 4  # 14 slots: cards of the suit in play, 0..13
    MY_COUNT = 18  # 7 slots: cards of the suit in my hand, 0..6
    HOLD_HIGH = 25  # 5 slots: I hold the ten, jack, queen, king, ace of the suit
    IS_HIGH = 30  # 5 slots: ... and it is the highest card of the suit in play
    HOLD_LOW = 35  # 3 slots: I hold the two, three, four of the suit
    IS_LOW = 38  # 3 slots: ... and it is the lowest card of the suit in play
    LEN = 41
