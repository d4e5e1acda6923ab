"""`oddsmith shadows advance|income|injury|recruit|search|posse`: campaign rolls and posse builds.

Every figure here is exact (the rolls are tiny enumerations, see
:mod:`oddsmith.shadows.campaign`). Each command prints one tidy table with
``--format table|csv|json|md``; JSON is an object with the command's
parameters, ``exact: true`` and the table under ``rows`` (probabilities as
floats in [0, 1]; ``--exact-fractions`` adds ``*_exact`` fields as
"numerator/denominator" strings).
"""
from __future__ import annotations

import enum
from pathlib import Path
from typing import Any, List, Optional

import typer

from oddsmith.commands.shadows_dice import FORMAT_OPTION, OUTPUT_OPTION
from oddsmith import lazy
from oddsmith.errors import OddsmithError
from oddsmith.output import Format, dumps_json, emit, format_frame, note

R = lazy.module("oddsmith.rules.shadows")  # the rules load when a command runs, not for --help
pd = lazy.module("pandas")  # heavy modules load when a command runs (docs/design.md, 'Start-up')
C = lazy.module("oddsmith.shadows.campaign")
P = lazy.module("oddsmith.shadows.posse")

EXACT_HELP = "Add every probability as an exact fraction (columns/fields ending in _exact)."
EXACT_FRACTIONS_OPTION = typer.Option(False, "--exact-fractions", help=EXACT_HELP)


def _render(df: pd.DataFrame, fmt: Format, title: str, meta: dict[str, Any], *, digits: int = 4) -> str:
    if fmt is Format.json:
        return dumps_json({**meta, "exact": True, "rows": df})
    return format_frame(df, fmt, title=None if fmt is Format.csv else title, float_digits=digits)


def _ranks(values: Optional[List[str]]) -> Optional[list[R.Rank]]:
    return [R.rank(v) for v in values] if values else None


class InjuryCauseOption(str, enum.Enum):
    casualty = "casualty"
    downed = "downed"
    both = "both"


class PosseView(str, enum.Enum):
    summary = "summary"
    all = "all"
    roster = "roster"
    costs = "costs"
    shooting = "shooting"
    fight = "fight"


def register(app: typer.Typer) -> None:
    """Add the campaign and posse commands to the `oddsmith shadows` group."""

    @app.command("advance")
    def advance_cmd(
        rank: Optional[List[str]] = typer.Option(None, "--rank", "-r", help="Model Rank (Novice/Veteran/Hero or D6/D8/D10); repeat for several. Default: all."),
        exp: Optional[int] = typer.Option(None, "--exp", help="Current EXP. Default: every EXP up to a certain Advance."),
        fmt: Format = FORMAT_OPTION,
        output: Optional[Path] = OUTPUT_OPTION,
        exact_fractions: bool = EXACT_FRACTIONS_OPTION,
    ) -> None:
        """Advance roll odds: Grit Die + EXP reaching 6/8/10, then the D6 Advance table."""
        if exp is not None and exp < 0:
            raise OddsmithError(f"--exp must not be negative, got {exp}")
        df = C.advance_table(_ranks(rank), exp, exact=exact_fractions)
        title = "Advance rolls (Grit Die + EXP >= 6 Novice / 8 Veteran / 10 Hero; D6: 1 Preferred Skill, 2-5 Random Skill, 6 Rank-Up)"
        emit(_render(df, fmt, title, {"command": "advance"}), output)

    @app.command("injury")
    def injury_cmd(
        rank: Optional[List[str]] = typer.Option(None, "--rank", "-r", help="Model Rank; repeat for several. Default: all."),
        cause: InjuryCauseOption = typer.Option(InjuryCauseOption.both, "--cause", help="How the model ended the game: casualty, downed or both."),
        fmt: Format = FORMAT_OPTION,
        output: Optional[Path] = OUTPUT_OPTION,
        exact_fractions: bool = EXACT_FRACTIONS_OPTION,
    ) -> None:
        """Injury odds after a game: a Casualty rolls the D10 Injury table, a Downed model first rolls its Grit Die."""
        causes = None if cause is InjuryCauseOption.both else cause.value
        df = C.injury_table(_ranks(rank), causes, exact=exact_fractions)
        title = "Injury (D10: 1 Dead, 2 Old Wound, 3 One-Eyed, 4 Limp, 5 Weakened, 6 Laid-Up; 7-10 are not on the table: no Injury)"
        emit(_render(df, fmt, title, {"command": "injury"}), output)

    @app.command("income")
    def income_cmd(
        won: bool = typer.Option(False, "--won", help="The posse won its game: $5D6 instead of $4D6."),
        encounters: bool = typer.Option(False, "--encounters", help="Show the Encounter odds (two, three, four of a kind) instead of the $ distribution."),
        supernatural: bool = typer.Option(False, "--supernatural", help="Name the Dracula's America (Supernatural) Encounters."),
        marked_cards: bool = typer.Option(False, "--marked-cards", help="A model uses the posse's Marked Cards: the lowest die re-rolled when it shows 3 or less; a new 1 is caught cheating (that model rolls for Injury)."),
        fmt: Format = FORMAT_OPTION,
        output: Optional[Path] = OUTPUT_OPTION,
        exact_fractions: bool = EXACT_FRACTIONS_OPTION,
    ) -> None:
        """Income ($4D6, $5D6 after a win) and the chance of each Encounter among the dice."""
        summary = C.income_summary(won, marked_cards=marked_cards)
        meta: dict[str, Any] = {"command": "income", "won": won, "dice": summary["dice"], "marked_cards": marked_cards}
        for key, value in summary.items():
            if key.startswith("p_") or key.startswith("expected_"):
                meta[key] = float(value)
                if exact_fractions:
                    meta[f"{key}_exact"] = value
        head = (f"Income {summary['dice']}D6: expected ${float(summary['expected_dollars']):.2f}; "
                f"P(Encounter) {float(summary['p_encounter']):.4f}, P(choice of two or more) "
                f"{float(summary['p_choice_of_encounters']):.4f}")
        if marked_cards:
            head += (f"\nwith Marked Cards (the lowest die re-rolled when it shows {C.MARKED_CARDS_REROLL_AT_MOST} or "
                     f"less): ${float(summary['expected_gain']):+.2f} on average; P(caught cheating: the nominated "
                     f"model rolls for Injury) {float(summary['p_caught_cheating']):.4f}")
        if encounters:
            meta["supernatural"] = supernatural
            df = C.encounter_table(won, supernatural=supernatural, exact=exact_fractions, marked_cards=marked_cards)
            title = head + "\nEncounters (a value showing 2, 3 or 4 times; an empty name: no entry in the rulebook text)"
        else:
            df = C.income_table(won, exact=exact_fractions, marked_cards=marked_cards)
            title = head
        emit(_render(df, fmt, title, meta), output)

    @app.command("recruit")
    def recruit_cmd(
        boss: Optional[str] = typer.Option(None, "--boss", "-b", help="Boss's Rank: show every score of its roll. Default: a summary for every Rank."),
        won: Optional[bool] = typer.Option(None, "--won/--lost", help="The posse won its last game (+1). Default: both, or lost with --boss."),
        fmt: Format = FORMAT_OPTION,
        output: Optional[Path] = OUTPUT_OPTION,
        exact_fractions: bool = EXACT_FRACTIONS_OPTION,
    ) -> None:
        """Recruitment roll: the Boss's Grit Die (+1 after a win) and the recruits it allows."""
        if boss is not None:
            r = R.rank(boss)
            df = C.recruitment_table(r, bool(won), exact=exact_fractions)
            title = (f"Recruitment, {r.label} Boss ({r.die_name}{' +1, won' if won else ''}): cumulative, "
                     f"Novices $4, Veterans $10")
            meta = {"command": "recruit", "boss": r.label, "won": bool(won)}
        else:
            df = C.recruitment_summary(None, won, exact=exact_fractions)
            title = "Recruitment by Boss Rank (p_veterans: at least one Veteran available)"
            meta = {"command": "recruit"}
        emit(_render(df, fmt, title, meta), output)

    @app.command("search")
    def search_cmd(
        boss: Optional[List[str]] = typer.Option(None, "--boss", "-b", help="Boss's Rank; repeat for several. Default: all."),
        fmt: Format = FORMAT_OPTION,
        output: Optional[Path] = OUTPUT_OPTION,
        exact_fractions: bool = EXACT_FRACTIONS_OPTION,
    ) -> None:
        """Searching for Uncommon Items: a Novice Boss rolls D3-1, a Veteran D4-1, a Hero D5-1."""
        df = C.uncommon_search_table(_ranks(boss), exact=exact_fractions)
        title = "Uncommon Items the Boss's Search allows (the most that may be bought this Campaign Turn)"
        emit(_render(df, fmt, title, {"command": "search"}), output)

    @app.command("posse")
    def posse_cmd(
        posse_file: Optional[str] = typer.Argument(None, metavar="[POSSE]", help="Posse file (TOML), or a shipped sample posse or Faction by name. Default: the unaligned sample."),
        faction: Optional[str] = typer.Option(None, "--faction", help="Use the shipped sample posse of this Faction (or 'unaligned')."),
        view: Optional[PosseView] = typer.Option(None, "--view", help="What to show: summary (the default on screen: one row per model), all (every table; the default for JSON), roster, costs, shooting or fight."),
        template: bool = typer.Option(False, "--template", help="Write a commented template posse file to start from (to --output, else to the screen) instead; it is legal as it stands."),
        reroll: str = typer.Option("b", "--reroll", help="Reading of the maximum-face re-roll: a or b (default b)."),
        fmt: Format = FORMAT_OPTION,
        output: Optional[Path] = OUTPUT_OPTION,
    ) -> None:
        """Check a posse against the posse-building rules; print its roster, costs, shooting and fight odds.

        A posse file is TOML: a [posse] table, then one [[model]] table per model. `oddsmith shadows posse
        --template -o my-posse.toml` writes a commented one to start from. Names are matched without regard to
        case, spaces, hyphens or apostrophes.

        \b
        [posse]
        name = "The Silver Creek Regulators"
        method = "advanced"        # basic | advanced | campaign
        dollar_limit = 100         # Advanced ($100); Basic: max_models = 8
        faction = "Twilight Order" # optional; native_american, dracula
        [prices]                   # optional: house prices for unpriced items
        "Sixgun" = 8
        [house_weapons."Rifle"]    # optional: stats the book does not give
        short = 8                  # Range band edges in inches; shots = 1;
        medium = 16                # long_dice_mod, medium_save_mod, ... = 0
        long = 24
        jam_die = "D10"
        [[model]]
        name = "Marshal Ezra Cole"
        rank = "Hero"              # Novice | Veteran | Hero (or D6 | D8 | D10)
        weapons = ["Pistol", "Carbine"]
        gear = ["Lasso"]           # and horse = "Horse"
        skills = ["Deadeye"]       # role = "Crusader", hired_gun = "Preacher",
                                   # arcanist = true, powers = [...], boss = true

        A broken rule is one line naming the model and the rule (exit status 2). The whole format, every
        rule checked and the Faction rules are in docs/shadows.md ('Posse files') and docs/rules-shadows.md.
        """
        if template:
            if posse_file is not None or faction is not None or view is not None:
                raise OddsmithError("--template writes the template only: give no POSSE, --faction or --view with it")
            emit(P.template_text(), output)
            return
        if posse_file is not None and faction is not None:
            raise OddsmithError("give a POSSE or --faction, not both")
        if faction is not None:
            posse = P.sample_posse(faction)
        else:
            posse = P.load_posse_spec(posse_file if posse_file is not None else P.DEFAULT_SAMPLE)
        reading = R.reroll_reading(reroll)
        if view is None:
            view = PosseView.all if fmt is Format.json else PosseView.summary
        if view is PosseView.all and fmt is Format.csv:
            raise OddsmithError("CSV holds one table: choose --view summary, roster, costs, shooting or fight")
        emit(render_posse(posse, view, fmt, reading), output)


def posse_sections(posse: P.Posse, view: PosseView, reading: R.RerollReading) -> dict[str, pd.DataFrame]:
    """The tables ``oddsmith shadows posse`` prints, by section name."""
    out: dict[str, pd.DataFrame] = {}
    if view is PosseView.summary:
        out["summary"] = P.summary_table(posse, reading=reading)
    if view in (PosseView.all, PosseView.roster):
        out["roster"] = P.roster_table(posse)
    if view in (PosseView.all, PosseView.costs):
        out["costs"] = P.cost_table(posse)
    if view in (PosseView.all, PosseView.shooting):
        out["shooting"] = P.shooting_table(posse, reading=reading)
    if view in (PosseView.all, PosseView.fight):
        out["fight"] = P.fight_table(posse, reading=reading)
    return out


def render_posse(posse: P.Posse, view: PosseView, fmt: Format, reading: R.RerollReading) -> str:
    sections = posse_sections(posse, view, reading)
    spent = P.spent(posse)
    limit = P.dollar_limit(posse)
    meta: dict[str, Any] = {
        "posse": posse.name, "faction": posse.faction.value, "method": posse.method.value, "models": len(posse.models),
        "cost": spent, "dollar_limit": limit, "infamy": posse.infamy, "reroll_reading": reading.name,
        "legal": True,
    }
    notes = [{"model": m, "weapon": w, "reason": why} for m, w, why in P.untabulated_weapons(posse)]
    if posse.house_weapons:
        meta["house_weapons"] = {n: {"short": w.short, "medium": w.medium, "long": w.long, "jam_die": f"D{w.jam_die}",
                                     "shots": w.shots_per_action,
                                     "dice_mods": {b.value: v for b, v in w.band_dice.items()},
                                     "save_mods": {b.value: v for b, v in w.band_save.items()}}
                                 for n, w in posse.house_weapons.items()}
    if fmt is Format.json:
        if "shooting" in sections:
            meta["not_tabulated"] = notes
        return dumps_json({**meta, "exact": True, **sections})
    if fmt is Format.csv:
        (df,) = sections.values()
        return format_frame(df, fmt)
    money = f"${spent} of ${limit}" if limit is not None else "Basic method (no Dollar Limit)"
    head = (f"{posse.name} — {posse.faction.value if posse.faction is not R.Faction.NONE else 'no Faction'}, "
            f"{posse.method.value} method, {len(posse.models)} models, {money}, Infamy {posse.infamy}: legal")
    titles = {
        "summary": f"Models (cost in $; weapons: those used in a game; best_shot and p_hurt: the Weapon most likely "
                   f"to hurt a plain Veteran at Medium Range with one Shooting Attack, and that chance; p_fight_win: "
                   f"the chance it wins a Fight it starts against a plain Veteran, not Charging; exact, re-roll reading "
                   f"{reading.name})",
        "roster": "Roster (*_dice_mod, save_mod: the model's own Dice and Save Modifiers from its Skills and gear)",
        "costs": "Costs (in $)",
        "shooting": f"Shooting (3 Dice, range band modifiers, the model's Skills and Injuries; re-roll reading "
                    f"{reading.name})\ndice: Dice rolled; save_modifier: the target's Save Modifier; "
                    "hit .. jammed: probabilities of one shot",
        "fight": f"Fight as the Attacker against a plain model of each Rank (re-roll reading {reading.name})\n"
                 "*_dice: Dice each side rolls; the other columns: probabilities",
    }
    if "roster" in sections:
        # the modifiers read as modifiers (+1), not as counts of dice
        signed = {"shoot_dice": "shooting_dice_mod", "fight_dice": "fight_dice_mod", "save_modifier": "save_mod"}
        sections["roster"] = sections["roster"].assign(
            **{c: sections["roster"][c].map(lambda v: f"{int(v):+d}" if v else "0") for c in signed}
        ).rename(columns=signed)
    if notes:
        titles["shooting"] += "\nNo shooting table for: " + "; ".join(
            f"{n['model']}'s {n['weapon']} ({n['reason']})" for n in notes)
    if "summary" in sections and fmt is not Format.json:
        df = sections["summary"]
        # a column empty for every model (no roles, no Skills) says nothing on screen
        df = df[[c for c in df.columns if not (df[c].astype(str) == "").all()]]
        sections["summary"] = df.assign(
            cost=df["cost"].map(lambda v: "?" if pd.isna(v) else f"{int(v)}"),
            p_hurt=df["p_hurt"].map(lambda v: "-" if pd.isna(v) else f"{v:.3f}"),
            p_fight_win=df["p_fight_win"].map(lambda v: f"{v:.3f}"))
    parts = [note(head)] if fmt is Format.table else [f"## {head}\n"]
    # what tells the rows apart, repeated when a wide table folds (the dice counts are figures)
    keys = {"summary": ["model"], "roster": ["model", "rank"], "costs": ["model"],
            "shooting": [c for c in ("model", "rank", "weapon", "range_band", "target") if c in sections.get("shooting", ())],
            "fight": ["model", "rank", "form", "defender", "charging"]}
    for name, df in sections.items():
        parts.append(format_frame(df, fmt, title=titles[name], keys=keys[name]))
    if "summary" in sections:
        if notes:
            parts.append(note("Not used in a game: " + "; ".join(f"{n['model']}'s {n['weapon']} ({n['reason']})"
                                                                  for n in notes)))
        parts.append(note("Every table (roster, costs, each Weapon at each range against each Rank, each Fight): "
                          "--view all, or one of them with --view roster, costs, shooting or fight."))
    return "\n".join(parts)
