"""Skills ("Shooting Skills Table", "Fighting Skills Table", "Gumption Skills Table").

Part of :mod:`oddsmith.rules.shadows` (docs/rules-shadows.md); every name is importable from there.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

from oddsmith.errors import OddsmithError
from oddsmith.rules.shadows._lookup import lookup

# ---------------------------------------------------------------------------
# Skills ("Shooting Skills Table", "Fighting Skills Table", "Gumption Skills Table")
# ---------------------------------------------------------------------------


class SkillList(enum.Enum):
    """The three Skill lists ("Random Skill")."""

    SHOOTING = "Shooting"
    FIGHTING = "Fighting"
    GUMPTION = "Gumption"


@dataclass(frozen=True)
class Skill:
    """One Skill with its dice effects as parameters.

    ``shoot_dice``/``fight_dice``: extra Dice Modifier on Shooting/Fight Tests;
    ``save_modifier``: always-on Save Modifier; ``rerolls``: what the Skill
    lets the model re-roll; the flags name the other effects.
    """

    name: str
    skill_list: SkillList
    d6: int
    notes: str
    shoot_dice: int = 0
    fight_dice: int = 0
    save_modifier: int = 0
    rerolls: str | None = None
    extra_shot_same_weapon: bool = False
    fires_two_pistols: bool = False
    ignores_outnumbered: bool = False
    charge_win_save_modifier: int = 0
    ignores_shaken_penalty: bool = False
    auto_recovers: bool = False
    fearsome: bool = False
    close_work: bool = False
    trick_shooter: bool = False
    grit_die_for_extra_action: bool = False
    grit_die_to_keep_lookout: bool = False
    not_in_reaction: bool = False


SHOOTING_SKILLS: dict[str, Skill] = {s.name: s for s in (
    Skill("Trigger-Happy", SkillList.SHOOTING, 1,
          "This model may Shoot the same Weapon twice in a single Activation, following all usual rules. This Skill cannot be "
          "used as part of a Reaction, and cannot be combined with the Gunslinger Skill.",
          extra_shot_same_weapon=True, not_in_reaction=True),
    Skill("Gunslinger", SkillList.SHOOTING, 2,
          "If armed with two Pistol-Class Weapons, this model may fire both as a single Shoot Action, against different Targets "
          "if you wish. Resolve each Attack separately. Not as a Reaction. Sixguns may not fire twice, and LeMat Pistols cannot "
          "use their once-per-game ability when using this Skill.",
          fires_two_pistols=True, not_in_reaction=True),
    Skill("Hawkeye", SkillList.SHOOTING, 3,
          "This model may re-roll a Failed Spotting Test, and ignores the usual rules for Shooting into a Fight.",
          rerolls="a Failed Spotting Test"),
    Skill("Gunsmith", SkillList.SHOOTING, 4, "This model may re-roll any Failed Jamming Check.",
          rerolls="a Failed Jamming Check"),
    Skill("Trick Shooter", SkillList.SHOOTING, 5,
          "When it Shoots with a Rifle-Class Weapon, this model ignores either the Long Range or the Cover Die Modifier.",
          trick_shooter=True),
    Skill("Deadeye", SkillList.SHOOTING, 6, "This model gains an extra +1 Die Modifier on its Shooting Tests.", shoot_dice=+1),
)}
FIGHTING_SKILLS: dict[str, Skill] = {s.name: s for s in (
    Skill("Close Work", SkillList.FIGHTING, 1,
          "This model may use an unjammed Pistol-Class Weapon during a Fight to gain a +1 Die Modifier. Using two Pistols grants "
          "a +2 Modifier, but cannot be combined with the bonus from a Derringer in this case.", close_work=True),
    Skill("Fearsome", SkillList.FIGHTING, 2,
          "Enemy models wishing to Fight this model (even if it is Down) must pass a 1 Die Nerve Test or suffer a -1 Die "
          "Modifier on its Fight Tests this Activation. Other Fearsome models ignore this Skill.", fearsome=True),
    Skill("Bull-Rush", SkillList.FIGHTING, 3,
          "If this model Charges and wins the ensuing Fight, the Defender suffers a -1 Save Modifier.", charge_win_save_modifier=-1),
    Skill("'Ornery", SkillList.FIGHTING, 4,
          "This model ignores the penalty for being in Contact with multiple enemies in a Fight.", ignores_outnumbered=True),
    Skill("Tough", SkillList.FIGHTING, 5, "This model always has a +1 Save Modifier.", save_modifier=+1),
    Skill("Mean", SkillList.FIGHTING, 6, "This model gains an extra +1 Die Modifier on its Fight Tests.", fight_dice=+1),
)}
GUMPTION_SKILLS: dict[str, Skill] = {s.name: s for s in (
    Skill("Bushwhacker", SkillList.GUMPTION, 1,
          "When this model is on Lookout and Reacts, after resolving their Reaction, roll one Grit Die: on a Success it retains "
          "its Lookout marker and is not classed as Done.", grit_die_to_keep_lookout=True),
    Skill("Nerves of Steel", SkillList.GUMPTION, 2,
          "This model may re-roll any one Die result on all its Nerve Tests, including Bottle Checks when applicable.",
          rerolls="any one Die of a Nerve Test or Bottle Check"),
    Skill("Hard to Kill", SkillList.GUMPTION, 3,
          "If this model is Downed at the start of the Recovery Phase, it automatically stands up Shaken.", auto_recovers=True),
    Skill("Quickdraw", SkillList.GUMPTION, 4, "This model may re-roll a Reaction Test.", rerolls="a Reaction Test"),
    Skill("Lead-Belly", SkillList.GUMPTION, 5, "This model ignores the Grit Penalty whilst Shaken.", ignores_shaken_penalty=True),
    Skill("Slick", SkillList.GUMPTION, 6,
          "When Activated, this model may roll one Grit Die. On a Success, it can make an additional Action this Activation.",
          grit_die_for_extra_action=True),
)}
SKILL_LISTS: dict[SkillList, dict[str, Skill]] = {
    SkillList.SHOOTING: SHOOTING_SKILLS, SkillList.FIGHTING: FIGHTING_SKILLS, SkillList.GUMPTION: GUMPTION_SKILLS,
}
SKILLS: dict[str, Skill] = {**SHOOTING_SKILLS, **FIGHTING_SKILLS, **GUMPTION_SKILLS}
_SKILL_ALIASES = {"Trick-Shooter": "Trick Shooter", "Ornery": "'Ornery", "Leadbelly": "Lead-Belly", "Triggerhappy": "Trigger-Happy"}


def skill(name: str | Skill) -> Skill:
    """A Skill by its book name ('deadeye', 'Trick-Shooter', 'ornery', ...)."""
    if isinstance(name, Skill):
        return name
    return lookup("skill", str(name), SKILLS, _SKILL_ALIASES)


def skill_list(name: str | SkillList) -> SkillList:
    if isinstance(name, SkillList):
        return name
    return lookup("skill list", str(name), {s.value: s for s in SkillList})


def random_skill(list_name: SkillList | str, d6: int) -> Skill:
    """The Skill a D6 roll gives on a Skill list ("Random Skill")."""
    table = SKILL_LISTS[skill_list(list_name)]
    for s in table.values():
        if s.d6 == d6:
            return s
    raise OddsmithError(f"a D6 roll is 1-6, got {d6}")


GUNSLINGER_EXCLUDES_TRIGGER_HAPPY = True
