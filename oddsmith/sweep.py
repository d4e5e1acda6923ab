"""Many decks on one grid of questions: one tidy table (``oddsmith sweep``; docs/deckbuilding.md).

For each deck and each question of the grid, one row:

* ``gamblin``: P(win Gamblin') against the opponent (exact,
  :mod:`oddsmith.doomtown.lowball`), and P(the Gamblin' hand is cheatin');
* ``shootout`` at each (stud, draw) of the grid: P(kept shootout hand at least
  ``at_least``, Full House by default), its cheatin' and mean rank: exact where
  the enumeration is (stud 0..2, no draw), else simulated.

Every row carries the oddsmith version, the seed and the trials. Tasks carry
card counts, never deck objects, and each simulated cell draws from the stream
(seed, deck, stud, draw, chunk) (:func:`oddsmith.executor.stream`; the deck part
is a key of its card counts), so the table is the same byte for byte whichever
executor runs it and in whatever order the decks are listed.

A sweep writing to a file keeps a journal beside it (``FILE.journal``): the rows
of every finished batch of decks, after a header naming the run. Run the same
command again after an interruption and the decks already done are read back
instead of computed; a journal that does not belong to the run, or that is
corrupted, stops the sweep with one line.
"""
from __future__ import annotations

import functools
import json
import math
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pandas as pd

from oddsmith import __version__
from oddsmith.errors import OddsmithError
from oddsmith.executor import STREAM_SWEEP, Executor, InlineExecutor, deck_key, stream
from oddsmith.rules.doomtown import HAND_SIZE, HandRank
from oddsmith.sampling import SamplingPlan, check_trials, resolve_seed

DEFAULT_TRIALS = 100_000
SWEEP_COLUMNS = ("deck", "source", "deck_key", "cards", "opponent", "question", "stud", "draw", "measure",
                 "p", "p_stderr", "p_cheatin", "p_cheatin_stderr", "mean_rank", "mean_rank_stderr", "exact",
                 "trials", "seed", "version")
JOURNAL_SUFFIX = ".journal"
DECKS_PER_BATCH = 4
"""Decks whose rows are computed, then journalled, together (a fixed cut; the rows do not depend on it)."""
DECK_SUFFIXES = (".txt", ".csv", ".dek", ".list")


@dataclass(frozen=True)
class SweepGrid:
    """The questions every deck is asked."""

    studs: tuple[int, ...] = (0, 1, 2)
    draws: tuple[int, ...] = (0, 1)
    at_least: int = int(HandRank.FULL_HOUSE)
    policy: str = "legal"
    discard: str = "heuristic"
    trials: int = DEFAULT_TRIALS

    def checked(self) -> "SweepGrid":
        from oddsmith.doomtown.shootout import check_bonus, check_discard, parse_policy

        studs = tuple(sorted({check_bonus(s, "--studs") for s in self.studs}))
        draws = tuple(sorted({check_bonus(d, "--draws") for d in self.draws}))
        if not studs or not draws:
            raise OddsmithError("sweep: give at least one stud and one draw bonus")
        if check_discard(self.discard) == "search":
            raise OddsmithError("sweep: the search discard policy is a one-hand reference; use heuristic or automaton")
        if not int(HandRank.PAIR) <= int(self.at_least) <= int(HandRank.DEAD_MANS_HAND):
            raise OddsmithError(f"--at-least {self.at_least}: a hand rank 2..11 (7 = Full House)")
        return SweepGrid(studs, draws, int(self.at_least), str(parse_policy(self.policy)), check_discard(self.discard),
                         check_trials(self.trials))

    @property
    def measure(self) -> str:
        from oddsmith.rules.doomtown import HAND_RANK_NAMES

        name = HAND_RANK_NAMES[HandRank(self.at_least)].lower().replace("'", "").replace(" ", "_")
        return f"p_{name}_or_better"


@dataclass(frozen=True)
class SweepDeck:
    """One deck of the sweep as tasks take it: its name, source and card counts."""

    name: str
    source: str
    counts: tuple[int, ...]

    @property
    def key(self) -> int:
        return deck_key(self.counts)


# --------------------------------------------------------------------------
# Decks
# --------------------------------------------------------------------------


def deck_files(specs: Sequence[str]) -> list[str]:
    """Deck specs with each folder replaced by its deck files (sorted by name)."""
    out: list[str] = []
    for spec in specs:
        p = Path(spec)
        if spec != "-" and p.is_dir():
            files = sorted(str(f) for f in p.iterdir() if f.is_file() and f.suffix.lower() in DECK_SUFFIXES)
            if not files:
                raise OddsmithError(f"{spec}: a folder with no deck files ({', '.join(DECK_SUFFIXES)})")
            out.extend(files)
        else:
            out.append(spec)
    return out


def sweep_deck(deck: Any, source: str = "") -> SweepDeck:
    """A deck as the sweep takes it (set up: the starting gang in play)."""
    from oddsmith.doomtown.deck import N_CODES, resolve_deck

    d = resolve_deck(deck)
    counts = np.bincount(np.asarray(d.codes(), dtype=np.int64), minlength=N_CODES)
    return SweepDeck(name=str(getattr(d, "name", "deck")), source=source or str(getattr(d, "source", "")),
                     counts=tuple(int(c) for c in counts))


def tune_candidates(deck: Any, opponent: Any, *, seed: int, executor: Executor, pool: str = "box") -> list[SweepDeck]:
    """The candidates of a default tune search of ``deck`` against ``opponent``: the current deck,
    every single swap on the Pareto frontier and the best sequences found."""
    from oddsmith.doomtown import tune as T
    from oddsmith.doomtown.deck import swap_cards

    res = T.tune(deck, opponent, search=T.TuneSearch(pool=pool), seed=seed, executor=executor)
    st = T.start(deck, T.TuneSearch(pool=pool))
    out = [sweep_deck(st.deck, source=f"tune of {st.deck.name}: current deck")]
    seen = {out[0].counts}
    chosen = [((r["out"], r["in"]),) for r in res.swaps.iloc[list(res.frontier)].to_dict("records")]
    chosen += [tuple(s) for s in res.sequences["swaps"]]
    for swaps in chosen:
        d = swap_cards(st.deck, list(swaps))
        sd = sweep_deck(d, source="tune of " + st.deck.name + ": " + "; ".join(f"-{o} +{i}" for o, i in swaps))
        if sd.counts not in seen:
            seen.add(sd.counts)
            out.append(SweepDeck(d.name, sd.source, sd.counts))
    return out


# --------------------------------------------------------------------------
# Tasks
# --------------------------------------------------------------------------


@functools.lru_cache(maxsize=8)
def _opponent_odds(opponent: tuple[int, ...]):
    """The opponent's exact lowball odds, worked out once per process: every deck of a sweep meets the same one."""
    from oddsmith.doomtown import lowball as L

    return L._exact_odds(np.asarray(opponent, dtype=np.int64), "opponent")


def exact_deck_task(grid: SweepGrid, counts: tuple[int, ...], opponent: tuple[int, ...]) -> np.ndarray:
    """Exact figures of one deck: [p_win, p_cheatin] of Gamblin', then per exact (stud, draw) cell
    [p, p_cheatin, mean_rank] (NaN for the simulated cells), in grid order."""
    from oddsmith.doomtown import lowball as L
    from oddsmith.doomtown.shootout import can_be_exact, exact_counts

    c = np.asarray(counts, dtype=np.int64)
    out = list(L.exact_p_win(c, _opponent_odds(tuple(opponent))))
    codes = L._counts_to_codes(c)
    for s in grid.studs:
        for d in grid.draws:
            if can_be_exact(s, d, int(c.sum())):
                e = exact_counts(codes, s, grid.policy)
                total = e.sum()
                ranks = np.repeat(np.arange(12), 2)
                out += [e[2 * grid.at_least:].sum() / total, e[1::2].sum() / total, float((e * ranks).sum() / total)]
            else:
                out += [math.nan] * 3
    return np.array(out, dtype=float)


def hands_chunk_task(grid: SweepGrid, counts: tuple[int, ...], seed: int, stud: int, draw: int, chunk: int,
                     trials: int) -> np.ndarray:
    """One chunk of one simulated cell, from the stream (seed, deck key, stud, draw, chunk):
    [hits, cheatin', sum of ranks, sum of squared ranks]."""
    from oddsmith.doomtown.tune import _policy_args, deal_positions, hand_outcomes

    from oddsmith.doomtown.lowball import _counts_to_codes

    codes = _counts_to_codes(np.asarray(counts, dtype=np.int64))
    margin, mode = _policy_args(_Policy(grid.policy, grid.discard))
    k = min(HAND_SIZE + stud + draw, codes.size)
    pos = deal_positions(stream(seed, STREAM_SWEEP, deck_key(counts), stud, draw, chunk), trials, codes.size, k)
    ranks, cheat = hand_outcomes(codes, pos, stud, draw, margin, mode)
    r = ranks.astype(np.int64)
    return np.array([(r >= grid.at_least).sum(), cheat.sum(), r.sum(), (r * r).sum()], dtype=np.int64)


@dataclass(frozen=True)
class _Policy:
    policy: str
    discard: str


# --------------------------------------------------------------------------
# The sweep
# --------------------------------------------------------------------------


def _cells(grid: SweepGrid, size: int) -> list[tuple[int, int, bool]]:
    from oddsmith.doomtown.shootout import can_be_exact

    return [(s, d, can_be_exact(s, d, size)) for s in grid.studs for d in grid.draws]


def _rows(deck: SweepDeck, opponent_name: str, grid: SweepGrid, seed: int, exact: np.ndarray,
          sims: dict[tuple[int, int], np.ndarray]) -> list[dict]:
    n = grid.trials
    size = int(sum(deck.counts))
    base = {"deck": deck.name, "source": deck.source, "deck_key": f"{deck.key:08x}", "cards": size,
            "opponent": opponent_name, "seed": int(seed), "version": __version__}
    rows = [{**base, "question": "gamblin", "stud": 0, "draw": 0, "measure": "p_win",
             "p": float(exact[0]), "p_stderr": 0.0, "p_cheatin": float(exact[1]), "p_cheatin_stderr": 0.0,
             "mean_rank": math.nan, "mean_rank_stderr": math.nan, "exact": True, "trials": 0}]
    for i, (s, d, is_exact) in enumerate(_cells(grid, size)):
        row = {**base, "question": "shootout", "stud": s, "draw": d, "measure": grid.measure}
        if is_exact:
            p, pc, mr = exact[2 + 3 * i: 5 + 3 * i]
            row.update(p=float(p), p_stderr=0.0, p_cheatin=float(pc), p_cheatin_stderr=0.0, mean_rank=float(mr),
                       mean_rank_stderr=0.0, exact=True, trials=0)
        else:
            hits, cheat, sr, sr2 = (int(x) for x in sims[(s, d)])
            mean = sr / n
            row.update(p=hits / n, p_stderr=_se(hits, n), p_cheatin=cheat / n, p_cheatin_stderr=_se(cheat, n),
                       mean_rank=mean, mean_rank_stderr=math.sqrt(max(sr2 / n - mean * mean, 0.0) / n),
                       exact=False, trials=n)
        rows.append(row)
    return rows


def _se(hits: int, n: int) -> float:
    p = hits / n
    return math.sqrt(max(p * (1 - p), 0.0) / n)


def run_batch(decks: Sequence[SweepDeck], opponent: SweepDeck, grid: SweepGrid, seed: int,
              executor: Executor) -> list[dict]:
    """The rows of ``decks``: every task of every deck handed to ``executor`` at once."""
    exact = executor.map(exact_deck_task, [(grid, d.counts, opponent.counts) for d in decks])
    plan = SamplingPlan(seed, grid.trials)
    tasks, index = [], []
    for j, d in enumerate(decks):
        for s, dr, is_exact in _cells(grid, int(sum(d.counts))):
            if not is_exact:
                for c in range(plan.n_chunks):
                    tasks.append((grid, d.counts, seed, s, dr, c, plan.chunk_size(c)))
                    index.append((j, s, dr))
    parts = executor.map(hands_chunk_task, tasks) if tasks else []
    sims: list[dict[tuple[int, int], np.ndarray]] = [{} for _ in decks]
    for (j, s, dr), part in zip(index, parts):  # summed in chunk order
        sims[j][(s, dr)] = sims[j].get((s, dr), 0) + part
    rows = []
    for j, d in enumerate(decks):
        rows += _rows(d, opponent.name, grid, seed, exact[j], sims[j])
    return rows


def frame(rows: list[dict]) -> pd.DataFrame:
    df = pd.DataFrame(rows, columns=list(SWEEP_COLUMNS))
    for col in ("stud", "draw", "cards", "trials", "seed"):
        df[col] = df[col].astype("int64")
    df["exact"] = df["exact"].astype(bool)
    return df


# --------------------------------------------------------------------------
# The journal (resuming after an interruption)
# --------------------------------------------------------------------------


def journal_path(output: str | os.PathLike[str]) -> Path:
    return Path(str(output) + JOURNAL_SUFFIX)


def run_header(decks: Sequence[SweepDeck], opponent: SweepDeck, grid: SweepGrid, seed: int) -> dict:
    """What a journal must match to be resumed: the version, seed, grid, opponent and decks."""
    return {"oddsmith_sweep": 1, "version": __version__, "seed": int(seed), "grid": asdict(grid),
            "opponent": opponent.counts, "decks": [[d.name, d.source, d.key] for d in decks]}


def read_journal(path: Path, header: dict) -> dict[int, list[dict]]:
    """Rows already done, by deck index; a journal of another run or a corrupted one raises."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise OddsmithError(f"{path}: the sweep journal is corrupted (not text); start over with --restart") from None
    except OSError as exc:
        raise OddsmithError(f"{path}: cannot read the sweep journal ({exc.strerror})") from None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    elif lines:
        lines.pop()  # the line being written when the run stopped: not done
    done: dict[int, list[dict]] = {}
    for i, line in enumerate(lines, 1):
        try:
            item = json.loads(line)
        except json.JSONDecodeError:
            raise OddsmithError(f"{path}: line {i}: the sweep journal is corrupted; start over with --restart") from None
        if i == 1:
            if not isinstance(item, dict) or item.get("oddsmith_sweep") != 1:
                raise OddsmithError(f"{path}: not a sweep journal; start over with --restart or write elsewhere")
            if json.loads(json.dumps(header)) != item:
                raise OddsmithError(f"{path}: the journal belongs to another sweep (other decks, grid, seed or "
                                    f"version); start over with --restart")
            continue
        if (not isinstance(item, dict) or not isinstance(item.get("deck_index"), int)
                or not isinstance(item.get("rows"), list)
                or not 0 <= item["deck_index"] < len(header["decks"])):
            raise OddsmithError(f"{path}: line {i}: the sweep journal is corrupted; start over with --restart")
        done[item["deck_index"]] = item["rows"]
    return done


class Journal:
    """Appends each finished deck's rows, one JSON line each, flushed to disk. A new journal is
    created with the first finished batch, so a run that fails before leaves none."""

    def __init__(self, path: Path, header: dict, fresh: bool) -> None:
        self.path, self.header, self.fresh = path, header, fresh
        self.fh = None

    def _line(self, item: dict) -> None:
        if self.fh is None:
            self.fh = open(self.path, "w" if self.fresh else "a", encoding="utf-8")
            if self.fresh:
                self._line(self.header)
        self.fh.write(json.dumps(item, allow_nan=True) + "\n")
        self.fh.flush()
        os.fsync(self.fh.fileno())

    def add(self, index: int, rows: list[dict]) -> None:
        self._line({"deck_index": index, "rows": rows})

    def close(self) -> None:
        if self.fh is not None:
            self.fh.close()


def sweep(decks: Sequence[SweepDeck], opponent: SweepDeck, grid: SweepGrid = SweepGrid(), *,
          seed: int | None = None, executor: Executor | None = None, journal: Path | None = None,
          progress: Any = None) -> pd.DataFrame:
    """Every deck on the grid (:data:`SWEEP_COLUMNS`, one row per deck and question, decks in the
    order given). With ``journal``, rows already there are reused and new ones journalled."""
    grid = grid.checked()
    seed = resolve_seed(seed)
    if not decks:
        raise OddsmithError("sweep: no decks")
    ex = executor or InlineExecutor()
    header = run_header(decks, opponent, grid, seed)
    done: dict[int, list[dict]] = {}
    log = None
    if journal is not None:
        fresh = not journal.exists()
        if not fresh:
            done = read_journal(journal, header)
        log = Journal(journal, header, fresh)
    try:
        todo = [i for i in range(len(decks)) if i not in done]
        for start in range(0, len(todo), DECKS_PER_BATCH):
            idx = todo[start:start + DECKS_PER_BATCH]
            rows = run_batch([decks[i] for i in idx], opponent, grid, seed, ex)
            per = len(rows) // len(idx)
            for k, i in enumerate(idx):
                done[i] = rows[k * per:(k + 1) * per]
                if log is not None:
                    log.add(i, done[i])
            if progress is not None:
                progress.advance(len(idx))
    finally:
        if log is not None:
            log.close()
    return frame([r for i in range(len(decks)) for r in done[i]])


def write_table(df: pd.DataFrame, path: Path, fmt: str) -> None:
    """Write the table atomically: Parquet (needs pyarrow) or CSV."""
    from oddsmith.output import atomic_path

    with atomic_path(path) as tmp:
        if fmt == "parquet":
            df.to_parquet(tmp, index=False, engine="pyarrow")
        else:
            df.to_csv(tmp, index=False, lineterminator="\n", float_format="%.17g")
