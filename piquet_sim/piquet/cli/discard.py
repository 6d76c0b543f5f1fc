"""`piquet discard`: the best exchange for a 12-card hand, with intervals and reasons."""

from __future__ import annotations

import click
from rich import box
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ...core.app.cli import (
    SECONDS,
    Finite,
    compile_notice,
    echo_json,
    json_option,
    long_command,
    output_console,
    quiet_option,
    seed_option,
)
from ...core.app.rules_cli import rules_options
from ...core.engine.backend import stop_requested
from ..advisor import (
    CV_PLAYS,
    DEFAULT,
    DEFAULT_OPPONENT,
    DEFAULT_PLAY,
    MAX_SAMPLES,
    PARTIE_PLAY,
    PIMC_PRECISION,
    PIMC_REFINE,
    PLAY_CHOICES,
    PRECISION,
    REFINE,
    AdviceError,
    AdviceResult,
    advise,
    default_settings,
)
from ..advisor_warmup import warm_up
from ..cards import cards_to_mask, format_grouped, parse_card
from ..policies import names as policy_names
from ..rules import Rules
from .app import cli
from .common import HAND12, partie_goal, partie_options, role_options

#: How the race ended, as the first lines say it.
STOPPED = {
    "precision": "stopped on reaching the precision",
    "samples": "stopped at the most worlds a discard gets",
    "indifference": "stopped: the best are indistinguishable (indifference zone)",
    "time limit": "stopped at the time limit",
    "interrupted": "stopped by Ctrl-C",
}
#: On a first run with pimc, the heuristic screen's ranking is printed while the solver compiles.
SCREEN_FIRST = "First run: the heuristic screen's ranking while pimc's solver compiles"
SCREEN_FIRST_ROWS = 5
PIMC_AFTER = "The pimc ranking, the answer, follows once the solver is compiled."
#: Deals of a partie under each ``--game`` (None: piquet au cent, played until 100).


class _Bar:
    """Rich progress on stderr: phase, round, candidates still racing, worlds so far."""

    def __init__(self, quiet: bool):
        self.progress = Progress(
            TextColumn("[bold]{task.fields[phase]}"),
            BarColumn(),
            TextColumn("{task.fields[info]}"),
            TimeElapsedColumn(),
            console=Console(stderr=True),
            disable=quiet,
            transient=True,
        )
        self.task = self.progress.add_task("advise", total=1, phase="screen", info="")

    def __enter__(self):
        self.progress.__enter__()
        return self

    def __exit__(self, *exc):
        return self.progress.__exit__(*exc)

    def __call__(self, ev: dict) -> None:
        info = (
            f"round {ev['round'] + 1}: {ev['alive']:,} candidates, "
            f"{ev['worlds']:,}/{ev['target']:,} worlds"
        )
        self.progress.update(
            self.task, total=ev["target"], completed=ev["worlds"], phase=ev["phase"], info=info
        )


def _pct(p: float) -> str:
    return f"{100 * p:.1f}%"


def _slash(ps: list[float]) -> str:
    return "/".join(f"{100 * p:.0f}" for p in ps)


def _grouped(names: list[str]) -> str:
    """Cards suit by suit, 'H:987 C:QJ' (suits held only)."""
    parts = format_grouped(cards_to_mask(parse_card(n) for n in names)).split()
    return " ".join(p for p in parts if not p.endswith("-"))


_UNIT = {
    "deal": "points per deal",
    "win": "in P(win the partie)",
    "settlement": "settlement points",
}


def _console() -> Console:
    return output_console()


def _print(result: AdviceResult, top: int, why: bool = True) -> None:
    console = _console()
    d = result.to_dict()
    who = result.role
    if result.role == "younger":
        who += f" (elder took {result.elder_took}, modelled by {result.elder_model} exchange)"
    console.print(f"Hand  {' '.join(d['hand'])}   as {who}")
    console.print(
        f"{len(result.candidates):,} legal discards, play {result.play}, opponent exchanges by "
        f"{result.opponent}; {result.evaluations:,} deals in {result.seconds:.1f} s, seed "
        f"{result.seed}; {STOPPED.get(result.stop_reason, 'stopped: ' + result.stop_reason)}"
    )
    if result.acceptance is not None:
        console.print(
            f"Worlds consistent with elder taking {result.elder_took}: acceptance rate "
            f"{_pct(result.acceptance)} of sampled elder hands"
        )
    if result.interrupted:
        console.print("[bold red]Interrupted: the ranking so far.[/]")
    units = {
        "deal": "EV = expected net deal points (yours minus the opponent's)",
        "win": "EV = probability of winning the partie",
        "settlement": "EV = expected partie settlement (points, yours)",
    }[result.objective]
    if result.partie is not None:
        p = result.partie
        console.print(
            f"Partie: {p.my_score} to {p.opp_score} before deal {p.deal}; ranking by "
            f"{result.objective}"
        )
    table = Table(
        title=f"{units} ± 95% interval; percentages of worlds",
        title_justify="left",
        box=box.SIMPLE_HEAD,
    )
    rouge = result.rules.carte_rouge
    for col, justify in (
        ("#", "right"),
        ("discard", "left"),
        ("keep", "left"),
        ("EV ± 95%", "right"),
        ("worlds", "right"),
        ("P(best)", "right"),
        ("win pt/seq/sets", "right"),
        ("pique/repique/capot" + ("/rouge" if rouge else ""), "right"),
    ):
        table.add_column(col, justify=justify, no_wrap=col in ("discard", "keep"))
    for i, c in enumerate(d["candidates"][:top], 1):
        lo, hi = c["ci95"]
        digits = 4 if result.objective == "win" else 2
        ev = f"{c['ev']:+.{digits}f} ± {(hi - lo) / 2:.{digits}f}"
        if c["play"] != result.play:
            ev += f" ({c['play']})"
        bonuses = [c["p_pique"], c["p_repique"], c["p_capot"]]
        if rouge:
            bonuses.append(c["p_carte_rouge"])
        table.add_row(
            str(i),
            _grouped(c["discard"]),
            _grouped(c["keep"]),
            ev,
            f"{c['samples']:,}",
            _pct(c["p_best"]) if "p_best" in c else "",
            _slash([c["p_win_point"], c["p_win_sequence"], c["p_win_sets"]]),
            _slash(bonuses),
        )
    console.print(table)
    if why:
        _print_why(console, result)


def _print_why(console: Console, result: AdviceResult) -> None:
    cmp = result.comparison
    zone = cmp.get("indifference")
    if zone is not None and zone["tied_with_best"]:
        tied = "; ".join(" ".join(d) for d in zone["tied_with_best"])
        console.print(
            f"[bold]Tied with the best within {zone['delta']:g} points[/] (at the race's "
            f"confidence): {tied}."
        )
    if len(result.candidates) < 2 or not result.candidates[0].samples:
        return
    best, second = result.candidates[0], result.candidates[1]
    d = 4 if result.objective == "win" else 2
    if "gap_to_second" not in cmp:  # the runner-up left the race early: no paired gap
        lo, hi = best.ci95
        console.print(
            f"Best: discard {_cards(best)} (EV {best.ev:+.{d}f}, 95% [{lo:+.{d}f}, {hi:+.{d}f}] "
            f"on {best.samples:,} worlds). Every other discard was dropped as clearly worse "
            f"during the race; the runner-up, discard {_cards(second)}, had EV "
            f"{second.ev:+.{d}f} on {second.samples:,} worlds when it was dropped."
        )
    else:
        lo, hi = cmp["gap_ci95"]
        console.print(
            f"Best: discard {_cards(best)} (EV {best.ev:+.{d}f}). Against discarding "
            f"{_cards(second)}: {cmp['gap_to_second']:+.4g} {_UNIT[result.objective]}, 95% "
            f"[{lo:+.4g}, {hi:+.4g}] on {cmp['worlds']:,} shared worlds."
        )
    paired = "gap_to_second" in cmp
    if paired and cmp["identical_on_every_world"]:
        console.print("The two scored the same on every world: they cannot be told apart.")
    elif paired and not cmp["distinguishable"]:
        console.print(
            "[bold]The interval includes 0: these two cannot be told apart with this many "
            "worlds[/] (a smaller --precision or more --samples may separate them)."
        )
    t = Table(
        title="Why: components, best against runner-up", title_justify="left", box=box.SIMPLE_HEAD
    )
    for col in ("", "best", "runner-up", "difference"):
        t.add_column(col, justify="right" if col else "left")
    a, b = best.to_dict(result.rules.carte_rouge), second.to_dict(result.rules.carte_rouge)
    rows = [
        ("your declaration points", "declaration_points", False),
        ("opponent's declaration points", "opponent_declaration_points", False),
        ("your play points (with cards, pique)", "play_points", False),
        ("opponent's play points", "opponent_play_points", False),
        ("P(you win the point)", "p_win_point", True),
        ("P(you win sequences)", "p_win_sequence", True),
        ("P(you win sets)", "p_win_sets", True),
        ("P(pique)", "p_pique", True),
        ("P(repique)", "p_repique", True),
        ("P(capot)", "p_capot", True),
        ("P(opponent repique)", "p_opponent_repique", True),
    ]
    if result.rules.carte_rouge:
        rows.append(("P(carte rouge)", "p_carte_rouge", True))
    for label, key, is_p in rows:
        if is_p:
            t.add_row(label, _pct(a[key]), _pct(b[key]), f"{100 * (a[key] - b[key]):+.1f} pts")
        else:
            t.add_row(label, f"{a[key]:.2f}", f"{b[key]:.2f}", f"{a[key] - b[key]:+.2f}")
    console.print(t)


def _cards(c) -> str:
    return " ".join(c.to_dict(False)["discard"])


@cli.command("discard")
@click.argument("hand", type=HAND12)
@role_options
@click.option(
    "--play",
    type=click.Choice(PLAY_CHOICES),
    default=None,
    show_default=f"{DEFAULT_PLAY}; {PARTIE_PLAY} with --score",
    help="How both players play the tricks (heuristic: card counting, guards, capot defence; "
    "none = declarations only; dd screens every discard with greedy play, pimc and pimcw "
    "with the heuristic, then they refine the best --refine with that play; the refines of "
    "pimc and pimcw use the heuristic as a control variate). --play heuristic answers in "
    "about a second.",
)
@click.option(
    "--samples",
    "-n",
    "--deals",
    "samples",
    type=click.IntRange(16, 10**9),
    default=None,
    show_default=f"{MAX_SAMPLES:,}",
    help="Most worlds any discard gets.",
)
@click.option(
    "--precision",
    type=Finite(0, min_open=True),
    default=None,
    show_default=f"{PIMC_PRECISION} with pimc, else {PRECISION}",
    help="Stop when the five best (pimc: every discard still racing) have this standard error "
    "(points).",
)
@click.option(
    "--time-limit",
    type=SECONDS,
    default=None,
    show_default="no limit",
    help="Stop after this many seconds of sampling and print the ranking so far. Kernel "
    "compilation on a first run is not counted (it happens before the clock starts).",
)
@click.option(
    "--top", type=click.IntRange(1), default=10, show_default=True, help="Rows of the table."
)
@click.option(
    "--opponent",
    type=click.Choice(policy_names("exchange")),
    default=DEFAULT_OPPONENT,
    show_default=True,
    help="The opponent's exchange policy (greedy was the default until 2026-12).",
)
@click.option(
    "--elder-model",
    type=click.Choice(policy_names("exchange")),
    default=None,
    help="Younger: the policy elder's exchange is modelled by (default: --opponent).",
)
@click.option("--elder-carte-blanche", is_flag=True, help="Younger: elder showed carte blanche.")
@click.option(
    "--refine",
    type=click.IntRange(1),
    default=None,
    show_default=f"{PIMC_REFINE} with pimc, {REFINE} with dd",
    help="With --play dd/pimc: discards refined with that play.",
)
@click.option(
    "--refine-all",
    is_flag=True,
    help="With --play pimc: drop no refined discard, so each reaches the --precision (by "
    "default only those still racing at the end do; the others were shown worse).",
)
@click.option(
    "--indifference",
    type=Finite(0, min_open=True),
    default=None,
    metavar="POINTS",
    help="With --play pimc: stop once the discards still racing are each within POINTS of the "
    "best or clearly worse (at the race's confidence), and report the former as tied.",
)
@seed_option("Seed of the worlds (same seed, same ranking).")
@quiet_option("No progress bar.")
@partie_options
@json_option
@rules_options(Rules)
@long_command
def discard_command(
    hand,
    role,
    elder_took,
    play,
    samples,
    precision,
    time_limit,
    top,
    opponent,
    elder_model,
    elder_carte_blanche,
    refine,
    refine_all,
    indifference,
    seed,
    quiet,
    objective,
    score,
    deal_no,
    as_json,
    rules: Rules,
):
    """What should I discard? Ranks every legal exchange of a 12-card hand by expected net deal
    score (yours minus the opponent's) on worlds consistent with what you know, all discards on
    the same worlds; clearly worse discards are dropped early, the rest get more worlds.

    By default every discard is screened with the heuristic play, then the best 10 are raced
    with pimc play to a standard error of 0.5 (a few seconds; the first run compiles the pimc
    solver once, about half a minute). --play heuristic gives the screen alone, in about a
    second. Ranking by the partie (--score, --deal) uses the heuristic screen by default.

    \b
    Examples:
      piquet discard "AS KS QS JS 9H 8H 7H AD KD AC QC JC"
      piquet discard "AS KS QS JS 9H 8H 7H AD KD AC QC JC" --play heuristic
      piquet discard "AH KH 9H 7H QS TS 8S JD 9D 8C 7C KC" --younger --elder-took 5
      piquet discard "S:AKQJ H:987 D:AK C:AQJ" --play pimc --refine 20 --precision 0.5 --json
      piquet discard "AS KS QS JS 9H 8H 7H AD KD AC QC JC" --score 84:61 --deal 5
    """
    partie = partie_goal(objective, score, deal_no, rules)
    play, precision, refine = default_settings(
        play, DEFAULT if precision is None else precision, refine, partie
    )
    if role == "elder" and (elder_model or elder_carte_blanche):
        raise click.UsageError("--elder-model and --elder-carte-blanche need --younger")
    if (refine_all or indifference is not None) and play not in CV_PLAYS:
        raise click.UsageError("--refine-all and --indifference are options of --play pimc/pimcw")

    common = dict(  # what the screen-first ranking and the answer share
        role=role,
        elder_took=elder_took,
        samples=samples,
        top=top,
        opponent=opponent,
        seed=seed,
        rules=rules,
        elder_model=elder_model,
        elder_carte_blanche=elder_carte_blanche,
    )

    def screen_first() -> None:
        """On a first run with pimc: the heuristic screen's ranking while the solver compiles."""
        if as_json:
            return
        h_play, h_precision, h_refine = default_settings("heuristic", DEFAULT, None, partie)
        with _Bar(quiet) as bar:
            first = advise(
                hand, play=h_play, precision=h_precision, refine=h_refine, progress=bar, **common
            )
        _console().print(f"[bold]{SCREEN_FIRST}[/]")
        _print(first, min(top, SCREEN_FIRST_ROWS), why=False)
        if not stop_requested():
            _console().print(f"[bold]{PIMC_AFTER}[/]\n")

    try:
        warm_up(
            hand,
            role,
            elder_took,
            play,
            opponent,
            seed,
            rules,
            elder_model,
            notice=lambda kernels, expect: compile_notice(*kernels, quiet=quiet, expect=expect),
            preliminary=screen_first,
        )
        if stop_requested():
            return
        with _Bar(quiet or as_json) as bar:
            result = advise(
                hand,
                play=play,
                precision=precision,
                time_limit=time_limit,
                refine=refine,
                progress=bar,
                partie=partie,
                refine_all=refine_all,
                indifference=indifference,
                **common,
            )
    except AdviceError as err:
        raise click.UsageError(str(err)) from None
    if as_json:
        data = result.to_dict()
        if result.interrupted:  # only then, so complete runs keep their exact output
            data["partial"] = True
        echo_json(data)
        return
    _print(result, top)
