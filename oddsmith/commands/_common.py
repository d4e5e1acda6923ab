"""What the Doomtown odds commands (`lowball`, `pull`, `shootout`, `tradeoff`) share:
help texts, the early output check, loading DECK with --partial/--with-gang/--without
(and saying which deck was used), the sampling-option checks and the table view of
figures with standard errors."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Optional


from oddsmith import lazy
from oddsmith.errors import OddsmithError
from oddsmith.output import Format, check_output_path, is_proportion, note, plus_minus
from oddsmith.sampling import check_trials, check_workers

if TYPE_CHECKING:
    from oddsmith.doomtown.deck import Deck

pd = lazy.module("pandas")  # heavy modules load when a command runs (docs/design.md, 'Start-up')
deck_label = lazy.function("oddsmith.doomtown.deck", "deck_label")  # the deck readers need the rules: not for --help
load_deck = lazy.function("oddsmith.doomtown.deck", "load_deck")

FORMAT_HELP = "Output format: table, csv, json or md."
OUTPUT_HELP = "Write to this file instead of stdout (written atomically; the folder must exist)."
WITHOUT_HELP = "Cards already out of the deck: card tokens (AS 8S Joker), titles, or 'gang' (the starting gang); ';' between items."
WITH_GANG_HELP = ("Keep the starting gang in the draw deck (the full deck list). Default: the deck as set-up leaves it, "
                  "the starting gang in play.")


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


def load(spec: str, partial: bool, without: Optional[str] = None, with_gang: bool = False) -> Deck:
    """DECK as the commands take it: a file, ``-`` or a sample name, after set-up (the full deck with
    --with-gang), then --without; --partial accepts an incomplete list."""
    return load_deck(spec, partial=partial, without=without or None, with_gang=with_gang)


def deck_state_lines(decks: Iterable[Deck], fmt: Format = Format.table) -> str:
    """The lines that say which deck each figure uses (table and Markdown output), one per deck:
    ``Deck used: NAME, N cards, after set-up (starting gang in play: ...)``. A deck given twice
    (the same name, cards and state, e.g. a deck and its own reference opponent) is listed once."""
    seen: dict[tuple, Deck] = {}
    for d in decks:
        seen.setdefault((deck_label(d), tuple(sorted(d.codes().tolist())), d.deck_state), d)
    lines = [f"Deck used: {deck_label(d)}, {len(d)} cards, {d.deck_state}" for d in seen.values()]
    if fmt is Format.md:
        return "\n".join(f"- {line}" for line in lines) + "\n"
    return "".join(note(line) for line in lines)


def with_deck_state(df: pd.DataFrame, deck_state: object) -> pd.DataFrame:
    """``df`` with a ``deck_state`` column (the CSV form of which deck was used): one text for
    every row, or one per row."""
    out = df.copy()
    out["deck_state"] = deck_state if isinstance(deck_state, str) else list(deck_state)
    return out


def readable(df: pd.DataFrame, exact: bool, digits: int = 6, *, trials: Optional[int] = None,
             proportions: Optional[Iterable[bool]] = None) -> pd.DataFrame:
    """The table and Markdown view: exact figures without their (zero) standard errors;
    simulated figures as "value ± standard error", where none can be estimated the exact
    95% bound of a probability seen as 0 or 1 in ``trials`` ("(< 0.0015 at 95%)"), else "± n/a"
    (:func:`oddsmith.output.plus_minus`; JSON and CSV keep plain columns). A column holds
    probabilities by its name (:func:`oddsmith.output.is_proportion`); ``proportions`` says it
    row by row for a ``value`` column of mixed figures.
    A ``cheatin`` column with no figure at all is left out."""
    if exact:
        return df.drop(columns=[c for c in df.columns if c == "stderr" or c.endswith("_stderr")])
    out = {}
    for col in df.columns:
        if col == "stderr" or col.endswith("_stderr") or (col == "cheatin" and df[col].isna().all()):
            continue
        partner = "stderr" if col == "probability" else f"{col}_stderr"
        if partner in df.columns:
            rows = list(proportions) if proportions is not None and col == "value" else [is_proportion(col)] * len(df)
            out[col + " ± se"] = [plus_minus(v, e, digits, trials=trials, proportion=p)
                                  for v, e, p in zip(df[col], df[partner], rows)]
        else:
            out[col] = df[col]
    return pd.DataFrame(out)
