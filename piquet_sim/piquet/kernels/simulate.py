"""The full-deal loop: deal, carte blanche, elder's and younger's exchanges, declarations, what
each player learnt, play. Each step is a named stage every full-deal kernel shares (the
simulator, mirrored matches and parties, the advisor, the exchange-value study, sinking).

Each stage is driven by a policy id and parameters (``stages``: a ``bundles.Stages`` of ids
int32[STAGE_LEN] and params float64[STAGE_LEN, STAGE_PARAMS]), dispatched inside the kernels.
Deal i is keyed by (seed, i): the shuffle, then the exchanges, then play draw from that deal's
stream in turn, so a record never depends on which thread computed it.

A record (int16[REC_LEN]) holds, per player (block at REC_ELDER / REC_YOUNGER), points by
category, tricks, cards taken and hand features; then the class winners and the net score.
"""

from __future__ import annotations

import numpy as np

from ...core.engine.jit import njit, njit_inline
from ...core.engine.jit_threads import driver, for_spans
from ...core.engine.rng import stream_key
from ..policies import REGISTRY
from ..rules import RuleSlot
from . import layouts as L
from .deal import deal_full
from .declarations import carte_blanche, declaration_keys, score_declarations, set_ranks
from .declaring import declaration_masks
from .exchange import elder_exchange, younger_exchange
from .knowledge import both_knowledge
from .play import new_scratch, play_deal, play_if_simple
from .solver import new_workspace

#: Play policy id -> 1 when the policy reads a knowledge state (from the registry).
NEEDS_KNOWLEDGE = np.array(
    [int(p.needs_knowledge) for p in sorted(REGISTRY, key=lambda p: p.id) if p.stage == "play"],
    dtype=np.int8,
)
#: ``forced`` argument of the stages: both players exchange by their policies.
NOT_FORCED = (np.int64(-1), np.int64(-1))


@njit_inline
def hand_features(hand, tables):
    """A hand's record features: (point length, sequence length, 2 with a four / 1 with a trio
    / 0), from one pass over its suits (``declarations.declaration_keys``)."""
    pk, qk, _ = declaration_keys(hand, tables)
    four, trio = set_ranks(hand)
    return pk >> 7, qk >> 3, 2 if four else (1 if trio else 0)


@njit_inline
def _features(hand, tables, rec, base, offset):
    point, sequence, sets = hand_features(hand, tables)
    rec[base + offset] = point
    rec[base + offset + 1] = sequence
    rec[base + offset + 2] = sets


@njit_inline
def _player_block(rec, base, decl, dbase, play, seat, took):
    """One seat's record block from the declarations and the play (``PO_*`` fields of seat
    ``seat`` sit at ``PO_E_* + seat``)."""
    rec[base + L.RF_CARTE_BLANCHE] = decl[dbase + L.DP_CARTE_BLANCHE]
    rec[base + L.RF_POINT] = decl[dbase + L.DP_POINT]
    rec[base + L.RF_SEQUENCE] = decl[dbase + L.DP_SEQUENCE]
    rec[base + L.RF_SETS] = decl[dbase + L.DP_SETS]
    rec[base + L.RF_CARTE_ROUGE] = decl[dbase + L.DP_CARTE_ROUGE]
    rec[base + L.RF_REPIQUE] = decl[dbase + L.DP_REPIQUE]
    rec[base + L.RF_PLAY] = play[L.PO_E_PLAY + seat]
    rec[base + L.RF_CARDS] = play[L.PO_E_CARDS + seat]
    rec[base + L.RF_PIQUE] = play[L.PO_E_PIQUE + seat]
    rec[base + L.RF_TRICKS] = play[L.PO_E_TRICKS + seat]
    rec[base + L.RF_TAKEN] = took
    total = 0
    for f in range(L.RF_CARTE_BLANCHE, L.RF_PIQUE + 1):
        total += rec[base + f]
    rec[base + L.RF_TOTAL] = total


@njit_inline
def _forced(hand, discard, talon, first):
    """(hand, cards taken) after discarding ``discard`` and drawing as many cards from
    ``talon[first:]`` in order."""
    took = np.int64(0)
    hand &= ~discard
    left = discard
    while left:
        left &= left - 1
        hand |= np.int64(1) << np.int64(talon[first + took])
        took += 1
    return hand, took


@njit_inline
def exchange_stage(elder, younger, talon, key, state, stages, env, forced):
    """Both exchanges: by the stage policies, or forced (``forced`` = (elder's discard,
    younger's); -1 lets the policy choose; a forced discard takes as many cards, in talon
    order). Returns the exchange (elder's hand, younger's, cards elder took, cards younger took,
    elder's discard, younger's discard)."""
    if forced[0] < 0:
        elder, e_disc, e_took = elder_exchange(
            elder,
            talon,
            stages.ids[L.STAGE_ELDER_EXCHANGE],
            stages.params[L.STAGE_ELDER_EXCHANGE],
            key,
            state,
            env,
        )
    else:
        e_disc = forced[0]
        elder, e_took = _forced(elder, e_disc, talon, 0)
    if forced[1] < 0:
        younger, y_disc, y_took = younger_exchange(
            younger,
            talon,
            e_took,
            stages.ids[L.STAGE_YOUNGER_EXCHANGE],
            stages.params[L.STAGE_YOUNGER_EXCHANGE],
            key,
            state,
            env,
        )
    else:
        y_disc = forced[1]
        younger, y_took = _forced(younger, y_disc, talon, e_took)
    return elder, younger, np.int64(e_took), np.int64(y_took), e_disc, y_disc


@njit_inline
def declare_stage(elder, younger, cb, stages, env, decl, masks):
    """Declarations of the hands after the exchange by the declaration policies: the record
    into ``decl`` (``DECL_*``), each seat's declaration masks into ``masks`` (int64[2, 3])."""
    e = declaration_masks(
        stages.ids[L.STAGE_ELDER_DECLARE], stages.params[L.STAGE_ELDER_DECLARE], elder
    )
    y = declaration_masks(
        stages.ids[L.STAGE_YOUNGER_DECLARE], stages.params[L.STAGE_YOUNGER_DECLARE], younger
    )
    for k in range(3):
        masks[0, k] = e[k]
        masks[1, k] = y[k]
    score_declarations(elder, younger, cb, e, y, env, decl)


@njit
def untaken_split(talon, first, last, took):
    """(taken, left) masks of talon[first:last] when the next player took ``took`` from it."""
    taken = np.int64(0)
    left = np.int64(0)
    for i in range(first, last):
        if i - first < took:
            taken |= np.int64(1) << talon[i]
        else:
            left |= np.int64(1) << talon[i]
    return taken, left


@njit
def talon_seen(talon, e_took, y_took):
    """Talon cards each seat saw after the exchanges: (elder's seen and taken by younger,
    elder's seen and left, younger's seen and left). Elder sees the cards he left (those younger
    took are in younger's hand); younger is shown the cards nobody took after elder's first
    lead."""
    # int64 arguments, not literals: one compiled signature for both calls
    e_in, e_out = untaken_split(talon, e_took, np.int64(5), y_took)
    _, y_out = untaken_split(talon, e_took + y_took, np.int64(8), np.int64(0))
    return e_in, e_out, y_out


@njit_inline
def knowledge_stage(exchange, seen, masks, env, sc):
    """What each seat knows of the other after the declarations, into ``sc.know_e`` and
    ``sc.know_y``: his own cards and discards, the declarations and answers (``masks``: each
    seat's declaration masks), and the talon cards he saw (``seen``, :func:`talon_seen`); both
    takes (``KNOW_E_TOOK``, ``KNOW_Y_TOOK``) and elder's left cards younger took
    (``KNOW_SEEN_IN``)."""
    elder, younger, e_took, y_took, e_disc, y_disc = exchange
    both_knowledge((elder, younger), (e_disc, y_disc), masks, seen, env.suit, sc.know_e, sc.know_y)
    for know in (sc.know_e, sc.know_y):  # the takes are public: pimcw's exchange model
        know[L.KNOW_E_TOOK] = e_took + 1
        know[L.KNOW_Y_TOOK] = y_took + 1
    sc.know_e[L.KNOW_SEEN_IN] = seen[0]


@njit_inline
def needs_knowledge(stages):
    """True when either seat's play policy reads a knowledge state."""
    return (
        NEEDS_KNOWLEDGE[stages.ids[L.STAGE_ELDER_PLAY]] != 0
        or NEEDS_KNOWLEDGE[stages.ids[L.STAGE_YOUNGER_PLAY]] != 0
    )


@njit_inline
def play_and_record(elder, younger, took, stages, key, ws, sc):
    """Play from the declarations in ``sc.decl`` (pique counts from their points) and write
    every scoring field of ``sc.rec``; returns the net deal score, elder minus younger."""
    return play_and_record_with(elder, younger, took, stages, key, ws, sc, play_deal)


@njit_inline
def play_and_record_with(elder, younger, took, stages, key, ws, sc, play):
    """:func:`play_and_record` with the trick loop ``play`` (``play.play_deal``'s arguments):
    ``screen.table_play_deal`` compiles without the solver plays."""
    decl = sc.decl
    # int64 from the start: a literal 0 would type ``start`` once as literals and compile ``play``
    # (and play_simple) a second time for that never-called signature
    e_pre = np.int64(0)
    y_pre = np.int64(0)
    for k in range(L.DP_REPIQUE):  # combinations only: the repique bonus is not a combination
        e_pre += decl[L.DECL_ELDER + k]
        y_pre += decl[L.DECL_YOUNGER + k]
    repique = decl[L.DECL_ELDER + L.DP_REPIQUE] > 0 or decl[L.DECL_YOUNGER + L.DP_REPIQUE] > 0
    start = (e_pre, y_pre, np.int64(repique))
    ten = ws.env.rules[RuleSlot.LEAD_POINTS]
    if not play_if_simple(elder, younger, stages.ids, start, key, sc.state, ten, sc.line, sc.play):
        play(elder, younger, stages, start, key, sc.state, ws, sc)
    rec = sc.rec
    _player_block(rec, L.REC_ELDER, decl, L.DECL_ELDER, sc.play, 0, took[0])
    _player_block(rec, L.REC_YOUNGER, decl, L.DECL_YOUNGER, sc.play, 1, took[1])
    rec[L.REC_WIN_POINT] = decl[L.DECL_WIN_POINT]
    rec[L.REC_WIN_SEQUENCE] = decl[L.DECL_WIN_SEQUENCE]
    rec[L.REC_WIN_SETS] = decl[L.DECL_WIN_SETS]
    rec[L.REC_NET] = rec[L.REC_ELDER + L.RF_TOTAL] - rec[L.REC_YOUNGER + L.RF_TOTAL]
    return rec[L.REC_NET]


@njit_inline
def finish_play(exchange, talon, stages, key, ws, sc):
    """After the declarations (``sc.decl``, ``sc.masks``): the knowledge a play policy needs,
    then the play and the record. Returns the net deal score, elder minus younger."""
    return finish_play_with(exchange, talon, stages, key, ws, sc, play_deal)


@njit_inline
def finish_play_with(exchange, talon, stages, key, ws, sc, play):
    """:func:`finish_play` with the trick loop ``play`` (see :func:`play_and_record_with`)."""
    elder, younger, e_took, y_took, _, _ = exchange
    if needs_knowledge(stages):
        knowledge_stage(exchange, talon_seen(talon, e_took, y_took), sc.masks, ws.env, sc)
    return play_and_record_with(elder, younger, (e_took, y_took), stages, key, ws, sc, play)


@njit_inline
def finish_deal(elder, younger, talon, key, stages, ws, sc, forced):
    """Everything after the deal: exchanges, declarations, what each player learnt, play,
    scoring, into ``sc.rec``.

    ``elder``/``younger``: dealt 12-card masks; ``talon`` int8[8] in draw order. ``forced`` =
    (elder's discard, younger's): -1 lets the stage policy choose; a mask forces that exact
    discard (the player takes as many cards), which is how the advisor evaluates a candidate
    exchange. Random choices continue the stream (``key``, ``sc.state``). Returns the net deal
    score, elder minus younger.
    """
    return finish_deal_with(elder, younger, talon, key, stages, ws, sc, forced, play_deal)


@njit_inline
def finish_deal_with(elder, younger, talon, key, stages, ws, sc, forced, play):
    """:func:`finish_deal` with the trick loop ``play`` (see :func:`play_and_record_with`)."""
    cb = (carte_blanche(elder), carte_blanche(younger))
    exchange = exchange_stage(elder, younger, talon, key, sc.state, stages, ws.env, forced)
    declare_after(exchange, cb, stages, ws.env, sc)
    return finish_play_with(exchange, talon, stages, key, ws, sc, play)


@njit_inline
def declare_after(exchange, cb, stages, env, sc):
    """After the exchange (:func:`exchange_stage`): the final hands' features into ``sc.rec``,
    the declarations into ``sc.decl`` and ``sc.masks`` (``cb``: carte blanche of the dealt
    hands)."""
    _features(exchange[0], env.suit, sc.rec, L.REC_ELDER, L.RF_FINAL_POINT_LEN)
    _features(exchange[1], env.suit, sc.rec, L.REC_YOUNGER, L.RF_FINAL_POINT_LEN)
    declare_stage(exchange[0], exchange[1], cb, stages, env, sc.decl, sc.masks)


@njit_inline
def simulate_deal(seed, index, stages, ws, sc):
    """Play deal ``index`` of ``seed`` through every stage; its record into ``sc.rec``."""
    elder, younger = deal_full(seed, index, sc.pack, sc.state)
    _features(elder, ws.env.suit, sc.rec, L.REC_ELDER, L.RF_DEALT_POINT_LEN)
    _features(younger, ws.env.suit, sc.rec, L.REC_YOUNGER, L.RF_DEALT_POINT_LEN)
    talon = sc.pack[24:32]
    key = stream_key(seed, index)
    finish_deal(elder, younger, talon, key, stages, ws, sc, NOT_FORCED)


@njit
def _simulate_span(seed, first, count, stages, env, tt_bits, out, row0):
    ws = new_workspace(env, tt_bits, tt_bits > 1)
    sc = new_scratch()
    for i in range(count):
        simulate_deal(seed, first + i, stages, ws, sc)
        for f in range(L.REC_LEN):
            out[row0 + i, f] = sc.rec[f]


@driver(_simulate_span)
def simulate_records(seed, start, n, stages, env, n_spans, tt_bits):
    """Records (int16[n, REC_LEN]) of deals start..start+n-1, in ``n_spans`` spans run on
    threads (``core.engine.jit_threads``).

    Each span owns a solver workspace of ``2**tt_bits`` entries (only policies that call the
    solver need more than a token one, ``tt_bits`` 1). Records do not depend on the span count:
    the solver's table holds exact facts about positions, never about deals.
    """
    out = np.zeros((n, L.REC_LEN), dtype=np.int16)

    def work(s: int, first: int, count: int) -> None:
        _simulate_span(seed, start + first, count, stages, env, tt_bits, out, first)

    for_spans(n, n_spans, work)
    return out
