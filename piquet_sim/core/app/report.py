"""Report rendering for every game: a small document model (sections of text, tables and
images) written as one self-contained HTML file (PNGs embedded, inline CSS) and a Markdown twin.
A game builds the sections; this module only renders them."""

from __future__ import annotations

import base64
import html
import re
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..engine.stats import wilson_interval


@dataclass
class Block:
    kind: str  # "text", "table", "image"
    content: object
    caption: str = ""


@dataclass
class Section:
    """One section of a report: its blocks, and ``figures``, the key numbers it shows as
    JSON-ready values (a report's ``--json``; None: the section was not run)."""

    key: str
    title: str
    blocks: list[Block] = field(default_factory=list)
    figures: dict | None = None

    def text(self, s: str) -> None:
        self.blocks.append(Block("text", s))

    def table(self, df: pd.DataFrame, caption: str) -> None:
        self.blocks.append(Block("table", df, caption))

    def image(self, path: Path, caption: str) -> None:
        self.blocks.append(Block("image", Path(path), caption))


CSS = """
body { font-family: Georgia, 'Times New Roman', serif; max-width: 66rem; margin: 2rem auto;
       padding: 0 1rem; color: #222; line-height: 1.45; }
h1, h2, h3 { font-family: Helvetica, Arial, sans-serif; }
h2 { border-bottom: 1px solid #bbb; padding-bottom: .2rem; margin-top: 2.4rem; }
table { border-collapse: collapse; margin: .6rem 0 1.2rem; font-size: .86rem; }
th, td { border: 1px solid #ccc; padding: .25rem .5rem; text-align: right; }
th { background: #f0f0f0; }
th.t, td.t { text-align: left; }
caption { caption-side: top; text-align: left; font-style: italic; padding-bottom: .3rem; }
figure { margin: 1rem 0; } figcaption { font-style: italic; font-size: .9rem; }
img { max-width: 100%; }
code { background: #f4f4f4; padding: 0 .2rem; }
nav ol { columns: 2; }
@media print { h2 { page-break-before: auto; } figure, table { page-break-inside: avoid; } }
"""


def not_run(sec: Section) -> Section:
    """``sec`` saying its study did not run (the report was interrupted before it)."""
    sec.text("Not run: the report was interrupted.")
    return sec


def partial_note(done: int, requested: int, what: str) -> str:
    """The note a study stopped by Ctrl-C adds to its text ('' when it finished)."""
    if done >= requested:
        return ""
    return f" **Partial: interrupted after {done:,} of {requested:,} {what}.**"


def percent_ci(k: int, n: int) -> str:
    """``k`` of ``n`` as a percentage with its Wilson 95% interval, ``"12.5 (9.8-15.7)"``
    (``"-"`` when ``n`` is 0): the reports' way of writing a rate."""
    if n == 0:
        return "-"
    lo, hi = wilson_interval(int(k), int(n))
    return f"{100 * k / n:.1f} ({100 * lo:.1f}-{100 * hi:.1f})"


def _inline_md(s: str) -> str:
    """Text blocks are written in a small Markdown subset; HTML gets escaped text with
    ``code`` spans and **bold**."""
    out = html.escape(s)
    parts = out.split("`")
    out = "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))
    parts = out.split("**")
    return "".join(f"<strong>{p}</strong>" if i % 2 else p for i, p in enumerate(parts))


def _text_html(s: str) -> str:
    lines = s.strip().split("\n")
    if all(line.startswith("- ") for line in lines):
        items = "".join(f"<li>{_inline_md(line[2:])}</li>" for line in lines)
        return f"<ul>{items}</ul>"
    return "".join(f"<p>{_inline_md(p)}</p>" for p in s.strip().split("\n\n"))


def render_html(title: str, sections: list[Section]) -> str:
    """The report as one HTML document: inline CSS, tables from pandas, PNGs base64-embedded."""
    body = [f"<h1>{html.escape(title)}</h1>", "<nav><ol>"]
    body += [f'<li><a href="#{s.key}">{html.escape(s.title)}</a></li>' for s in sections]
    body.append("</ol></nav>")
    for s in sections:
        body.append(f'<section id="{s.key}"><h2>{html.escape(s.title)}</h2>')
        for b in s.blocks:
            if b.kind == "text":
                body.append(_text_html(str(b.content)))
            elif b.kind == "table":
                body.append(table_html(b.content, b.caption))
            else:
                data = base64.b64encode(Path(b.content).read_bytes()).decode("ascii")
                body.append(
                    f'<figure><img alt="{html.escape(b.caption)}" '
                    f'data-file="{html.escape(Path(b.content).name)}" '
                    f'src="data:image/png;base64,{data}"><figcaption>'
                    f"{html.escape(b.caption)}</figcaption></figure>"
                )
        body.append("</section>")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{CSS}</style></head><body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )


#: A cell that reads as a number: signed digits, a percent, an interval ``[lo, hi]``, n/a.
_NUMERIC = re.compile(r"^\s*([+-]?[\d.,]+(e[+-]?\d+)?%?|<\s*[\d.]+|n/a|)\s*(\[.*\])?\s*$")


def text_columns(df: pd.DataFrame) -> list[bool]:
    """Per column: True when it holds text (left-aligned), False for numbers (right-aligned)."""
    out = []
    for c in df.columns:
        values = [str(v) for v in df[c]]
        out.append(not all(_NUMERIC.match(v) for v in values))
    return out


def table_html(df: pd.DataFrame, caption: str = "") -> str:
    """An HTML table: text columns left-aligned (class ``t``), numbers right-aligned."""
    text = text_columns(df)

    def cls(i: int) -> str:
        return ' class="t"' if text[i] else ""

    head = "".join(f"<th{cls(i)}>{html.escape(str(c))}</th>" for i, c in enumerate(df.columns))
    rows = "".join(
        "<tr>"
        + "".join(f"<td{cls(i)}>{html.escape(str(v))}</td>" for i, v in enumerate(row))
        + "</tr>"
        for row in df.itertuples(index=False)
    )
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return f"<table>{cap}<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


def markdown_table(df: pd.DataFrame) -> str:
    """A pipe table (no extra dependency); pipes in cells are escaped."""

    def cell(v) -> str:
        return str(v).replace("|", "\\|").replace("\n", " ")

    head = "| " + " | ".join(cell(c) for c in df.columns) + " |"
    rule = "|" + "|".join(":---" if t else "---:" for t in text_columns(df)) + "|"
    rows = ["| " + " | ".join(cell(v) for v in row) + " |" for row in df.itertuples(index=False)]
    return "\n".join([head, rule, *rows])


def render_markdown(title: str, sections: list[Section]) -> str:
    """The Markdown twin: same sections and tables; images referenced by file name (beside it)."""
    out = [f"# {title}", ""]
    out += [f"{i}. [{s.title}](#{s.key})" for i, s in enumerate(sections, 1)]
    for s in sections:
        out += ["", f'<a id="{s.key}"></a>', "", f"## {s.title}", ""]
        for b in s.blocks:
            if b.kind == "text":
                out += [str(b.content).strip(), ""]
            elif b.kind == "table":
                if b.caption:
                    out += [f"*{b.caption}*", ""]
                out += [markdown_table(b.content), ""]
            else:
                out += [f"![{b.caption}]({Path(b.content).name})", "", f"*{b.caption}*", ""]
    return "\n".join(out).rstrip() + "\n"
