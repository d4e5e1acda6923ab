"""`oddsmith shadows battle|value`: posse against posse, turn by turn, and what each dollar buys.

``battle POSSE --vs POSSE2`` plays the battle of :mod:`oddsmith.shadows.battle`
(Monte Carlo, every figure with its standard error; Turn 1's activation-order
odds exact): on the book's 3' x 3' table by default (``--movement table``:
Showdown deployment, Moves, Charges and Fights, ``--terrain`` a cover density,
``--plan``/``--vs-plan`` each side's policy), or the old firefight at one
fixed range (``--movement none``, with ``--range``, ``--cover``, ``--vs-cover``).
``value POSSE --vs POSSE2`` values every purchase a model of POSSE could make
on the same battle (:mod:`oddsmith.shadows.value`).
POSSE is a posse file (TOML) or the name of a shipped sample posse
(unaligned, twilight-order, ...).

JSON contract of ``battle``: ``p_a_wins``, ``p_b_wins``, ``p_draw``,
``p_a_bottles``, ``p_b_bottles``, ``turns_mean``, ``casualties_a``,
``casualties_b``, ``p_event_per_turn``, ``fights_mean``, ``p_a_fight_casualties``,
``p_b_fight_casualties`` (and more figures), ``stderr`` with the same keys,
``models`` (per model ``p_casualty``, ``p_downed_at_end``, ``p_fought`` and
their ``stderr``), ``movement``, ``terrain``, ``plan_a``, ``plan_b``,
``activation_exact``, ``notes``, ``trials``, ``seed``.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import typer

from oddsmith.commands._common import check_output
from oddsmith.commands.shadows_dice import FORMAT_OPTION, OUTPUT_OPTION
from oddsmith import lazy
from oddsmith.errors import OddsmithError
from oddsmith.output import Format, dumps_json, emit, fold_lines, format_frame, note
from oddsmith.sampling import check_trials, check_workers
pd = lazy.module("pandas")  # heavy modules load when a command runs (docs/design.md, 'Start-up')
B = lazy.module("oddsmith.shadows.battle")
P = lazy.module("oddsmith.shadows.posse")
V = lazy.module("oddsmith.shadows.value")

POSSE_HELP = "Posse file (TOML), or a shipped sample posse by name (unaligned, twilight-order, ...)."
VS_HELP = "The opposing posse: a posse file or a sample posse name."
RANGE_HELP = ("--movement none only: how far apart the posses stand: inches (default 10; each Weapon uses its own "
              "range band, out of Long Range it cannot shoot) or short, medium or long (every Weapon at that band).")
COVER_HELP = "--movement none only: POSSE's models have Cover (-1 Die to hit them)."
VS_COVER_HELP = "--movement none only: the --vs posse's models have Cover."
MOVEMENT_HELP = ("table (default): the book's 3' x 3' table, Showdown deployment, Moves, Charges, Fights and the "
                 "book's targeting; none: the old firefight at one fixed --range.")
TERRAIN_HELP = ("--movement table: how much Cover the table gives: open (default, none), light (a Line of Fire is in "
                "Cover 1 time in 4), dense (1 in 2), or that chance as a number from 0 to 1.")
PLAN_HELP = ("How POSSE plays on the table: gunline (keep distance and shoot), brawl (close in and Charge) or "
             "balanced (default: each model by its Weapons and Fighting Skills).")
VS_PLAN_HELP = "How the --vs posse plays: gunline, brawl or balanced (default)."
TURNS_HELP = "Game Turns to play at most (the book's game has 8)."
TARGETS_HELP = ("Who each shot goes at: most-dangerous (default), weakest or boss (on the table: the model a "
                "Spotting Test tries for when it is not the closest), or closest (on the table: never a Spotting "
                "Test).")
SEED_HELP = "Seed of the simulation; the same seed gives the same figures whatever --workers."
WORKERS_HELP = "Worker threads."
EVENTS_HELP = ("The Events table rolled when identical cards are revealed: unexpected (the book's Unexpected Events), "
               "supernatural (the Supernatural Events, which a Dracula's America game may roll instead) or none.")
ACTIVATION_HELP = ("Solo or Dual Activations: auto (Dual while a side has more models to act than cards left, else Solo), "
                   "dual or solo.")


class TargetsOption(str, enum.Enum):
    most_dangerous = "most-dangerous"
    weakest = "weakest"
    boss = "boss"
    closest = "closest"


class MovementOption(str, enum.Enum):
    """As battle.MOVEMENT_MODES (a test keeps them equal; the CLI does not import the battle to start)."""
    table = "table"
    none = "none"


class PlanOption(str, enum.Enum):
    """As battle.PLANS."""
    gunline = "gunline"
    brawl = "brawl"
    balanced = "balanced"


class EventsOption(str, enum.Enum):
    """As battle.EVENT_TABLES."""
    unexpected = "unexpected"
    supernatural = "supernatural"
    none = "none"


class ActivationOption(str, enum.Enum):
    auto = "auto"
    dual = "dual"
    solo = "solo"


# Options `battle` and `value` both take, declared once (as commands/shadows_dice.py does).
POSSE_ARGUMENT = typer.Argument(..., help=POSSE_HELP)
VS_OPTION = typer.Option(..., "--vs", metavar="POSSE", help=VS_HELP)  # a posse here, not a Doomtown deck
RANGE_OPTION = typer.Option(None, "--range", help=RANGE_HELP, show_default=False)
MOVEMENT_OPTION = typer.Option(MovementOption.table, "--movement", help=MOVEMENT_HELP)
TERRAIN_OPTION = typer.Option("open", "--terrain", help=TERRAIN_HELP)
PLAN_OPTION = typer.Option(PlanOption.balanced, "--plan", help=PLAN_HELP)
VS_PLAN_OPTION = typer.Option(PlanOption.balanced, "--vs-plan", help=VS_PLAN_HELP)
COVER_OPTION = typer.Option(False, "--cover", help=COVER_HELP)
VS_COVER_OPTION = typer.Option(False, "--vs-cover", help=VS_COVER_HELP)
TURNS_OPTION = typer.Option(8, "--turns", help=TURNS_HELP)
TARGETS_OPTION = typer.Option(TargetsOption.most_dangerous, "--targets", help=TARGETS_HELP)
ACTIVATION_OPTION = typer.Option(ActivationOption.auto, "--activation", help=ACTIVATION_HELP)
EVENTS_OPTION = typer.Option(EventsOption.unexpected, "--events", help=EVENTS_HELP)
SEED_OPTION = typer.Option(None, "--seed", help=SEED_HELP)
WORKERS_OPTION = typer.Option(1, "--workers", "-w", help=WORKERS_HELP)


def load_posse_arg(spec: str, what: str = "POSSE") -> P.Posse:
    """A posse file, a sample posse or a Faction by name (the one resolver, :func:`P.load_posse_spec`)."""
    return P.load_posse_spec(spec, what)


def _pm(value: float, se: float, digits: int = 4) -> str:
    return f"{value:.{digits}f} ± {se:.{digits}f}"


FIGURE_MEANINGS = {
    "p_a_wins": "A wins", "p_b_wins": "B wins", "p_draw": "a draw",
    "p_a_bottles": "A Bottles Out", "p_b_bottles": "B Bottles Out",
    "p_a_wiped_out": "A wiped out", "p_b_wiped_out": "B wiped out",
    "p_by_victory_points": "decided by Victory Points after the last Turn",
    "turns_mean": "Game Turns played", "casualties_a": "A's Casualties", "casualties_b": "B's Casualties",
    "victory_points_a": "A's Victory Points", "victory_points_b": "B's Victory Points",
    "p_event_per_turn": "Unexpected Events per Game Turn", "p_a_first_turn_1": "A Activates first in Turn 1",
    "p_event_turn_1": "an Event in Turn 1",
    "fights_mean": "Fights per battle (Fight Tests and finishing blows)",
    "p_a_fight_casualties": "A's Casualties from Fights", "p_b_fight_casualties": "B's Casualties from Fights",
}
"""What each summary figure is, in words (the table and Markdown views; JSON and CSV keep the names)."""


def _summary_view(result: B.BattleResult) -> pd.DataFrame:
    s = result.summary
    return pd.DataFrame({"figure": s["figure"],
                         "value ± se": [_pm(v, e) for v, e in zip(s["value"], s["stderr"])],
                         "what": [FIGURE_MEANINGS.get(f, "") for f in s["figure"]]})


MODEL_FIGURES = ("p_casualty", "p_downed_at_end", "p_fought")
"""Per-model figures, each with a ``<figure>_stderr`` column in ``BattleResult.models`` (p_fought: took part in
at least one Fight; 0 with --movement none)."""


def _model_figures(m: pd.DataFrame) -> list[str]:
    return [f for f in MODEL_FIGURES if f in m.columns]


def _models_view(result: B.BattleResult) -> pd.DataFrame:
    m = result.models
    out = pd.DataFrame({"side": m["side"], "model": m["model"], "rank": m["rank"], "boss": m["boss"]})
    for f in _model_figures(m):
        out[f"{f} ± se"] = [_pm(v, e) for v, e in zip(m[f], m[f"{f}_stderr"])]
    return out


def _tidy(result: B.BattleResult) -> pd.DataFrame:
    """One long table for CSV: the summary figures, then each model's figures."""
    rows = [{"side": "", "model": "", "figure": r.figure, "value": r.value, "stderr": r.stderr}
            for r in result.summary.itertuples()]
    figures = _model_figures(result.models)
    for r in result.models.to_dict("records"):
        for f in figures:
            rows.append({"side": r["side"], "model": r["model"], "figure": f, "value": r[f],
                         "stderr": r[f"{f}_stderr"]})
    return pd.DataFrame(rows)


def _table_mode(o: B.BattleOptions) -> bool:
    return getattr(o, "movement", "none") != "none"


def _terrain_words(o: B.BattleOptions) -> str:
    """'terrain light (a Line of Fire in Cover with chance 0.25)' from the options' cover density."""
    c = float(o.terrain)
    name = next((n for n, v in B.TERRAINS.items() if v == c), None)
    chance = f"a Line of Fire in Cover with chance {c:g}" if c else "no Cover"
    return f"terrain {name or f'{c:g}'} ({chance})"


def _head(result_setup: B.BattleSetup, trials: int, seed: int) -> str:
    o = result_setup.options
    a, b = result_setup.a.posse, result_setup.b.posse
    events = B.EVENT_TABLE_WORDS[o.events]
    policies = (f"at most {o.turns} Game Turns; targets {o.targets}; activations {o.activation}; re-roll reading "
                f"{o.reading.name}" + (f"; {events}" if events else ""))
    if _table_mode(o):
        where = (f"Battle: A {a.name} ({len(a.models)} models, plan {o.plan_a}) against B {b.name} "
                 f"({len(b.models)} models, plan {o.plan_b})\non the table (movement table: 36\" x 36\", Showdown "
                 f"deployment), {_terrain_words(o)}\n")
    else:
        cover = lambda c: "in Cover" if c else "in the open"  # noqa: E731
        where = (f"Battle: A {a.name} ({len(a.models)} models, {cover(o.cover_a)}) against B {b.name} "
                 f"({len(b.models)} models, {cover(o.cover_b)}) at {o.distance.label}, open ground (movement none: "
                 f"no Moves or Fights)\n")
    return f"{where}{policies}\nMonte Carlo: {trials} battles, seed {seed}, PCG64"


def render_battle(result: B.BattleResult, fmt: Format) -> str:
    if fmt is Format.json:
        return dumps_json(result.to_json())
    if fmt is Format.csv:
        return format_frame(_tidy(result), fmt)
    head = _head(result.setup, result.trials, result.seed)
    parts = [fold_lines(head) + "\n" if fmt is Format.table else f"## {head}\n"]
    parts.append(format_frame(_summary_view(result), fmt, title="Outcome (p_draw: both out in one Turn, or equal "
                                                                "Victory Points after the last Turn)"))
    parts.append(format_frame(_models_view(result), fmt, title="Models"))
    parts.append(format_frame(result.activation, fmt, float_digits=6,
                              title="Turn 1 exactly, by card counting (both Decks full, best card first)"))
    if result.notes:
        parts.append(_notes(result.notes, fmt))
    return "\n".join(parts)


def _notes(notes: list[str], fmt: Format) -> str:
    """The Notes list (a text table's bullets wrapped to the terminal)."""
    bullets = [fold_lines(f"- {n}") if fmt is Format.table else f"- {n}" for n in notes]
    return "Notes:\n" + "\n".join(bullets) + "\n"


@dataclass(frozen=True)
class BattleArgs:
    """The battle options of `battle` and `value` as the user typed them (``range_`` None: not given)."""

    movement: MovementOption = MovementOption.table
    terrain: str = "open"
    plan: PlanOption = PlanOption.balanced
    vs_plan: PlanOption = PlanOption.balanced
    range_: Optional[str] = None
    cover: bool = False
    vs_cover: bool = False
    turns: int = 8
    targets: TargetsOption = TargetsOption.most_dangerous
    activation: ActivationOption = ActivationOption.auto
    events: EventsOption = EventsOption.unexpected

    def options(self) -> B.BattleOptions:
        """The battle's options; the fixed-range options with the table battle are refused with one line."""
        if self.movement is MovementOption.table:
            if self.range_ is not None:
                raise OddsmithError("--range applies to --movement none only: on the table the range comes from the "
                                    "players' moves (drop --range, or add --movement none)")
            given = [o for o, on in (("--cover", self.cover), ("--vs-cover", self.vs_cover)) if on]
            if given:
                raise OddsmithError(f"{' and '.join(given)} appl{'y' if len(given) > 1 else 'ies'} to --movement none "
                                    f"only: on the table --terrain decides Cover, shot by shot (drop "
                                    f"{' and '.join(given)}, or add --movement none)")
        return B.battle_options(B.DEFAULT_RANGE if self.range_ is None else self.range_, cover=self.cover,
                                vs_cover=self.vs_cover, turns=self.turns, targets=self.targets.value,
                                activation=self.activation.value, movement=self.movement.value,
                                events=self.events.value,
                                terrain=self.terrain, plan=self.plan.value, vs_plan=self.vs_plan.value)


def _prepare(posse: str, vs: str, args: BattleArgs, trials: int, workers: int, output: Optional[Path]
             ) -> tuple[P.Posse, P.Posse, B.BattleOptions]:
    """Check the options both commands share, then load the two posses (bad input: one clear error, nothing written)."""
    check_output(output)
    check_trials(trials)
    check_workers(workers)
    opts = args.options()
    return load_posse_arg(posse), load_posse_arg(vs, "--vs"), opts


def register(app: typer.Typer) -> None:
    """Add `battle` and `value` to the `oddsmith shadows` group."""

    @app.command("battle")
    def battle_cmd(
        posse: str = POSSE_ARGUMENT,
        vs: str = VS_OPTION,
        movement: MovementOption = MOVEMENT_OPTION,
        terrain: str = TERRAIN_OPTION,
        plan: PlanOption = PLAN_OPTION,
        vs_plan: PlanOption = VS_PLAN_OPTION,
        range_: Optional[str] = RANGE_OPTION,
        cover: bool = COVER_OPTION,
        vs_cover: bool = VS_COVER_OPTION,
        turns: int = TURNS_OPTION,
        targets: TargetsOption = TARGETS_OPTION,
        activation: ActivationOption = ACTIVATION_OPTION,
        events: EventsOption = EVENTS_OPTION,
        trials: int = typer.Option(B.DEFAULT_TRIALS, "--trials", "-t", help="Battles to simulate."),
        seed: Optional[int] = SEED_OPTION,
        workers: int = WORKERS_OPTION,
        fmt: Format = FORMAT_OPTION,
        output: Optional[Path] = OUTPUT_OPTION,
    ) -> None:
        """Posse against posse on the table (or --movement none): who wins, who Bottles Out, who falls."""
        args = BattleArgs(movement, terrain, plan, vs_plan, range_, cover, vs_cover, turns, targets, activation, events)
        a, b, opts = _prepare(posse, vs, args, trials, workers, output)
        result = B.battle(a, b, opts, trials=trials, seed=seed, workers=workers)
        emit(render_battle(result, fmt), output)

    @app.command("value")
    def value_cmd(
        posse: str = POSSE_ARGUMENT,
        vs: str = VS_OPTION,
        movement: MovementOption = MOVEMENT_OPTION,
        terrain: str = TERRAIN_OPTION,
        plan: PlanOption = PLAN_OPTION,
        vs_plan: PlanOption = VS_PLAN_OPTION,
        range_: Optional[str] = RANGE_OPTION,
        cover: bool = COVER_OPTION,
        vs_cover: bool = VS_COVER_OPTION,
        turns: int = TURNS_OPTION,
        targets: TargetsOption = TARGETS_OPTION,
        activation: ActivationOption = ACTIVATION_OPTION,
        events: EventsOption = EVENTS_OPTION,
        trials: int = typer.Option(V.DEFAULT_TRIALS, "--trials", "-t",
                                   help="Battles per purchase (the same battles for each: common random numbers)."),
        seed: Optional[int] = SEED_OPTION,
        workers: int = WORKERS_OPTION,
        top: int = typer.Option(0, "--top", help="Show only the best N purchases (0: all)."),
        budget: Optional[int] = typer.Option(None, "--budget", help="Dollars a purchase may cost to be ranked first (default: what the posse has left under its Dollar Limit); dearer ones are listed apart."),
        fmt: Format = FORMAT_OPTION,
        output: Optional[Path] = OUTPUT_OPTION,
    ) -> None:
        """What each $ buys: every Skill, Weapon and Gear a model could buy, by the change in P(win) per $."""
        if top < 0:
            raise OddsmithError(f"--top must be 0 or more, got {top}")
        V.check_budget(budget)
        args = BattleArgs(movement, terrain, plan, vs_plan, range_, cover, vs_cover, turns, targets, activation, events)
        a, b, opts = _prepare(posse, vs, args, trials, workers, output)
        result = V.value(a, b, opts, trials=trials, seed=seed, workers=workers, budget=budget)
        emit(render_value(result, fmt, top), output)


def _pp(value: float, se: float) -> str:
    return f"{100 * value:+.1f} ± {100 * se:.1f}"


def _skipped_lines(sk: pd.DataFrame, n_models: int) -> str:
    """One bullet per reason, the items it covers (with how many models when not all of them); purchases a rule
    forbids, by item with the models (the rule's own words are in the JSON, CSV and Markdown output)."""
    out = []
    banned = sk["reason"].str.startswith("not allowed")
    for reason, grp in sk[~banned].groupby("reason", sort=True):
        counts = grp.groupby(["kind", "item"], sort=True).size()
        items = [item if k == n_models else f"{item} ({k} of {n_models} models)" for (_, item), k in counts.items()]
        out.append(fold_lines(f"- {reason}: {', '.join(items)}"))
    if banned.any():
        per_item = [f"{item} for {', '.join(grp['model'])}" for item, grp in sk[banned].groupby("item", sort=True)]
        out.append(fold_lines(f"- not allowed by the posse-building rules: {'; '.join(per_item)}"))
    return "\n".join(out) + "\n"


OVER_BUDGET_SHOWN = 5
"""Purchases over the budget shown on screen without --top (JSON and CSV hold them all)."""


def _value_view(table: pd.DataFrame, marks: dict[str, str]) -> pd.DataFrame:
    return pd.DataFrame({
        "model": table["model"], "item": [f"{i}{marks.get(w, '')}" for i, w in zip(table["item"], table["why"])],
        "$": [f"{c}*" if over else f"{c}" for c, over in zip(table["cost"], table["over_limit"])],
        "ΔP(win) pp": [_pp(v, e) for v, e in zip(table["d_p_win"], table["d_p_win_stderr"])],
        "Δcasualties": [f"{v:+.3f} ± {e:.3f}"
                        for v, e in zip(table["d_casualties_b"], table["d_casualties_b_stderr"])],
        "pp/$": 100 * table["d_p_win_per_dollar"], "Δcas/$": table["d_casualties_b_per_dollar"],
    })


def render_value(result: V.ValueResult, fmt: Format, top: int = 0) -> str:
    table = result.affordable.head(top) if top else result.affordable
    dear = result.over_budget
    if fmt is Format.json:
        d = result.to_json()
        d["purchases"] = table
        return dumps_json(d)
    if fmt is Format.csv:
        return format_frame(pd.concat([table, dear], ignore_index=True) if not top else table, fmt)
    shown_dear = dear.head(top or OVER_BUDGET_SHOWN)
    base = result.base
    head = (_head(base.setup, result.trials, result.seed).replace("Battle:", "Value per $:", 1)
            + f"\nthe values hold for {result.battle_words}"
            + f"\nas it is: P(A wins) {_pm(base['p_a_wins'], base.stderr('p_a_wins'))}, enemy Casualties "
              f"{_pm(base['casualties_b'], base.stderr('casualties_b'))}\n"
              "every purchase replays the same battles (common random numbers); ± is the paired standard error "
              "of the change, from the per-battle differences")
    used = [w for w in V.EXPLANATIONS if w in set(table["why"]) | set(shown_dear["why"])]
    marks = {w: "†" * (k + 1) for k, w in enumerate(used)}
    view = _value_view(table, marks)
    money = "no budget (Basic method)" if result.budget is None else f"costing at most ${result.budget}" + (
        " (what the posse has left)" if result.budget == V.remaining_dollars(base.setup.a.posse) else "")
    title = (f"Purchases {money}, best ΔP(win) per $ first. Each row: the posse as it is plus that one purchase, "
             f"on the same battles; ΔP(win): the change in P(A wins), pp: percentage points; *: over the Dollar "
             f"Limit")
    dear_title = (f"Over the budget: the best {len(shown_dear)} of {len(dear)} purchases costing more than "
                  f"${result.budget} (--budget N ranks them)")
    sk = result.skipped
    why_lines = [f"{marks[w]} {V.EXPLANATIONS[w]}" for w in used]
    keys = ["model", "item"]
    if fmt is Format.table:
        parts = [fold_lines(head) + "\n", format_frame(view, fmt, title=fold_lines(title), float_digits=3, keys=keys)
                 if not view.empty else note(f"{title}: none") + "\n"]
        if not shown_dear.empty:
            parts.append(format_frame(_value_view(shown_dear, marks), fmt, title=fold_lines(dear_title),
                                      float_digits=3, keys=keys))
        if why_lines:
            parts.append("\n".join(fold_lines(line) for line in why_lines) + "\n")
        if not sk.empty:
            parts.append("Not valued\n" + _skipped_lines(sk, len(base.setup.a.posse.models)))
    else:
        parts = [f"## {head}\n", format_frame(view, fmt, title=title, float_digits=3)]
        if not shown_dear.empty:
            parts.append(format_frame(_value_view(shown_dear, marks), fmt, title=dear_title, float_digits=3))
        if why_lines:
            parts.append("\n".join(f"- {line}" for line in why_lines) + "\n")
        if not sk.empty:
            summary = sk.groupby(["kind", "item", "reason"], sort=True).size().reset_index(name="models")
            parts.append(format_frame(summary, fmt, title="Not valued"))
    if base.notes:
        parts.append(_notes(base.notes, fmt))
    return "\n".join(parts)
