"""Every array layout Piquet's kernels read or write, defined once, with a prefix per layout.

Kernels, the API and the tests refer to these as ``NAME`` (``from . import layouts as L``), so
a name says which layout it indexes and two layouts can never share one (a test holds every name
of this module unique and every layout's fields distinct and dense).

Perspective: "elder" and "younger" are the two seats of a deal; a net is elder minus younger
unless a layout says otherwise.
"""

from __future__ import annotations

# The rules array's slots are rules.RuleSlot (from the rules rows, piquet/rules.py).

# ---------------------------------------------------------------- STAGE_: stage policies
# Rows of the (ids int32[STAGE_LEN], params float64[STAGE_LEN, STAGE_PARAMS]) a deal is driven by.
STAGE_ELDER_EXCHANGE = 0
STAGE_YOUNGER_EXCHANGE = 1
STAGE_ELDER_DECLARE = 2
STAGE_YOUNGER_DECLARE = 3
STAGE_ELDER_PLAY = 4
STAGE_YOUNGER_PLAY = 5
STAGE_LEN = 6
STAGE_PARAMS = 16

# ---------------------------------------------------------------- DECL_ / DP_: declarations
# score_declarations writes a block of DP_BLOCK points per player (at DECL_ELDER, DECL_YOUNGER),
# then the class winners (WIN_* codes).
DP_CARTE_BLANCHE = 0
DP_POINT = 1
DP_SEQUENCE = 2
DP_SETS = 3
DP_CARTE_ROUGE = 4
DP_REPIQUE = 5
DP_BLOCK = 6
DECL_ELDER = 0
DECL_YOUNGER = DP_BLOCK
DECL_WIN_POINT = 2 * DP_BLOCK
DECL_WIN_SEQUENCE = DECL_WIN_POINT + 1
DECL_WIN_SETS = DECL_WIN_POINT + 2
DECL_LEN = DECL_WIN_SETS + 1

# WIN_: who scores a class
WIN_NONE = 0  # neither player declared anything in the class
WIN_ELDER = 1
WIN_YOUNGER = 2
WIN_EQUAL = 3  # both declared, equal: nobody scores

# ---------------------------------------------------------------- PO_: the play of a deal
PO_E_PLAY = 0  # leads, wins of the opponent's leads, last trick
PO_Y_PLAY = 1
PO_E_TRICKS = 2
PO_Y_TRICKS = 3
PO_E_CARDS = 4  # 10 for the cards, 40 for capot
PO_Y_CARDS = 5
PO_E_PIQUE = 6
PO_Y_PIQUE = 7
PO_LEN = 8

# ---------------------------------------------------------------- REC_ / RF_: a simulated deal
# A record holds a block of RF_BLOCK fields per player (at REC_ELDER, REC_YOUNGER), then the
# class winners (WIN_* codes) and the net score.
RF_CARTE_BLANCHE = 0
RF_POINT = 1
RF_SEQUENCE = 2
RF_SETS = 3
RF_CARTE_ROUGE = 4
RF_REPIQUE = 5
RF_PLAY = 6  # leads, wins of the opponent's leads, last trick
RF_CARDS = 7  # 10 for the cards, 40 for capot
RF_PIQUE = 8
RF_TOTAL = 9  # everything the player scored in the deal
RF_TRICKS = 10
RF_TAKEN = 11  # cards taken from the talon
RF_DEALT_POINT_LEN = 12
RF_DEALT_SEQ_LEN = 13  # longest sequence of the dealt hand, 0 under a tierce
RF_DEALT_SET = 14  # 0 none, 1 trio, 2 quatorze (tens and higher)
RF_FINAL_POINT_LEN = 15
RF_FINAL_SEQ_LEN = 16
RF_FINAL_SET = 17
RF_BLOCK = 18
REC_ELDER = 0
REC_YOUNGER = RF_BLOCK
REC_WIN_POINT = 2 * RF_BLOCK
REC_WIN_SEQUENCE = REC_WIN_POINT + 1
REC_WIN_SETS = REC_WIN_POINT + 2
REC_NET = REC_WIN_POINT + 3  # elder's total minus younger's
REC_LEN = REC_NET + 1

# ---------------------------------------------------------------- DSUM_: declarations-only sums
DSUM_DEALS = 0
DSUM_ELDER_TOTAL = 1  # sum of elder's declaration points (repique included)
DSUM_YOUNGER_TOTAL = 2
DSUM_ELDER_REPIQUE = 3  # number of deals
DSUM_YOUNGER_REPIQUE = 4
DSUM_LEN = 5

# ---------------------------------------------------------------- GW_: greedy exchange weights
GW_RANK = 0
GW_POINT = 1
GW_POINT_LEN = 2
GW_SEQ = 3
GW_SEQ_NEAR = 4
GW_SET3 = 5
GW_SET2 = 6
GW_GUARD = 7
GW_SINGLETON = 8
GW_DRAW = 9
GW_LEAVE = 10
GW_LEN = 11

# ---------------------------------------------------------------- XT_: exchange trial rows
XT_ELDER_TOOK = 0
XT_YOUNGER_TOOK = 1
XT_ELDER_POTENTIAL = 2  # point length + sequence points + set points of elder's new hand
XT_YOUNGER_POTENTIAL = 3
XT_LEN = 4

# ---------------------------------------------------------------- XV_: exchange-value rows
XV_NET = 0
XV_E_TOOK = 1
XV_Y_TOOK = 2
XV_LEN = 3

# ---------------------------------------------------------------- KNOW_ / CLASS_: knowledge
KNOW_IN = 0  # cards known to be in the opponent's declaration-time hand
KNOW_OUT = 1  # cards known not to be in it
KNOW_LO = 2  # + CLASS_*: lower bound of his best key in the class
KNOW_HI = 5  # + CLASS_*: upper bound (NO_HI: none)
KNOW_SIZE = 8  # cards he held at the declarations
KNOW_E_TOOK = 9  # cards elder took, plus 1 (0: not known; pimcw's exchange model reads it)
KNOW_Y_TOOK = 10  # cards younger took, plus 1 (0: not known)
KNOW_SEEN_IN = 11  # talon cards the observer saw that the opponent took (elder's left cards)
KNOW_LEN = 12
CLASS_POINT = 0
CLASS_SEQ = 1
CLASS_SET = 2
CLASS_COUNT = 3

# ---------------------------------------------------------------- PIMC_: pimc sampler counts
PIMC_DECISIONS = 0  # decisions taken by sampling (forced ones are not counted)
PIMC_WORLDS = 1
PIMC_ATTEMPTS = 2  # sampler draws (rejections included)
PIMC_FALLBACKS = 3  # worlds drawn without the key bounds (none met them in max_attempts)
PIMC_REFUTED = 4  # worlds where a believed bound had been refuted by the play
PIMC_SOLVES = 5
PIMC_KEPT = 6  # worlds kept from the player's earlier decisions in the deal (not redrawn)
PIMC_LEN = 7

# ------------------------------------------- PW_: pimc's kept worlds, one row per seat (int64)
PW_CAP = 32  # worlds kept per seat
PW_GONE = 0  # cards gone at the seat's last decision (a row from another deal is dropped)
PW_HANDS = 1  # PW_CAP opponent hands as dealt (cards he has played included); 0: none
PW_FLAGS = PW_HANDS + PW_CAP  # the sampler's flags when each was drawn
PW_VALUES = PW_FLAGS + PW_CAP  # each world's exact value of the card he played at his last decision
PW_VALID = PW_VALUES + PW_CAP  # bit w set: PW_VALUES + w holds a value (0 after a forced card)
PW_LEAD = PW_VALID + 1  # the card led to the trick of his last decision (his own when he led)
PW_OWN = PW_LEAD + 1  # the card he played to it
PW_LEADER = PW_OWN + 1  # its leader (0 elder, 1 younger)
PW_PS = PW_LEADER + 1  # the pique state at its start
PW_LEN = PW_PS + 1

# ---------------------------------------------------------------- SOLVE_: solver counters
SOLVE_NODES = 0
SOLVE_TT_HITS = 1
SOLVE_BOUND_CUTS = 2
SOLVE_GEN = 3  # table generation: entries of an older one are replaced first
SOLVE_PASSES = 4  # searches run by mtdf
SOLVE_LEN = 5

# ---------------------------------------------------------------- ADV_: advisor sums
# Per candidate, perspective the advising player ("own" minus "opponent").
ADV_N = 0  # worlds evaluated
ADV_NET = 1  # own deal total minus the opponent's
ADV_NET2 = 2  # its square
ADV_DECL = 3  # own points from carte blanche, point, sequences, sets, carte rouge, repique
ADV_DECL_OPP = 4
ADV_PLAY = 5  # own points from the play: leads and wins, last trick, cards/capot, pique
ADV_PLAY_OPP = 6
ADV_WIN_POINT = 7  # worlds where the player scores the point
ADV_WIN_SEQUENCE = 8
ADV_WIN_SETS = 9
ADV_PIQUE = 10
ADV_REPIQUE = 11
ADV_CAPOT = 12
ADV_CARTE_ROUGE = 13
ADV_OPP_PIQUE = 14
ADV_OPP_REPIQUE = 15
ADV_OPP_CAPOT = 16
ADV_WIN_CARDS = 17  # the player wins the cards (7+ tricks, capot included)
ADV_LEN = 18

# ---------------------------------------------------------------- MATCH_ / MB_: mirrored matches
# Counts: pairs, A's paired difference over the two seatings, A's net per seat, then one block of
# MB_LEN per (side, seat) at MATCH_BLOCKS + (2 * side + seat) * MB_LEN.
MATCH_PAIRS = 0
MATCH_SUM_D = 1
MATCH_SUM_D2 = 2
MATCH_SUM_AE = 3
MATCH_SUM_AE2 = 4
MATCH_SUM_AY = 5
MATCH_SUM_AY2 = 6
MATCH_BLOCKS = 7
MB_WIN = 0
MB_TIE = 1
MB_POINTS = 2
MB_PIQUE = 3
MB_REPIQUE = 4
MB_CAPOT = 5
MB_CARTE_BLANCHE = 6
MB_LEN = 7
MATCH_LEN = MATCH_BLOCKS + 4 * MB_LEN

# ---------------------------------------------------------------- PST_ / PROW_: parties
PST_A = 0  # A's total
PST_B = 1  # B's total
PST_DEALS = 2  # deals played
PST_EXTRA = 3  # tie deals played (-1: not in the tie extension)
PST_DONE = 4
PST_LEN = 5
PROW_A = 0
PROW_B = 1
PROW_DEALS = 2
PROW_WINNER = 3  # 1 A, -1 B, 0 drawn
PROW_SETTLE = 4  # A's settlement (negative when B wins)
PROW_RUBICON = 5  # 1 when the loser finished under 100
PROW_BLANK = 6  # 1 when the loser scored nothing in the partie
PROW_LEN = 7

# ---------------------------------------------------------------- SINK_: sinking rows
# Per (world, choice), the advising player's points minus the opponent's.
SINK_DECL = 0  # combinations: carte blanche, point, sequences, sets, carte rouge
SINK_REPIQUE = 1
SINK_PLAY = 2  # play points and cards/capot
SINK_PIQUE = 3
SINK_TOTAL = 4
SINK_DD_PLAY = 5  # the same deal played double-dummy by both (no information effects)
SINK_DD_PIQUE = 6
SINK_CHANGED = 7  # 1 when the choice's masks declare something different from "all"
SINK_LEN = 8

# ---------------------------------------------------------------- TSUM_: talon-odds sums
TSUM_POINT = 0  # total point length over all draws (point points if it wins)
TSUM_SEQUENCE = 1  # total sequence points
TSUM_SETS = 2  # total set points
TSUM_CARTE_ROUGE = 3  # draws after which the hand's own combinations cover all 12 cards
TSUM_LEN = 4
