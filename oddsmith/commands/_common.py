"""What the Doomtown odds commands (`lowball`, `pull`, `shootout`, `tradeoff`) share:
help texts, the early output check, loading DECK with --partial/--without, the
sampling-option checks and the table view of figures with standard errors."""
from __future__ import annotations

from pathlib import Path
from typing import Iterable, Optional

import pandas as pd

from oddsmith.doomtown.deck import Deck, load_deck
from oddsmith.errors import OddsmithError
from oddsmith.output import check_output_path, plus_minus
from oddsmith.sampling import check_trials, check_workers

FORMAT_HELP = "Output format: table, csv, json or md."
OUTPUT_HELP = "Write to this file instead of stdout (written atomically; the folder must exist)."
WITHOUT_HELP = "Cards already out of the deck: card tokens (AS 8S Joker), titles, or 'gang' (the starting gang); ';' between items."


def check_output(output: Optional[Path]) -> None:
    """Fail before any work when the output cannot be written (no partial output either way)."""
    if output is not None and str(output) != "-":
        check_output_path(output)


def check_sampling(trials: Optional[int], workers: int) -> None:
    """--trials (when given) and --workers, checked before any deck is read."""
    if trials is not None:
        check_trials(trials)
    check_workers(workers)


def exact_mode(exact: Optional[bool], trials: Optional[int], can_be_exact: bool,
               refuse: Optional[str] = None) -> bool:
    """True for exact. Default (--exact/--simulate not given): exact where it exists, unless
    --trials asks for sampling. ``refuse``: the error when --exact is asked where it cannot be."""
    if exact is None:
        return can_be_exact and trials is None
    if exact and not can_be_exact and refuse is not None:
        raise OddsmithError(refuse)
    return exact


def check_one_stdin(specs: Iterable[Optional[str]], what: str = "deck") -> None:
    """At most one of ``specs`` may be ``-`` (stdin is read once)."""
    if list(specs).count("-") > 1:
        raise OddsmithError(f"only one {what} can be read from stdin ('-')")


def load(spec: str, partial: bool, without: Optional[str] = None) -> Deck:
    """DECK as the commands take it: a file, ``-`` or a sample name, with --partial and --without."""
    return load_deck(spec, partial=partial, without=without or None)


def readable(df: pd.DataFrame, exact: bool, digits: int = 6) -> pd.DataFrame:
    """The table and Markdown view: exact figures without their (zero) standard errors;
    simulated figures as "value ± standard error", "± n/a" where none can be estimated
    (:func:`oddsmith.output.plus_minus`; JSON and CSV keep plain columns).
    A ``cheatin`` column with no figure at all is left out."""
    if exact:
        return df.drop(columns=[c for c in df.columns if c == "stderr" or c.endswith("_stderr")])
    out = {}
    for col in df.columns:
        if col == "stderr" or col.endswith("_stderr") or (col == "cheatin" and df[col].isna().all()):
            continue
        partner = "stderr" if col == "probability" else f"{col}_stderr"
        if partner in df.columns:
            out[col + " ± se"] = [plus_minus(v, e, digits) for v, e in zip(df[col], df[partner])]
        else:
            out[col] = df[col]
    return pd.DataFrame(out)
