"""Dracula's America: Shadows of the West odds: the public ``oddsmith.shadows`` API.

Exact odds (dynamic programming over dice outcomes, every figure also as an
exact fraction) and their Monte Carlo twins, for single questions
(:func:`test_distribution`, :func:`shoot`, :func:`fight`, :func:`recovery`,
:func:`bottle_check`, :func:`cast`, :func:`dynamite`) and as tidy tables
(:func:`success_table`, :func:`shooting_table`, :func:`full_shooting_table`,
:func:`fight_table`, :func:`recovery_table`, :func:`bottle_table`,
:func:`cast_table`, :func:`dynamite_table`, :func:`blast_table`,
:func:`standard_table`). Models are described with :class:`Shooter`,
:class:`Target` and :class:`Fighter` (or just a Rank name: Novice/Veteran/Hero
or D6/D8/D10). The re-roll reading defaults to B (see
:class:`oddsmith.rules.shadows.RerollReading`).

Posses and campaign rolls live in :mod:`oddsmith.shadows.posse` and
:mod:`oddsmith.shadows.campaign`; their main entry points, and battles
(:mod:`oddsmith.shadows.battle`) and what each dollar buys
(:mod:`oddsmith.shadows.value`), are also names of this package, imported on
first use. Every name of ``__all__`` is documented in docs/api.md.
"""
from oddsmith.shadows.engine import (
    BOTTLE_OUTCOMES,
    CAST_OUTCOMES,
    DYNAMITE_OUTCOMES,
    FIGHT_OUTCOMES,
    FINAL_SHOT_OUTCOMES,
    RECOVERY_OUTCOMES,
    SEQUENCE_OUTCOMES,
    SHOT_OUTCOMES,
    Fighter,
    Odds,
    Shooter,
    Situation,
    Target,
    action_weapons,
    blast_odds,
    bottle_check,
    cast,
    dynamite,
    fight,
    plan_fight,
    plan_shot,
    recovery,
    save_odds,
    shoot,
    simulate_bottle_check,
    simulate_cast,
    simulate_dynamite,
    simulate_fight,
    simulate_recovery,
    simulate_sequence,
    simulate_shoot,
    simulate_shot,
    simulate_successes,
    simulate_test,
    test_distribution,
    test_joint,
)
from oddsmith.shadows.tables import (
    STANDARD_TABLES,
    blast_table,
    bottle_table,
    cast_table,
    dynamite_table,
    fight_table,
    full_shooting_table,
    recovery_table,
    shooting_table,
    standard_table,
    standard_tables,
    success_table,
)

__all__ = [
    "BOTTLE_OUTCOMES", "CAST_OUTCOMES", "DYNAMITE_OUTCOMES", "FIGHT_OUTCOMES", "FINAL_SHOT_OUTCOMES",
    "RECOVERY_OUTCOMES", "SEQUENCE_OUTCOMES", "SHOT_OUTCOMES", "STANDARD_TABLES",
    "Fighter", "Odds", "Shooter", "Situation", "Target",
    "action_weapons", "blast_odds", "blast_table", "bottle_check", "bottle_table", "cast", "cast_table", "dynamite",
    "dynamite_table", "fight", "fight_table", "full_shooting_table", "plan_fight", "plan_shot", "recovery",
    "recovery_table", "save_odds", "shoot", "shooting_table", "simulate_bottle_check", "simulate_cast",
    "simulate_dynamite", "simulate_fight", "simulate_recovery", "simulate_sequence", "simulate_shoot", "simulate_shot",
    "simulate_successes", "simulate_test", "standard_table", "standard_tables", "success_table", "test_distribution",
    "test_joint",
]

#: Public names imported from their module on first use (posses, battles, value): name -> module.
_LAZY = {
    **dict.fromkeys(("Posse", "load_posse", "read_posse", "sample_posse", "sample_posse_names", "check_posse",
                     "validate", "total_cost", "roster_table"), "posse"),
    **dict.fromkeys(("BattleOptions", "BattleResult", "battle_options"), "battle"),
    "ValueResult": "value",
}
# battle() and value() are reached through their modules (oddsmith.shadows.battle.battle, ...value.value):
# the package attributes of those names are the modules themselves.
__all__ += sorted(_LAZY)


def __getattr__(name: str):
    home = _LAZY.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"{__name__}.{home}"), name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
