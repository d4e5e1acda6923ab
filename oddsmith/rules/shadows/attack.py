"""Putting a Shooting Attack or a Fight Test together: the dice a model rolls, from the rules above.

Part of :mod:`oddsmith.rules.shadows` (docs/rules-shadows.md); every name is importable from there.
"""
from __future__ import annotations

from typing import Iterable

from oddsmith.errors import OddsmithError
from oddsmith.rules.shadows.campaign import INJURY_DICE_MODIFIERS, Injury, lasting_injury
from oddsmith.rules.shadows.dice import CLOSE_WORK_MAX_PISTOLS, FightModifier, ShootModifier, TESTS, TestKind, dice_to_roll
from oddsmith.rules.shadows.shooting import RangeBand, SaveModifier, Weapon, WeaponClass, range_band, weapon
from oddsmith.rules.shadows.skills import Skill, skill

# ---------------------------------------------------------------------------
# Putting a Shooting Attack or a Fight Test together
# ---------------------------------------------------------------------------


def shooting_dice(weapon_name: str | Weapon, band: RangeBand | str, *, cover: bool = False, back_shooter: bool = False,
                  elevated: bool = False, small_target: bool = False, skills: Iterable[str | Skill] = (),
                  injuries: Iterable[Injury | str] = (), whiskey: bool = False, extra: int = 0) -> int:
    """Dice of a 3 Dice Shooting Test after every Dice Modifier ("Shoot: 3: Roll to Hit"), never below one.

    Range band (+1 Short, -1 Long) and the Weapon's own band modifier
    (Shotgun), Cover -1, Back-Shooter +1, Elevated +1, a small target -1,
    Deadeye +1, One-Eyed -1, Whiskey -1, and ``extra`` for anything else.
    Trick Shooter with a Rifle-Class Weapon ignores the Long Range or the
    Cover modifier (the one that applies; either if both do).
    """
    w = weapon(weapon_name)
    b = range_band(band)
    known = [skill(s) for s in skills]
    mods = _shooter_modifiers(cover=cover, back_shooter=back_shooter, elevated=elevated, small_target=small_target,
                              skills=known, injuries=injuries, whiskey=whiskey)
    mods += [w.dice_modifier(b), extra]
    if any(s.trick_shooter for s in known) and w.weapon_class is WeaponClass.RIFLE and (cover or b is RangeBand.LONG):
        mods.append(-ShootModifier.COVER.dice)  # one -1 modifier ignored
    return dice_to_roll(TESTS[TestKind.SHOOTING].base_dice, *mods)


def _shooter_modifiers(*, cover: bool, back_shooter: bool = False, elevated: bool = False, small_target: bool = False,
                       skills: Iterable[Skill], injuries: Iterable[Injury | str], whiskey: bool) -> list[int]:
    """The Shoot Modifiers that are not the Range's or the Weapon's: Cover, Back-Shooter, Elevated, a small target,
    Whiskey, the Shooting Skills (Deadeye) and Lasting Injuries (One-Eyed)."""
    mods = [m.dice for m, on in ((ShootModifier.COVER, cover), (ShootModifier.BACK_SHOOTER, back_shooter),
                                 (ShootModifier.ELEVATED, elevated), (ShootModifier.SMALL_TARGET, small_target),
                                 (ShootModifier.WHISKEY, whiskey)) if on]
    mods += [s.shoot_dice for s in skills]
    for i in injuries:
        mod = INJURY_DICE_MODIFIERS.get(lasting_injury(i))
        if mod is not None and mod.test is TestKind.SHOOTING:
            mods.append(mod.dice)
    return mods


def lasso_dice(*, cover: bool = False, skills: Iterable[str | Skill] = (), injuries: Iterable[Injury | str] = (),
               whiskey: bool = False) -> int:
    """Dice of a Lasso's Shooting Test ("Horses and Gear Summary": "this Attack is not modified for Range (though other
    modifiers will apply)"): 3 Dice, Cover -1, Deadeye +1, One-Eyed -1, Whiskey -1; never below one.

    >>> lasso_dice(), lasso_dice(cover=True), lasso_dice(skills=["Deadeye"], whiskey=True)
    (3, 2, 3)
    """
    mods = _shooter_modifiers(cover=cover, skills=[skill(s) for s in skills], injuries=injuries, whiskey=whiskey)
    return dice_to_roll(TESTS[TestKind.SHOOTING].base_dice, *mods)


def shot_save_modifier(weapon_name: str | Weapon, band: RangeBand | str, *, target_skills: Iterable[str | Skill] = (),
                       silver_bullets: bool = False, target_supernatural: bool = False, bad_omen: bool = False,
                       extra: int = 0) -> int:
    """Save Modifier of the Target of a Shooting Attack: Weapon band (Bow +1/+2, Heavy Pistol -1), Tough +1,
    Silver Bullets -1 against a Supernatural Target, Bad Omen -1, plus ``extra``."""
    w = weapon(weapon_name)
    total = w.save_modifier(range_band(band)) + extra
    total += sum(skill(s).save_modifier for s in target_skills)
    if silver_bullets and target_supernatural:
        total += SaveModifier.SILVER_BULLETS.modifier
    if bad_omen:
        total += SaveModifier.BAD_OMEN.modifier
    return total


def fight_dice(*, charging: bool = False, fortified_defender: bool = False, outnumbered_by: int = 0,
               skills: Iterable[str | Skill] = (), injuries: Iterable[Injury | str] = (), derringer: bool = False,
               close_work_pistols: int = 0, fearsome_failed: bool = False, wolf_form_attacking: bool = False,
               extra: int = 0) -> int:
    """Dice of a 3 Dice Fight Test after every Dice Modifier ("Fight: 2"), never below one.

    Charging +1, attacking a Fortified Defender -1, -1 per unengaged enemy
    after the first ('Ornery ignores it), Mean +1, Weakened -1, Derringer +1,
    Close Work +1 per Pistol-Class Weapon (at most 2; two Pistols do not add
    a Derringer), a failed Nerve Test against a Fearsome model -1, Wolf Form
    attacking +2, and ``extra``.
    """
    if outnumbered_by < 0 or close_work_pistols < 0:
        raise OddsmithError("outnumbered_by and close_work_pistols must not be negative")
    known = [skill(s) for s in skills]
    mods = [extra]
    if charging:
        mods.append(FightModifier.CHARGING.dice)
    if fortified_defender:
        mods.append(FightModifier.FORTIFIED.dice)
    if outnumbered_by and not any(s.ignores_outnumbered for s in known):
        mods.append(FightModifier.OUTNUMBERED.dice * outnumbered_by)
    mods += [s.fight_dice for s in known]
    pistols = min(close_work_pistols, CLOSE_WORK_MAX_PISTOLS) if any(s.close_work for s in known) else 0
    mods.append(FightModifier.CLOSE_WORK.dice * pistols)
    if derringer and pistols < CLOSE_WORK_MAX_PISTOLS:
        mods.append(FightModifier.DERRINGER.dice)
    if fearsome_failed:
        mods.append(FightModifier.FEARSOME.dice)
    if wolf_form_attacking:
        mods.append(FightModifier.WOLF_FORM.dice)
    for i in injuries:
        inj = lasting_injury(i)
        mod = INJURY_DICE_MODIFIERS.get(inj)
        if mod is not None and mod.test is TestKind.FIGHT:
            mods.append(mod.dice)
    return dice_to_roll(TESTS[TestKind.FIGHT].base_dice, *mods)
