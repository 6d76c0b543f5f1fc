"""A review as one self-contained HTML page: the deal trick by trick with the costs."""

from __future__ import annotations

import html
import math
import re
from typing import TYPE_CHECKING

from .decisions import Alternative, DecisionReview
from .text import fmt_cost, fmt_exact, fmt_interval

if TYPE_CHECKING:
    from .result import Review

_CARD = re.compile(r"^(10|[2-9TJQKA])([SHDC])$")
_SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

CSS = """
body { font-family: Georgia, 'Times New Roman', serif; max-width: 70rem; margin: 1.5rem auto;
       padding: 0 1rem; color: #222; line-height: 1.4; }
h1, h2, h3 { font-family: Helvetica, Arial, sans-serif; }
h2 { border-bottom: 1px solid #bbb; padding-bottom: .2rem; margin-top: 2rem; }
table { border-collapse: collapse; margin: .5rem 0 1rem; font-size: .9rem; }
th, td { border: 1px solid #ccc; padding: .25rem .5rem; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.card { font-family: Helvetica, Arial, sans-serif; font-weight: bold; white-space: nowrap; }
.red { color: #c0142b; } .black { color: #111; }
.mine { background: #eef4ff; }
.cost { display: inline-block; min-width: 3.2rem; padding: 0 .3rem; border-radius: .3rem;
        font-family: Helvetica, Arial, sans-serif; font-size: .8rem; text-align: center; }
.c0 { background: #d8f0d8; } .c1 { background: #fff1b8; } .c2 { background: #ffd2a8; }
.c3 { background: #ffb3b3; } .cx { background: #eee; }
.partial { color: #a00; font-weight: bold; }
.note { color: #555; font-size: .9rem; }
details { margin: .2rem 0; } summary { cursor: pointer; }
"""


def card_html(text: str) -> str:
    """A card string (``"TH"``, ``"10H"``, ``"AS"``) with its suit symbol, red or black;
    anything else escaped as it is."""
    m = _CARD.match(str(text).strip().upper())
    if not m:
        return html.escape(str(text))
    rank, suit = m.groups()
    rank = "10" if rank == "T" else rank
    colour = "red" if suit in "HD" else "black"
    return f'<span class="card {colour}">{rank}{_SUIT_SYMBOL[suit]}</span>'


_CARD_IN_TEXT = re.compile(r"(?<![\w])(10|[2-9TJQKA])([SHDC])(?![\w])")


def cards_html(text: str) -> str:
    """A text with every card in it decorated (:func:`card_html`), the rest escaped."""
    out, last = [], 0
    text = str(text)
    for m in _CARD_IN_TEXT.finditer(text):
        out.append(html.escape(text[last : m.start()]))
        out.append(card_html(m.group(0)))
        last = m.end()
    out.append(html.escape(text[last:]))
    return "".join(out)


def _cost_class(d: DecisionReview, scale: float = 1.0) -> str:
    c = d.exact_cost if d.cost is None else d.cost.mean
    if c is None or not math.isfinite(c):
        return "cx"
    c *= scale
    if c <= 0.05:
        return "c0"
    if c < 1:
        return "c1"
    if c < 3:
        return "c2"
    return "c3"


def _badge_of(d: DecisionReview, scale: float = 1.0) -> str:
    tip = f"#{d.index} {d.place}: {d.done}; advised {d.best or '-'}"
    if d.cost is not None:
        tip += f"; cost {fmt_cost(d.cost)} {fmt_interval(d.cost)}"
    if d.exact_cost is not None:
        tip += f"; dd {fmt_exact(d.exact_cost)}"
    label = "forced" if d.forced else fmt_cost(d.cost)
    if d.cost is None and d.exact_cost is not None:
        label = fmt_exact(d.exact_cost)
    return (
        f'<a href="#d{d.index}" class="cost {_cost_class(d, scale)}" title="{html.escape(tip)}" '
        f'data-decision="{d.index}">{html.escape(label)}</a>'
    )


def _alt_interval(a: Alternative) -> str:
    if a.value is None or a.value.se == 0:
        return ""
    return html.escape(fmt_interval(a.value))


def render_html(rv: Review) -> str:
    """The review as one self-contained HTML page (inline CSS, no script): the summary, the deal
    step by step (``deal["phases"]``: items of text with the decisions they hold) and trick by
    trick (``deal["tricks"]``: each card, the reviewed player's with its cost), then every
    decision with its alternatives."""
    by_index = {d.index: d for d in rv.decisions}
    e = html.escape

    def _badge(d: DecisionReview) -> str:  # the costs coloured on one scale
        return _badge_of(d, rv.rank_scale.get(d.phase, 1.0))

    body = [f"<h1>{e(rv.title)}</h1>"]
    status = f"{len(rv.decisions)} of {rv.total} decisions of {e(rv.player)} reviewed"
    if rv.partial:
        status += ' <span class="partial" id="partial">partial: stopped by Ctrl-C</span>'
    unit = f"{rv.unit}." if rv.phase_units else f"Unit: {rv.unit}."
    body.append(f'<p id="status">{status} in {rv.seconds:.1f} s. {e(unit)}</p>')
    for n in rv.notes:
        body.append(f'<p class="note">{e(n)}</p>')
    has_exact = any(d.exact_cost is not None for d in rv.decisions)

    # summary
    s = rv.summary()
    body.append(
        '<h2 id="summary">Summary</h2><table id="phases"><tr><th>phase</th>'
        "<th>decisions</th><th>as advised</th><th>points lost</th><th>95% interval</th>"
        + ("<th>dd cost (decisions)</th>" if has_exact else "")
        + ("<th>unit</th>" if rv.phase_units else "")
        + "</tr>"
    )
    for ph, v in s["phases"].items():
        c = v["cost"]
        interval = "±0" if c["se"] == 0 else f"[{c['ci95'][0]:+.2f}, {c['ci95'][1]:+.2f}]"
        row = (
            f'<tr data-phase="{e(ph)}"><td>{e(ph)}</td><td class="num">{v["decisions"]}</td>'
            f'<td class="num">{v["agree"]}</td><td class="num">{c["mean"]:+.2f}</td>'
            f'<td class="num">{interval}</td>'
        )
        if has_exact:
            ex = v["exact_cost"]
            ex_text = "-" if ex is None else f"{ex:+g} ({v['exact_decisions']})"
            row += f'<td class="num">{ex_text}</td>'
        if rv.phase_units:
            row += f"<td>{e(v['unit'])}</td>"
        body.append(row + "</tr>")
    body.append("</table>")
    if s["costliest"]:
        body.append('<p>Costliest decisions:</p><ol id="costliest">')
        for c in s["costliest"]:
            d = by_index[c["index"]]
            body.append(
                f'<li><a href="#d{d.index}">#{d.index} {e(d.place)}</a>: '
                f"{cards_html(d.done)} (advised {cards_html(d.best or '-')}) {_badge(d)}</li>"
            )
        body.append("</ol>")

    # the deal
    deal = rv.deal
    body.append('<h2 id="deal">The deal</h2>')
    hands = deal.get("hands") or []
    if hands:
        body.append('<table id="hands"><tr><th>hand</th><th>cards</th></tr>')
        for h in hands:
            cls = ' class="mine"' if h.get("seat") == rv.player else ""
            body.append(
                f"<tr{cls}><td>{e(h.get('label', h.get('seat', '')))}</td>"
                f"<td>{' '.join(card_html(c) for c in h.get('cards', []))}</td></tr>"
            )
        body.append("</table>")
    for ph in deal.get("phases") or []:
        body.append(f'<h3>{e(ph["title"])}</h3><ul class="steps">')
        for item in ph.get("items", []):
            d = by_index.get(item.get("decision"))
            badge = f" {_badge(d)}" if d is not None else ""
            body.append(f"<li>{cards_html(item['text'])}{badge}</li>")
        body.append("</ul>")
    tricks = deal.get("tricks") or []
    if tricks:
        seats = deal.get("seats") or []
        body.append('<h3>Tricks</h3><table id="tricks"><tr><th>trick</th>')
        body += [f"<th>{e(s_)}</th>" for s_ in seats]
        notes = any(t.get("note") for t in tricks)
        body.append("<th>won by</th>" + ("<th>note</th>" if notes else "") + "</tr>")
        for t in tricks:
            cells = {c["seat"]: c for c in t.get("cards", [])}
            row = [
                f'<tr class="trick" data-trick="{t["number"]}"><td class="num">{t["number"]}</td>'
            ]
            for s_ in seats:
                c = cells.get(s_)
                if c is None:
                    row.append("<td></td>")
                    continue
                lead = " (led)" if c.get("led") else ""
                d = by_index.get(c.get("decision"))
                badge = f" {_badge(d)}" if d is not None else ""
                cls = ' class="mine"' if s_ == rv.player else ""
                row.append(f"<td{cls}>{card_html(c['card'])}{e(lead)}{badge}</td>")
            row.append(f"<td>{e(t.get('winner') or '')}</td>")
            if notes:
                row.append(f"<td>{e(t.get('note') or '')}</td>")
            row.append("</tr>")
            body.append("".join(row))
        body.append("</table>")
    for line in deal.get("result") or []:
        body.append(f'<p class="result">{e(line)}</p>')

    # decisions
    body.append('<h2 id="decisions">Decisions</h2>')
    body.append(
        '<table id="rows"><tr><th>#</th><th>phase</th><th>where</th><th>done</th>'
        "<th>advised</th><th>cost</th><th>95% interval</th>"
        + ("<th>dd cost</th><th>dd best</th>" if has_exact else "")
        + "<th>alternatives</th></tr>"
    )
    for d in rv.decisions:
        alts = "".join(
            f"<tr><td>{cards_html(a.action)}</td>"
            f'<td class="num">{"" if a.value is None else f"{a.value.mean:+.2f}"}</td>'
            f'<td class="num">{_alt_interval(a)}</td>'
            f'<td class="num">{"" if a.exact is None else f"{a.exact:+g}"}</td>'
            f"<td>{e(a.note)}</td></tr>"
            for a in d.alternatives
        )
        detail = ""
        if alts:
            detail = (
                f"<details><summary>{len(d.alternatives)} options</summary><table>"
                "<tr><th>option</th><th>value</th><th>95% interval</th><th>exact</th>"
                f'<th></th></tr>{alts}</table><p class="note">{e(d.method)}</p></details>'
            )
        elif d.method:
            detail = f'<span class="note">{e(d.method)}</span>'
        advised = "forced" if d.forced else cards_html(d.best or "-")
        interval = ("" if d.agrees else fmt_interval(d.cost)) + (" (partial)" if d.partial else "")
        row = (
            f'<tr id="d{d.index}" class="decision" data-phase="{e(d.phase)}">'
            f'<td class="num">{d.index}</td><td>{e(d.phase)}</td><td>{e(d.place)}</td>'
            f"<td>{cards_html(d.done)}</td><td>{advised}</td><td>{_badge(d)}</td>"
            f'<td class="num">{e(interval)}</td>'
        )
        if has_exact:
            row += (
                f'<td class="num">{e(fmt_exact(d.exact_cost))}</td>'
                f"<td>{cards_html(d.exact_best or '-')}</td>"
            )
        body.append(row + f"<td>{detail}</td></tr>")
    body.append("</table>")
    body.append(
        '<p class="note">Cost colours: <span class="cost c0">0</span> as good as the advice, '
        '<span class="cost c1">&lt; 1</span>, <span class="cost c2">&lt; 3</span>, '
        '<span class="cost c3">3 or more</span> points (expected; exact when only that is '
        "known).</p>"
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{e(rv.title)}</title><style>{CSS}</style></head><body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )
