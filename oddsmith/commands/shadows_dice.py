"""`oddsmith shadows test|shoot|fight|recover|bottle|cast|dynamite|table`: the dice odds commands.

Every figure is exact (dynamic programming over the dice, :mod:`oddsmith.shadows`)
unless ``--mc`` asks for the Monte Carlo engine (then ``--trials``, ``--seed``,
``--workers``; every figure comes with its standard error). Each command has
``--format table|csv|json|md`` and ``--output PATH``. Ranks are
Novice/Veteran/Hero or D6/D8/D10, any case.

JSON contracts: ``test`` gives ``distribution`` (Successes -> probability);
``shoot`` gives ``outcomes`` with miss, jam_check, jammed, cancelled, saved,
shaken, downed, casualty (miss, cancelled, saved, shaken, downed, casualty
sum to 1) and ``exact``; ``--exact-fractions`` adds ``fractions`` with the
same keys as "numerator/denominator" strings. ``table NAME`` gives
``rows`` (``*_exact`` fields with ``--exact-fractions``).
"""
from __future__ import annotations

import enum
from pathlib import Path
from typing import Any, List, Optional

import typer

from oddsmith.commands._common import readable
from oddsmith import lazy
from oddsmith.errors import OddsmithError
from oddsmith.output import Format, check_output_option, dumps_json, emit, format_frame, note, plus_minus, stderr_note

R = lazy.module("oddsmith.rules.shadows")  # the rules load when a command runs, not for --help
pd = lazy.module("pandas")  # heavy modules load when a command runs (docs/design.md, 'Start-up')
E = lazy.module("oddsmith.shadows.engine")
T = lazy.module("oddsmith.shadows.tables")

FORMAT_HELP = "Output format: table, csv, json or md."
OUTPUT_HELP = "Write to this file instead of stdout (written atomically)."
EXACT_HELP = "Add every probability as an exact fraction (\"numerator/denominator\")."
READING_HELP = ("Maximum-face re-roll reading: b (default: failing dice only, a maximum on a re-roll grants another) "
                "or a (only the first roll's maxima grant re-rolls).")
MC_HELP = "Use the Monte Carlo engine instead of the exact one (figures with standard errors)."
TRIALS_HELP = "Monte Carlo trials (with --mc)."
SEED_HELP = "Monte Carlo seed (with --mc); the same seed gives the same figures whatever --workers."
WORKERS_HELP = "Monte Carlo worker threads (with --mc)."

# Options every dice command takes, declared once (the pattern of commands/report.py).
MC_OPTION = typer.Option(False, "--mc", help=MC_HELP)
TRIALS_OPTION = typer.Option(1_000_000, "--trials", "-t", help=TRIALS_HELP)
SEED_OPTION = typer.Option(None, "--seed", help=SEED_HELP)
WORKERS_OPTION = typer.Option(1, "--workers", "-w", help=WORKERS_HELP)
FORMAT_OPTION = typer.Option(Format.table, "--format", "-f", help=FORMAT_HELP)
OUTPUT_OPTION = typer.Option(None, "--output", "-o", help=OUTPUT_HELP, callback=check_output_option)
EXACT_FRACTIONS_OPTION = typer.Option(False, "--exact-fractions", help=EXACT_HELP)


class Reading(str, enum.Enum):
    a = "a"
    b = "b"


class BlessOption(str, enum.Enum):
    none = "none"
    bless = "bless"
    curse = "curse"


class RangeOption(str, enum.Enum):
    short = "short"
    medium = "medium"
    long = "long"


def _rank(value: str, option: str) -> R.Rank:
    try:
        return R.rank(value)
    except OddsmithError as exc:
        raise OddsmithError(f"{option}: {exc}") from None


def _fmt_setup(odds: E.Odds) -> str:
    parts = [f"{k}={v}" for k, v in odds.setup.items() if v not in (None, False, "none")]
    mods = ", ".join(f"{n} {v:+d}" for n, v in odds.modifiers)
    text = "; ".join(parts)
    if mods:
        text += f"\nDice Modifiers: {mods}"
    return text


def _outcome_frame(outcomes: dict, exact: Optional[dict] = None, stderr: Optional[dict] = None) -> pd.DataFrame:
    """outcome, probability, then ``exact`` (fractions as text) or ``stderr`` when given
    (the exact engine has no standard errors and Monte Carlo no fractions)."""
    df = pd.DataFrame({"outcome": list(outcomes), "probability": list(outcomes.values())})
    if exact is not None:
        df["exact"] = [str(exact[k]) for k in outcomes]
    if stderr is not None:
        df["stderr"] = [stderr[k] for k in outcomes]
    return df


def _odds_frame(odds: E.Odds, fractions: bool) -> pd.DataFrame:
    return _outcome_frame(odds.outcomes, odds.fractions if fractions else None, odds.stderr)


def _shown(frame: pd.DataFrame, fmt: Format) -> pd.DataFrame:
    """Table and Markdown show Monte Carlo figures as "probability ± se" ("± n/a" for none); CSV keeps columns."""
    if fmt in (Format.table, Format.md) and "stderr" in frame:
        return readable(frame, False, 4)
    return frame


SHOT_LABELS = {
    "miss": "miss (no Success)",
    "jam_check": "  of which jam_check (a die showed 1)",
    "jammed": "    of which jammed (the Jamming Check failed)",
    "cancelled": "cancelled (Boilerplate took the only Success)",
}
"""How `shadows shoot` labels the nested outcome rows on screen (JSON and CSV keep the keys)."""
SHOT_PARTITION_NOTE = ("In the first table the rows not marked \"of which\" are every way the shot can end: they "
                       "sum to 1. jam_check counts the misses with a die showing 1 (they make a Jamming Check), "
                       "jammed the Jamming Checks failed: both are already counted in miss.")


def _emit_odds(odds: E.Odds, fmt: Format, output: Optional[Path], title: str, fractions: bool, *,
               outcomes_key: str = "outcomes", extra_frames: Optional[list[tuple[str, pd.DataFrame]]] = None,
               foot: str = "", labels: Optional[dict[str, str]] = None, head_note: str = "") -> None:
    if fractions and odds.fractions is None:
        raise OddsmithError("--exact-fractions needs the exact engine (drop --mc)")
    if fmt is Format.json:
        d = odds.as_dict(fractions=fractions)
        d = {"command": odds.what, **d}
        d[outcomes_key] = d.pop("outcomes")
        emit(dumps_json(d), output)
        return
    head = f"{title}\n{_fmt_setup(odds)}" + (f"\n{head_note}" if head_note else "")
    if odds.stderr is not None:
        head += f"\nMonte Carlo: {odds.trials:,} trial{'s' if odds.trials != 1 else ''}, seed {odds.seed}, PCG64"
    else:
        head += "\nexact"
    frame = _odds_frame(odds, fractions)
    if labels and fmt is not Format.csv:
        frame["outcome"] = [labels.get(k, k) for k in frame["outcome"]]
    text = format_frame(_shown(frame, fmt), fmt, title=None if fmt is Format.csv else head)
    for name, frame in extra_frames or []:
        sep = "\n" if fmt is not Format.csv else ""
        text += sep + format_frame(_shown(frame, fmt), fmt, title=None if fmt is Format.csv else name)
    if fmt is not Format.csv:
        text += foot
        if odds.stderr is not None:
            text += stderr_note(text, int(odds.trials or 0))
    emit(text, output)


def _mc_args(trials: int, seed: Optional[int], workers: int) -> dict[str, Any]:
    return {"trials": trials, "seed": seed, "workers": workers}


def register(app: typer.Typer) -> None:
    """Add the dice commands to the `oddsmith shadows` group."""

    @app.command("test")
    def test_cmd(
        die: Optional[str] = typer.Option(None, "--die", help="Grit Die: D6, D8, D10 (or a Rank)."),
        rank: Optional[str] = typer.Option(None, "--rank", "-r", help="Rank: Novice, Veteran, Hero (or D6/D8/D10)."),
        dice: int = typer.Option(3, "--dice", help="Base number of dice (at least 1)."),
        dice_mod: int = typer.Option(0, "--dice-mod", "-m", help="Sum of Dice Modifiers (a Test never rolls fewer than one die)."),
        shaken: bool = typer.Option(False, "--shaken", help="The model is Shaken: its die is one Rank lower (minimum D6)."),
        lead_belly: bool = typer.Option(False, "--lead-belly", help="Lead-Belly: ignores the Shaken penalty."),
        blessing: BlessOption = typer.Option(BlessOption.none, "--blessing", help="A Bless or Curse token spent on this Test."),
        rerolls: int = typer.Option(0, "--rerolls", help="Extra single-die re-rolls (Nerves of Steel, Preacher, Lucky Jackalope's Foot)."),
        reroll: Reading = typer.Option(Reading.b, "--reroll", help=READING_HELP),
        mc: bool = MC_OPTION,
        trials: int = TRIALS_OPTION,
        seed: Optional[int] = SEED_OPTION,
        workers: int = WORKERS_OPTION,
        fmt: Format = FORMAT_OPTION,
        output: Optional[Path] = OUTPUT_OPTION,
        exact_fractions: bool = EXACT_FRACTIONS_OPTION,
    ) -> None:
        """Success distribution of a Test: N Grit dice, 5+ succeeds, maxima re-roll failing dice ("Tests")."""
        if die is not None and rank is not None:
            raise OddsmithError("give --die or --rank, not both")
        who = die if die is not None else (rank if rank is not None else "Veteran")
        opt = "--die" if die is not None else "--rank"
        try:
            R.parse_die(who)
        except OddsmithError as exc:
            raise OddsmithError(f"{opt}: {exc}") from None
        kw = dict(dice_mod=dice_mod, shaken=shaken, lead_belly=lead_belly, reading=reroll.value,
                  blessing=blessing.value, rerolls=rerolls)
        if mc:
            odds = E.simulate_test(who, dice, **kw, **_mc_args(trials, seed, workers))
        else:
            odds = E.test_distribution(who, dice, **kw)
        _emit_odds(odds, fmt, output, "Test: number of Successes", exact_fractions, outcomes_key="distribution")

    def _house_weapon(name: Optional[str], posse: Any) -> Any:
        """``name``'s house version from the posse's ``[house_weapons]``, else the book's Weapon."""
        if name is None:
            return None
        w = R.weapon(name)
        if w.takes_house_stats and w.name not in posse.house_weapons:
            raise OddsmithError(f"--posse: {posse.source} gives the {w.name} no house stats (add "
                                f"[house_weapons.\"{w.name}\"] with short, medium, long and jam_die)")
        return posse.house_weapons.get(w.name, w)

    @app.command("shoot")
    def shoot_cmd(
        shooter: str = typer.Option(..., "--shooter", help="Shooter's Rank (Novice/Veteran/Hero or D6/D8/D10)."),
        target: str = typer.Option(..., "--target", help="Target's Rank."),
        weapon: str = typer.Option("Pistol", "--weapon", help="Weapon (Basic or Special Weapons Table)."),
        range_band: str = typer.Option("medium", "--range", help="Range band (short, medium or long), or the distance in inches (e.g. 10), mapped to the Weapon's band by the Weapons tables."),
        cover: bool = typer.Option(False, "--cover", help="Target has Cover (-1 Die)."),
        elevated: bool = typer.Option(False, "--elevated", help="Shooter Elevated (+1 Die)."),
        back_shooter: bool = typer.Option(False, "--back-shooter", help="Back-Shooter (+1 Die)."),
        small_target: bool = typer.Option(False, "--small-target", help="Dynamite in hand or a TNT marker (-1 Die)."),
        dice_mod: int = typer.Option(0, "--dice-mod", "-m", help="Further Dice Modifiers on the Shooting Test."),
        save_mod: int = typer.Option(0, "--save-mod", help="Further Save Modifier for the target (e.g. -1 Bad Omen)."),
        skill: Optional[List[str]] = typer.Option(None, "--skill", help="Shooter Skill (Deadeye, Gunsmith, Trick Shooter, Trigger-Happy, Gunslinger, Lead-Belly); repeatable."),
        target_skill: Optional[List[str]] = typer.Option(None, "--target-skill", help="Target Skill (Tough, Lead-Belly); repeatable."),
        tough: bool = typer.Option(False, "--tough", help="Target has Tough (+1 Save)."),
        boilerplate: bool = typer.Option(False, "--boilerplate", help="Target wears Boilerplate (cancels one Success)."),
        target_shaken: bool = typer.Option(False, "--target-shaken", help="Target is already Shaken (saves one Rank lower; Shaken again is Downed)."),
        shooter_shaken: bool = typer.Option(False, "--shooter-shaken", help="Shooter is Shaken (rolls one Rank lower)."),
        supernatural: bool = typer.Option(False, "--supernatural", help="Target is Supernatural (Silver Bullets give it -1 Save)."),
        silver_bullets: bool = typer.Option(False, "--silver-bullets", help="The weapon is loaded with Silver Bullets."),
        whiskey: bool = typer.Option(False, "--whiskey", help="Shooter drank Whiskey this Turn (-1 Die)."),
        one_eyed: bool = typer.Option(False, "--one-eyed", help="Shooter has the One-Eyed Lasting Injury (-1 Die)."),
        trick_shot: Optional[str] = typer.Option(None, "--trick-shot", help="What a Trick Shooter ignores: long or cover (default: whichever applies)."),
        second_weapon: Optional[str] = typer.Option(None, "--second-weapon", help="Gunslinger: the second Pistol-Class Weapon fired in the same Action."),
        posse: Optional[str] = typer.Option(None, "--posse", metavar="POSSE", help="A posse file (or sample posse) whose [house_weapons] give house Shooting stats to the Weapons the book gives none (the Rifle, the Buffalo Gun)."),
        shooter_blessing: BlessOption = typer.Option(BlessOption.none, "--shooter-blessing", help="Bless or Curse on the Shooting Test."),
        target_blessing: BlessOption = typer.Option(BlessOption.none, "--target-blessing", help="Bless or Curse on the target's Save."),
        rerolls: int = typer.Option(0, "--rerolls", help="Extra single-die re-rolls for the shooter (Lucky Jackalope's Foot)."),
        reroll: Reading = typer.Option(Reading.b, "--reroll", help=READING_HELP),
        mc: bool = MC_OPTION,
        trials: int = TRIALS_OPTION,
        seed: Optional[int] = SEED_OPTION,
        workers: int = WORKERS_OPTION,
        fmt: Format = FORMAT_OPTION,
        output: Optional[Path] = OUTPUT_OPTION,
        exact_fractions: bool = EXACT_FRACTIONS_OPTION,
    ) -> None:
        """Odds of a Shooting Attack: hit, Jamming Check, Boilerplate, the target's Save and Damage ("Shoot")."""
        tskills = list(target_skill or []) + (["Tough"] if tough else [])
        sh = E.Shooter.of(_rank(shooter, "--shooter"), skills=skill, shaken=shooter_shaken, whiskey=whiskey,
                          one_eyed=one_eyed, blessing=shooter_blessing.value, rerolls=rerolls, dice_mod=dice_mod)
        tg = E.Target.of(_rank(target, "--target"), skills=sorted(set(R.skill(s).name for s in tskills)),
                         shaken=target_shaken, boilerplate=boilerplate, supernatural=supernatural,
                         blessing=target_blessing.value, save_mod=E._save_mod(save_mod))
        if posse is not None:  # the posse file's house stats for a Weapon the book gives none
            from oddsmith.shadows import posse as P

            loaded = P.load_posse_spec(posse, "--posse")
            weapon, second_weapon = (_house_weapon(w, loaded) for w in (weapon, second_weapon))
        band, inches = E.shooting_range(weapon, range_band)
        kw = dict(range_band=band, cover=cover, elevated=elevated, back_shooter=back_shooter,
                  small_target=small_target, silver_bullets=silver_bullets, trick_shot=trick_shot,
                  second_weapon=second_weapon, reading=reroll.value)
        if mc:
            odds = E.simulate_shoot(sh, tg, weapon, **kw, **_mc_args(trials, seed, workers))
        else:
            odds = E.shoot(sh, tg, weapon, **kw, fractions=exact_fractions)
        head_note = ""
        if inches is not None:
            odds.setup["range_inches"] = inches
            head_note = E.range_note(weapon, band, inches)
        extra = []
        foot = "\n" + note(SHOT_PARTITION_NOTE) if fmt is not Format.csv else ""
        if "action" in odds.extra:
            frame = _outcome_frame(odds.extra["action"],
                                   odds.extra.get("action_fractions") if exact_fractions else None,
                                   odds.extra.get("action_stderr"))
            weapons = odds.extra["action_weapons"]
            n_actions = odds.extra.get("shoot_actions", 1)
            per = len(weapons) // n_actions
            if n_actions > 1:
                # Trigger-Happy: "Shoot the same Weapon twice in a single Activation" - two Actions, not one
                actions = "; ".join(f"Action {i + 1}: {' then '.join(weapons[i * per:(i + 1) * per])}"
                                    for i in range(n_actions))
                head = f"Whole Activation: {n_actions} Shoot Actions with the same Weapon (Trigger-Happy; {actions})"
            else:
                head = f"Whole Shoot Action: {' then '.join(weapons)}"
            if fmt is not Format.csv:
                # shots_fired is a count (a mean over the Action), not a probability: it gets its own line
                fired = frame[frame["outcome"] == "shots_fired"].iloc[0]
                frame = frame[frame["outcome"] != "shots_fired"]
                se = odds.extra.get("action_stderr", {}).get("shots_fired")
                value = f"{fired['probability']:.4f}" if se is None else plus_minus(fired["probability"], se, 4)
                foot += "\n" + note(f"Shots fired in the {'Activation' if n_actions > 1 else 'Action'}: {value} on "
                                   f"average (of {len(odds.extra['action_weapons'])}; a Downed target is not shot "
                                   "again and a Jammed weapon stops firing)")
            extra.append((f"{head}: the target's final state (probabilities)", frame))
        _emit_odds(odds, fmt, output, "Shooting Attack (first shot)", exact_fractions, extra_frames=extra, foot=foot,
                   labels=SHOT_LABELS, head_note=head_note)

    @app.command("fight")
    def fight_cmd(
        attacker: str = typer.Option(..., "--attacker", help="Attacker's Rank."),
        defender: str = typer.Option(..., "--defender", help="Defender's Rank."),
        charging: bool = typer.Option(False, "--charging", help="The Attacker Charged (+1 Die)."),
        fortified: bool = typer.Option(False, "--fortified", help="The Defender is Fortified (Attacker -1 Die)."),
        attacker_skill: Optional[List[str]] = typer.Option(None, "--attacker-skill", help="Attacker Skill (Mean, Bull-Rush, Tough, 'Ornery, Fearsome, Close Work, Nerves of Steel, Lead-Belly); repeatable."),
        defender_skill: Optional[List[str]] = typer.Option(None, "--defender-skill", help="Defender Skill; repeatable."),
        attacker_outnumbered: int = typer.Option(0, "--attacker-outnumbered", help="Unengaged enemies in Contact with the Attacker after the first."),
        defender_outnumbered: int = typer.Option(0, "--defender-outnumbered", help="Unengaged enemies in Contact with the Defender after the first."),
        attacker_shaken: bool = typer.Option(False, "--attacker-shaken", help="Attacker is Shaken."),
        defender_shaken: bool = typer.Option(False, "--defender-shaken", help="Defender is Shaken."),
        attacker_form: Optional[str] = typer.Option(None, "--attacker-form", help="Skinwalker Beast Form of the Attacker: wolf or bear."),
        defender_form: Optional[str] = typer.Option(None, "--defender-form", help="Skinwalker Beast Form of the Defender: wolf or bear."),
        attacker_close_work: int = typer.Option(0, "--attacker-close-work", help="Pistols the Attacker uses with Close Work (1 or 2)."),
        defender_close_work: int = typer.Option(0, "--defender-close-work", help="Pistols the Defender uses with Close Work (1 or 2)."),
        attacker_derringer: bool = typer.Option(False, "--attacker-derringer", help="Attacker uses its Derringer (+1 Die)."),
        defender_derringer: bool = typer.Option(False, "--defender-derringer", help="Defender uses its Derringer (+1 Die)."),
        attacker_whiskey: bool = typer.Option(False, "--attacker-whiskey", help="Attacker drank Whiskey: passes the Fearsome Nerve Test."),
        attacker_axe: bool = typer.Option(False, "--attacker-axe", help="Attacker wields the Woodsman's Axe (-1 Save to the struck)."),
        defender_axe: bool = typer.Option(False, "--defender-axe", help="Defender wields the Woodsman's Axe."),
        attacker_dice_mod: int = typer.Option(0, "--attacker-dice-mod", help="Further Dice Modifiers for the Attacker (Weakened -1, ...)."),
        defender_dice_mod: int = typer.Option(0, "--defender-dice-mod", help="Further Dice Modifiers for the Defender."),
        attacker_save_mod: int = typer.Option(0, "--attacker-save-mod", help="Further Save Modifier for the Attacker if it loses."),
        defender_save_mod: int = typer.Option(0, "--defender-save-mod", help="Further Save Modifier for the Defender if it loses."),
        reroll: Reading = typer.Option(Reading.b, "--reroll", help=READING_HELP),
        mc: bool = MC_OPTION,
        trials: int = TRIALS_OPTION,
        seed: Optional[int] = SEED_OPTION,
        workers: int = WORKERS_OPTION,
        fmt: Format = FORMAT_OPTION,
        output: Optional[Path] = OUTPUT_OPTION,
        exact_fractions: bool = EXACT_FRACTIONS_OPTION,
    ) -> None:
        """Odds of a Fight: both 3 Dice Fight Tests, the highest-die tie-break, the loser's Save ("Fight")."""
        a = E.Fighter.of(_rank(attacker, "--attacker"), skills=attacker_skill, shaken=attacker_shaken,
                         form=attacker_form, outnumbered=attacker_outnumbered, close_work_pistols=attacker_close_work,
                         derringer=attacker_derringer, whiskey=attacker_whiskey, axe=attacker_axe,
                         dice_mod=attacker_dice_mod, save_mod=E._save_mod(attacker_save_mod))
        d = E.Fighter.of(_rank(defender, "--defender"), skills=defender_skill, shaken=defender_shaken,
                         form=defender_form, outnumbered=defender_outnumbered, close_work_pistols=defender_close_work,
                         derringer=defender_derringer, axe=defender_axe, dice_mod=defender_dice_mod,
                         save_mod=E._save_mod(defender_save_mod))
        if mc:
            odds = E.simulate_fight(a, d, charging=charging, fortified=fortified, reading=reroll.value,
                                    **_mc_args(trials, seed, workers))
        else:
            odds = E.fight(a, d, charging=charging, fortified=fortified, reading=reroll.value,
                           fractions=exact_fractions)
        m = odds.extra["margins"]
        ks = sorted({int(k) for side in m.values() for k in side})
        frame = pd.DataFrame({"margin": ks, "attacker_wins_by": [m["attacker"].get(str(k), 0.0) for k in ks],
                              "defender_wins_by": [m["defender"].get(str(k), 0.0) for k in ks]})
        _emit_odds(odds, fmt, output, "Fight (Attacker's Dice Modifiers below)", exact_fractions,
                   extra_frames=[("Winning margins (a Shove pushes 1\" per Success)", frame)])

    @app.command("recover")
    def recover_cmd(
        rank: str = typer.Option(..., "--rank", "-r", help="Downed model's Rank."),
        shaken: bool = typer.Option(False, "--shaken", help="The Downed model is also Shaken (rolls one Rank lower)."),
        friend: bool = typer.Option(False, "--friend", help="A friendly non-Downed model is in Contact (+1 Die)."),
        skill: Optional[List[str]] = typer.Option(None, "--skill", help="Skill (Hard to Kill, Lead-Belly); repeatable."),
        dice_mod: int = typer.Option(0, "--dice-mod", "-m", help="Further Dice Modifiers."),
        blessing: BlessOption = typer.Option(BlessOption.none, "--blessing", help="A Bless or Curse token spent on this Test."),
        reroll: Reading = typer.Option(Reading.b, "--reroll", help=READING_HELP),
        mc: bool = MC_OPTION,
        trials: int = TRIALS_OPTION,
        seed: Optional[int] = SEED_OPTION,
        workers: int = WORKERS_OPTION,
        fmt: Format = FORMAT_OPTION,
        output: Optional[Path] = OUTPUT_OPTION,
        exact_fractions: bool = EXACT_FRACTIONS_OPTION,
    ) -> None:
        """Recovery Test of a Downed model: 0 Successes Casualty, 1-2 remains Downed, 3+ stands up Shaken."""
        kw = dict(shaken=shaken, friend_in_contact=friend, skills=skill or [], dice_mod=dice_mod,
                  reading=reroll.value, blessing=blessing.value)
        rk = _rank(rank, "--rank")
        odds = E.simulate_recovery(rk, **kw, **_mc_args(trials, seed, workers)) if mc else E.recovery(rk, **kw)
        _emit_odds(odds, fmt, output, "Recovery Test", exact_fractions)

    @app.command("bottle")
    def bottle_cmd(
        rank: str = typer.Option(..., "--rank", "-r", help="Rank of the model making the Check (the Boss)."),
        stand_in: bool = typer.Option(False, "--stand-in", help="The Boss is Downed or gone: the next highest Rank rolls 1 Die."),
        shaken: bool = typer.Option(False, "--shaken", help="The model rolling is Shaken."),
        nerves_of_steel: bool = typer.Option(False, "--nerves-of-steel", help="It has Nerves of Steel (re-roll one die)."),
        preacher: bool = typer.Option(False, "--preacher", help="A Preacher is on the table and not Down (re-roll one die)."),
        whiskey: bool = typer.Option(False, "--whiskey", help="It drank Whiskey this Turn (passes automatically)."),
        skill: Optional[List[str]] = typer.Option(None, "--skill", help="Other Skills (Lead-Belly); repeatable."),
        blessing: BlessOption = typer.Option(BlessOption.none, "--blessing", help="A Bless or Curse token spent on this Check."),
        reroll: Reading = typer.Option(Reading.b, "--reroll", help=READING_HELP),
        mc: bool = MC_OPTION,
        trials: int = TRIALS_OPTION,
        seed: Optional[int] = SEED_OPTION,
        workers: int = WORKERS_OPTION,
        fmt: Format = FORMAT_OPTION,
        output: Optional[Path] = OUTPUT_OPTION,
        exact_fractions: bool = EXACT_FRACTIONS_OPTION,
    ) -> None:
        """Bottle Check: 3 unmodified Dice (1 Die for a stand-in); no Success and the Posse Bottles Out."""
        skills = list(skill or []) + (["Nerves of Steel"] if nerves_of_steel else [])
        kw = dict(boss=not stand_in, shaken=shaken, skills=skills, preacher=preacher, whiskey=whiskey,
                  reading=reroll.value, blessing=blessing.value)
        rk = _rank(rank, "--rank")
        odds = E.simulate_bottle_check(rk, **kw, **_mc_args(trials, seed, workers)) if mc else E.bottle_check(rk, **kw)
        _emit_odds(odds, fmt, output, "Bottle Check", exact_fractions)

    @app.command("cast")
    def cast_cmd(
        rank: str = typer.Option(..., "--rank", "-r", help="Caster's Rank."),
        power: Optional[str] = typer.Option(None, "--power", "-p", help="Arcane Power (its Difficulty is used)."),
        difficulty: Optional[int] = typer.Option(None, "--difficulty", help="Difficulty (Successes needed), e.g. for Summon 1-3."),
        shaken: bool = typer.Option(False, "--shaken", help="The Caster is Shaken."),
        concentrate: bool = typer.Option(False, "--concentrate", help="Concentrated first (+1 Die)."),
        grimoire: bool = typer.Option(False, "--grimoire", help="An existing Arcanist with a Grimoire (+1 Die)."),
        harbinger: bool = typer.Option(False, "--harbinger", help="Harbinger of the Abyss within 6\" of the Magister (+1 Die)."),
        arcane_storm: bool = typer.Option(False, "--arcane-storm", help="Arcane Storm (+1 Die; a Miscast makes the Caster a Casualty)."),
        unique_summoning: bool = typer.Option(False, "--unique-summoning", help="Summoning a Faction's unique Entity (-1 Die)."),
        holy_symbol: bool = typer.Option(False, "--holy-symbol", help="Cast through a Holy Symbol (cannot Miscast)."),
        dice_mod: int = typer.Option(0, "--dice-mod", "-m", help="Further Dice Modifiers."),
        blessing: BlessOption = typer.Option(BlessOption.none, "--blessing", help="A Bless or Curse token spent on this Test."),
        reroll: Reading = typer.Option(Reading.b, "--reroll", help=READING_HELP),
        mc: bool = MC_OPTION,
        trials: int = TRIALS_OPTION,
        seed: Optional[int] = SEED_OPTION,
        workers: int = WORKERS_OPTION,
        fmt: Format = FORMAT_OPTION,
        output: Optional[Path] = OUTPUT_OPTION,
        exact_fractions: bool = EXACT_FRACTIONS_OPTION,
    ) -> None:
        """Casting Test: 3 dice, Successes >= Difficulty casts; no Success with a 1 Miscasts ("Casting Powers")."""
        kw = dict(difficulty=difficulty, shaken=shaken, concentrate=concentrate, grimoire=grimoire,
                  harbinger=harbinger, arcane_storm=arcane_storm, unique_summoning=unique_summoning,
                  holy_symbol=holy_symbol, dice_mod=dice_mod, reading=reroll.value, blessing=blessing.value)
        rk = _rank(rank, "--rank")
        odds = E.simulate_cast(rk, power, **kw, **_mc_args(trials, seed, workers)) if mc else E.cast(rk, power, **kw)
        _emit_odds(odds, fmt, output, f"Casting Test (a Miscast leaves the Caster {E._miscast_result(shaken, arcane_storm)})",
                   exact_fractions)

    @app.command("dynamite")
    def dynamite_cmd(
        rank: str = typer.Option(..., "--rank", "-r", help="Thrower's Rank."),
        shaken: bool = typer.Option(False, "--shaken", help="The thrower is Shaken."),
        blessing: BlessOption = typer.Option(BlessOption.none, "--blessing", help="A Bless or Curse token spent on the throw."),
        rerolls: int = typer.Option(0, "--rerolls", help="Extra re-rolls (Lucky Jackalope's Foot)."),
        mc: bool = MC_OPTION,
        trials: int = TRIALS_OPTION,
        seed: Optional[int] = SEED_OPTION,
        workers: int = WORKERS_OPTION,
        fmt: Format = FORMAT_OPTION,
        output: Optional[Path] = OUTPUT_OPTION,
        exact_fractions: bool = EXACT_FRACTIONS_OPTION,
    ) -> None:
        """Dynamite throw: an unmodified 1 Die Shooting Test, where it explodes, and the 7+ blast Saves ("Dynamite")."""
        rk = _rank(rank, "--rank")
        kw = dict(shaken=shaken, blessing=blessing.value, rerolls=rerolls)
        if mc:
            odds = E.simulate_dynamite(rk, **kw, **_mc_args(trials, seed, workers))
            odds.extra["blast"] = E.blast_table_records()
        else:
            odds = E.dynamite(rk, **kw)
        blast = pd.DataFrame(odds.extra["blast"])
        _emit_odds(odds, fmt, output, "Dynamite throw (a miss moves it D6\" where the die says)", exact_fractions,
                   extra_frames=[("Caught in the blast: 7+ Save (partly within 3\": a 1 Die Reaction Test first)",
                                  blast)])

    @app.command("table")
    def table_cmd(
        name: str = typer.Argument(..., metavar="TABLE", help=f"Table: {', '.join(T.STANDARD_TABLES)}."),
        reroll: Reading = typer.Option(Reading.b, "--reroll", help=READING_HELP + " (shooting-full has both)"),
        fmt: Format = FORMAT_OPTION,
        output: Optional[Path] = OUTPUT_OPTION,
        exact_fractions: bool = EXACT_FRACTIONS_OPTION,
    ) -> None:
        """Exact printable tables: success, shooting, shooting-full, fight, recovery, bottle, cast, dynamite, blast."""
        df = T.standard_table(name, reading=reroll.value, fractions=exact_fractions)
        key = R.normalize_name(name)
        canonical = next(n for n in T.STANDARD_TABLES if R.normalize_name(n) == key)
        if fmt is Format.json:
            emit(dumps_json({"command": "table", "table": canonical, "exact": True, "reading": reroll.value,
                             "rows": df}), output)
            return
        title = f"Shadows of the West: {canonical} table (exact; re-roll reading {reroll.value.upper()})"
        emit(format_frame(df, fmt, title=None if fmt is Format.csv else title), output)
