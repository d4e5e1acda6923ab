"""Doomtown: Weird West Edition odds: the public ``oddsmith.doomtown`` API.

Cards and hands (:mod:`~oddsmith.doomtown.cards`, :mod:`~oddsmith.doomtown.evaluator`),
decks (:mod:`~oddsmith.doomtown.deck`), posses (:mod:`~oddsmith.doomtown.posse`),
lowball (Gamblin', :mod:`~oddsmith.doomtown.lowball`), pulls
(:mod:`~oddsmith.doomtown.pulls`), shootout hands and rounds
(:mod:`~oddsmith.doomtown.shootout`) and whole shootouts
(:mod:`~oddsmith.doomtown.full_shootout`). Every name of ``__all__`` is
documented in docs/api.md; it is imported from its module on first use, so
``import oddsmith.doomtown`` stays quick and loads no kernel.
"""
from __future__ import annotations

import importlib
from typing import Any

#: Public name -> the module of this package that defines it.
_HOME = {
    **dict.fromkeys(("parse_card", "parse_hand", "format_card", "format_hand"), "cards"),
    **dict.fromkeys(("Evaluation", "evaluate_hands", "evaluate_codes", "evaluate_keys", "evaluate_packed",
                     "pack_hands", "rank_name", "sample_rank_counts"), "evaluator"),
    **dict.fromkeys(("Deck", "load_deck", "parse_deck", "sample_names", "sample_decks", "counts_frame",
                     "duplicates_frame", "deck_summary"), "deck"),
    **dict.fromkeys(("Posse", "parse_posse"), "posse"),
    **dict.fromkeys(("LowballOdds", "GamblinOdds", "TableOdds", "LowballTradeoff", "lowball_odds", "gamblin_odds",
                     "table_odds", "lowball_distribution", "lowball_tradeoff", "exact_key_counts"), "lowball"),
    **dict.fromkeys(("skill_test_odds", "kung_fu_test_odds", "pull_odds", "value_pull_table", "suit_pull_table"),
                    "pulls"),
    **dict.fromkeys(("ShootoutOdds", "RoundOdds", "Side", "ShooterChoice", "DiscardGap", "shootout_odds",
                     "shootout_round", "can_be_exact", "exact_counts", "choose_shooter", "discard_gap", "tradeoff"),
                    "shootout"),
    **dict.fromkeys(("FullSide", "FullShootout", "what_if"), "full_shootout"),  # full_shootout() is its module's
}

__all__ = sorted(_HOME) + ["tradeoff_chart"]


def __getattr__(name: str) -> Any:
    if name == "tradeoff_chart":
        from oddsmith.notebook import tradeoff_chart

        return tradeoff_chart
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
