"""Putting a report together: settings checked up front, pages built, document written.

Everything a user can get wrong (format, paper size, output folder, trials,
workers, seed, deck or posse names) is checked before any long work starts,
so bad input costs nothing and leaves no file behind.
"""
from __future__ import annotations

import contextlib
import datetime as _dt
import os
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from oddsmith import cache
from oddsmith.output import Progress
from oddsmith.report import document, glossary
from oddsmith.sampling import SamplingPlan, check_trials, check_workers, chunks_on_this_thread, resolve_seed

#: Trials per simulated figure in reports: the standard error of a proportion is at
#: most sqrt(0.25 / 50000) = 0.22 percentage points, under the half point a printed
#: chart can show, and the sample report stays well under a minute on one core.
REPORT_TRIALS = 50_000
#: Trials when --trials is not given, in place of REPORT_TRIALS: for tests and quick looks at the layout
#: (the page footers and the cover state the trials and errors of whatever ran).
TRIALS_ENV = "ODDSMITH_REPORT_TRIALS"
DEFAULT_PAPER = "a4"


def default_trials() -> int:
    """:data:`REPORT_TRIALS`, or a whole number in ``$ODDSMITH_REPORT_TRIALS``."""
    wanted = os.environ.get(TRIALS_ENV, "").strip()
    return int(wanted) if wanted.isdigit() and int(wanted) > 0 else REPORT_TRIALS
DEFAULT_DPI = 150

TITLES = {
    "full": "oddsmith sample report",
    "deck": "oddsmith deck report",
    "shadows": "Shadows of the West reference sheets",
}


@dataclass(frozen=True)
class ReportSettings:
    """The checked options of one report."""

    output: Path
    fmt: str
    paper: str
    dpi: int
    seed: int
    trials: int
    workers: int
    cache: bool = True

    @classmethod
    def from_options(cls, *, output: str | os.PathLike[str], fmt: str | None = None, paper: str | None = None,
                     dpi: int | None = None, seed: int | None = None, trials: int | None = None,
                     workers: int | None = None, cache: bool = True) -> "ReportSettings":
        fmt = document.format_for(output, fmt)
        paper = document.check_paper(paper or DEFAULT_PAPER)
        dpi = document.check_dpi(DEFAULT_DPI if dpi is None else dpi)
        target = document.check_output(output, several_files=fmt != "pdf")
        return cls(output=target, fmt=fmt, paper=paper, dpi=dpi, seed=resolve_seed(seed),
                   trials=check_trials(default_trials() if trials is None else trials),
                   workers=check_workers(1 if workers is None else workers), cache=cache)

    def plan(self) -> SamplingPlan:
        return SamplingPlan(seed=self.seed, trials=self.trials)


#: What each kind of step costs, relative to the others (each step's wall time in the sample report on 2 cores,
#: 2026-12-07: a value page 2.2 s, the matchups 0.5 s, a deck's what-if page 0.6 s, its shootouts 0.26 s, its
#: swaps 0.25 s and its lowball 0.02 s, the work both processes share at the end, in "decks against each other",
#: 1.5 s, a page drawn 0.06 s, a Shadows sheet 0.01 s): the progress bar and its time left weigh the steps by
#: these, so a cheap first step does not promise 1 s and a dear one then stall the bar. A label is weighed by its
#: kind, after its last ": " (a deck's name never counts), the first matching word winning; a page's
#: drawing is "writing page k of n".
STEP_SECONDS = (("shootouts", 0.26), ("what if", 0.6), ("swaps", 0.25), ("battles", 0.5), ("value", 2.2),
                ("lowball", 0.02), ("against each other", 1.5), ("page", 0.06))
DEFAULT_STEP_SECONDS = 0.01  # a Shadows sheet: its exact tables are worked out as its page is drawn
#: How many seconds of the weights' own scale (one weighed second a second) the speed so far starts from.
PRIOR_SECONDS = 1.0
#: Pages each step adds (for the writing's share of the bar before the pages exist); others: one.
PAGES_PER_STEP = (("against each other", 2),)
FRAME_PAGES = 3  # the cover and the glossary: two pages for one game (three for both: pages_to_write corrects it)


def _kind(label: str) -> str:
    """What a step does: its label after the last ": " (a deck's name never counts)."""
    return label.rsplit(": ", 1)[-1]


def expected_pages(labels: list[str]) -> int:
    """About how many pages the steps ``labels`` make (the real count replaces it once known)."""
    return FRAME_PAGES + sum(next((n for word, n in PAGES_PER_STEP if word in _kind(x)), 1) for x in labels)


def step_seconds(label: str) -> float:
    """The expected cost of the step named ``label`` (:data:`STEP_SECONDS`)."""
    kind = _kind(label)
    for word, seconds in STEP_SECONDS:
        if word in kind:
            return seconds
    return DEFAULT_STEP_SECONDS


class Steps(Progress):
    """Progress over the steps of a report, naming the one being built (stderr only).

    Steps are weighed by what they cost (:func:`step_seconds`), the bar moves within a step as
    time passes (up to 90 % of that step), and the time left counts down during a long step
    instead of climbing: the speed so far, times the work left, less the time already spent on
    the step under way (never less than the steps after it need)."""

    UNITS = 1000

    def __init__(self, labels: list[str], label: str = "", *, delay: float = 0.5, clock=None) -> None:
        kwargs = {"clock": clock} if clock is not None else {}
        super().__init__(self.UNITS, label, delay=delay, **kwargs)
        self.weight_total = max(sum(step_seconds(x) for x in labels), 1e-9)
        self.weight_done = 0.0
        self.weight_now = 0.0
        self.step_start = self.start
        self.time_done = 0.0  # elapsed time when the last step finished

    def pages_to_write(self, expected: int, actual: int) -> None:
        """The pages to write are ``actual``, not the ``expected`` the weights were made with."""
        self.weight_total = max(self.weight_total + (actual - expected) * step_seconds("page"), 1e-9)

    def made_elsewhere(self, labels: list[str]) -> None:
        """The steps ``labels`` are made by another process meanwhile: this one spends no time on them (waiting
        for that process is a step of its own), so they weigh nothing here."""
        self.weight_total = max(self.weight_total - sum(step_seconds(x) for x in labels), 1e-9)

    def step(self, label: str) -> None:
        self.label = f"{label[:38]:<38}"
        self.weight_now = step_seconds(label)
        self.step_start = self.clock()
        self.draw()

    def done_step(self) -> None:
        self.weight_done = min(self.weight_total, self.weight_done + self.weight_now)
        self.weight_now = 0.0
        self.time_done = self.elapsed
        self.draw()

    def _rate(self) -> float | None:
        """Seconds per weighed second so far, starting from the weights' own scale (:data:`PRIOR_SECONDS` of it): the
        first steps are too quick to time alone (the Shadows sheets take a hundredth of a second each)."""
        if self.weight_done <= 0 or self.time_done <= 0:
            return None
        return (self.time_done + PRIOR_SECONDS) / (self.weight_done + PRIOR_SECONDS)

    def time_left(self) -> float | None:
        rate = self._rate()
        if rate is None:
            return None
        after = rate * max(self.weight_total - self.weight_done - self.weight_now, 0.0)
        in_step = self.clock() - self.step_start
        return after + max(rate * self.weight_now - in_step, 0.0)

    def draw(self, *, force: bool = False) -> None:
        rate = self._rate() or 1.0
        in_step = self.clock() - self.step_start
        credit = self.weight_now * min(in_step / max(rate * self.weight_now, 1e-9), 0.9) if self.weight_now else 0.0
        self.done = int(self.UNITS * min((self.weight_done + credit) / self.weight_total, 1.0))
        super().draw(force=force)


def make_report(kind: str, settings: ReportSettings, *, decks: list[str] | None = None, vs: str | None = None,
                posse: str | None = None, with_gang: bool = False) -> tuple[list[Path], int]:
    """Build and write a report; returns the files written and the page count. Its simulations run their chunks
    on the thread that asks for them (:func:`oddsmith.sampling.chunks_on_this_thread`): every chunk of a report is
    short."""
    head = _head_start(kind, settings)  # before pandas loads (python_strings): the thread plays while it does
    try:
        with fewer_collections(), python_strings(), chunks_on_this_thread():
            return _make_report(kind, settings, decks=decks, vs=vs, posse=posse, with_gang=with_gang, head=head)
    finally:
        if head is not None:
            head.stop()


def python_strings():
    """pandas' strings held in Python objects for the duration, not in Arrow arrays.

    pandas 3 keeps a frame's strings in Arrow arrays wherever pyarrow is installed (the option
    ``mode.string_storage``, "auto"). A report makes thousands of small frames (labels, table cells) and reads
    them back a cell at a time, where each Arrow array costs a conversion both ways: about 0.3 s more CPU to
    build the sample report's pages (docs/speed.md, 'Reports'). The strings and every figure are the same either
    way. The option is pandas' own, for the whole process (forked workers inherit it), and restored after."""
    import pandas as pd

    return pd.option_context("mode.string_storage", "python")


#: The cyclic garbage collector's first threshold while a report is made (Python's default: 700).
REPORT_GC_THRESHOLD = 50_000


@contextlib.contextmanager
def fewer_collections():
    """Run the cyclic garbage collector seldom, and never over what exists already, for the duration.

    A report allocates millions of short-lived objects (Matplotlib's artists, transforms and texts,
    pandas' frames), and Python's default collects its youngest generation every 700 of them and, every
    hundred or so of those, walks every object alive: the modules of numpy, pandas and Matplotlib included.
    Frozen objects (``gc.freeze``) are never walked, and a collection every 50,000 allocations still frees
    each page's figure soon after it is written. Worker processes forked meanwhile inherit both. Measured:
    about a fifth less CPU to draw the pages (docs/speed.md, 'Reports')."""
    import gc

    threshold, frozen = gc.get_threshold(), gc.get_freeze_count()
    if not frozen:  # a caller that freezes objects itself decides what is frozen (unfreeze cannot tell them
        gc.freeze()  # apart, and freezing its garbage would keep it for good)
    gc.set_threshold(REPORT_GC_THRESHOLD, *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        if not frozen:
            gc.unfreeze()


def _make_report(kind: str, settings: ReportSettings, *, decks: list[str] | None, vs: str | None,
                 posse: str | None, with_gang: bool, head=None) -> tuple[list[Path], int]:
    from oddsmith.report import battle_page, deck_report, shadows_sheets

    plan = settings.plan()
    # Load every input first: a missing deck or posse fails before any simulation.
    deck_inputs = None
    if kind in ("full", "deck"):
        deck_inputs = deck_report.load_decks(decks if kind == "deck" else None, vs, with_gang=with_gang)
    posse_input = shadows_sheets.load_posse(posse) if kind == "shadows" and posse else None
    date = _dt.date.today().isoformat()
    digest = None
    if settings.cache:  # with --no-cache nothing is looked up or stored: no key (hashing the package's files)
        digest = _cache_key(kind, settings, date, deck_inputs, posse_input)
        hit = _from_cache(digest, settings)
        if hit is not None:
            return hit

    labels: list[str] = []
    if deck_inputs is not None:
        labels += deck_report.step_labels(deck_inputs)
    if kind in ("full", "shadows"):
        labels += shadows_sheets.step_labels(posse_input) + battle_page.step_labels()
    n_pages = expected_pages(labels)
    pages: list[document.Page] = []
    with Steps(labels + ["page"] * n_pages, "report", delay=0.5) as steps:
        # The last value page is made in a second process while this one makes the Shadows sheets, the first value
        # page and the deck pages; then both share what is left, dearest first (each deck's what-if page, then each
        # battle of the matchup page), one at a time, so neither waits long for the other (docs/speed.md,
        # 'Reports'). Every simulation draws from its own seeded streams: where and in which order they run
        # changes no figure.
        second = _start_second(plan, settings.workers, deck_inputs, head) if kind == "full" else None
        if second is not None:
            steps.made_elsewhere(_made_by_second(deck_inputs))
        try:
            fought: list[document.Page] = []
            if kind in ("full", "shadows"):
                sheets = shadows_sheets.shadows_pages(posse_input, steps=steps)
                builders = battle_page.battle_builders(plan, settings.workers)
                fought = document.build_pages(builders if second is None else builders[1:-1], steps)
            if deck_inputs is not None:
                what_ifs = None if second is None else second.what_ifs
                pages += document.in_part(deck_report.deck_pages(deck_inputs, plan, workers=settings.workers,
                                                                 steps=steps, what_ifs=what_ifs),
                                          glossary.DOOMTOWN)
            if second is not None:
                fought = [second.matchup_page()] + fought + [second.value_page()]
            if kind in ("full", "shadows"):
                pages += document.in_part(sheets + fought, glossary.SHADOWS)
        finally:
            if second is not None:
                second.stop()
        doc = document.Document(
            title=TITLES[kind], pages=pages, seed=plan.seed, bit_generator=plan.bit_generator, date=date,
            chunk_trials=plan.chunk_trials, description=_description(kind, deck_inputs, posse_input),
            reproduce=reproduce_command(kind, settings, decks=decks, vs=vs, posse=posse, with_gang=with_gang))
        paged = settings.fmt not in ("md", "html")
        # what is drawn one by one: every page, or (Markdown, HTML) every chart
        total = len(doc.all_pages()) if paged else sum(len(p.charts()) for p in doc.all_pages(paged=False))
        steps.pages_to_write(n_pages, total)

        def on_page(number: int, of: int) -> None:
            steps.done_step()
            if number < of:
                steps.step(f"writing page {number + 1} of {of}")

        steps.step(f"writing page 1 of {total}")
        written = document.write_document(doc, settings.output, fmt=settings.fmt, paper=settings.paper,
                                          dpi=settings.dpi, on_page=on_page)
    n_pages = len(doc.all_pages(paged=paged))
    if digest is not None:
        _to_cache(digest, written, n_pages)
    return written, n_pages


# ---------------------------------------------------------------------------- the second process

#: What the forked worker of :func:`_start_second` builds from, inherited, never pickled: the decks'
#: labels are keyed by the objects' ids, which a pickled copy would not keep.
_JOB: dict = {}


def _made_by_second(deck_inputs) -> list[str]:
    """The progress steps of the pages the second process makes, or shares: the matchups and the last value page
    (the first and the last of :func:`battle_page.battle_builders`) and the what-if pages."""
    from oddsmith.report import battle_page, deck_report

    labels = battle_page.step_labels()
    return [labels[0], labels[-1]] + deck_report.what_if_labels(deck_inputs)


def _shared_tasks(deck_inputs, begun: Sequence[str] = ()) -> list[tuple[str, object]]:
    """What the two processes share at the end, dearest first: each deck's what-if page (about 1 s of one core),
    then each battle of the matchup page (about 0.2 s) but those ``begun`` on the head start, so the last one claimed
    leaves the other process little time alone."""
    from oddsmith.shadows import posse

    tasks: list[tuple[str, object]] = [("what-if", k) for k in range(len(deck_inputs.decks))]
    return tasks + [("matchup", name) for name in posse.sample_posse_names() if name not in begun]


def _run_task(task: tuple[str, object], plan: SamplingPlan, workers: int, deck_inputs):
    from oddsmith.report import battle_page, deck_report

    kind, arg = task
    if kind == "what-if":
        return deck_report.what_if_page_of(deck_inputs, arg, plan, workers=workers)
    return battle_page.matchup_figures(arg, plan, workers)


def _claim_tasks(claims, tasks, plan: SamplingPlan, workers: int, deck_inputs) -> dict:
    """{task index: result} of every shared task this process claims while any is left."""
    from oddsmith.report import parallel

    return {i: _run_task(tasks[i], plan, workers, deck_inputs) for i in parallel.claimed(claims, len(tasks))}


def _second_job():
    """The last battle page, then shared tasks while any is left to claim: ({task index: result}, the page)."""
    from oddsmith.report import battle_page

    plan, workers, deck_inputs = _JOB["plan"], _JOB["workers"], _JOB["decks"]
    with chunks_on_this_thread():  # as in the process that started this one
        value = battle_page.battle_builders(plan, workers)[-1][1]()
        return _claim_tasks(_JOB["claims"], _JOB["tasks"], plan, workers, deck_inputs), value


class _Second:
    """The second process of a sample report (:func:`_start_second`), and the work it shares with this one."""

    def __init__(self, pool, result, claims, tasks, plan: SamplingPlan, workers: int, deck_inputs, head) -> None:
        self.pool, self.result, self.claims, self.tasks = pool, result, claims, tasks
        self.plan, self.workers, self.deck_inputs, self.head = plan, workers, deck_inputs, head
        self._done: tuple[dict, object] | None = None
        self._head_counts: dict = {}

    def _results(self) -> tuple[dict, object]:
        """Every shared task's result (claimed here while any is left, then the second's), and its value page.
        First the drawing is warmed up here (:func:`document.warm_up`, about 0.3 s), once for the processes that
        draw the pages, which inherit it (each would pay it), and the battle the head start stopped in is played to
        its end; the second process takes more of the shared tasks meanwhile."""
        if self._done is None:
            document.warm_up()
            if self.head is not None:
                self._head_counts = self.head.finish()
            mine = _claim_tasks(self.claims, self.tasks, self.plan, self.workers, self.deck_inputs)
            theirs, value = _wait(self.result)
            self._done = {**theirs, **mine}, value
        return self._done

    def _made(self, kind: str) -> list:
        made = self._results()[0]
        return [made[i] for i, task in enumerate(self.tasks) if task[0] == kind]

    def what_ifs(self) -> list:
        """Every deck's what-if page (None where it has none), in deck order."""
        return self._made("what-if")

    def matchup_page(self):
        from oddsmith.report import battle_page
        from oddsmith.shadows import posse

        made = self._results()[0]
        figures = {task[1]: made[i] for i, task in enumerate(self.tasks) if task[0] == "matchup"}
        for name, counts in self._head_counts.items():
            figures[name] = battle_page.matchup_figures(name, self.plan, self.workers, counts=counts)
        return battle_page.matchup_page(self.plan, self.workers,
                                        figures=[figures[name] for name in posse.sample_posse_names()])

    def value_page(self):
        return self._results()[1]

    def stop(self) -> None:
        self.pool.terminate()
        self.pool.join()


def _can_share() -> bool:
    """Whether a sample report can share its work with a second process: two cores or more, and fork."""
    import multiprocessing

    return (os.cpu_count() or 1) >= 2 and "fork" in multiprocessing.get_all_start_methods()


def _head_start(kind: str, settings: ReportSettings):
    """The matchup battles begun on a thread (:mod:`oddsmith.report.head_start`) for a sample report that shares
    its work with a second process, else None. What the thread needs is loaded here first: it loads nothing."""
    if kind != "full" or not _can_share():
        return None
    from oddsmith.report import battle_page, head_start
    from oddsmith.shadows import posse, posse_odds  # noqa: F401 (the plans read the posses' odds)

    return head_start.start(battle_page.BASE_SAMPLE, posse.sample_posse_names(), battle_page.OPTIONS,
                            battle_page.matchup_plan(settings.plan()))


def _start_second(plan: SamplingPlan, workers: int, deck_inputs, head=None) -> _Second | None:
    """The last battle page (a value page), then the shared tasks (:func:`_shared_tasks`: the what-if pages,
    6 pairs x ~31 changes x 10,000 whole shootouts, and the matchups the head start has not begun) this process has
    not claimed, built in one worker process (forked where the system can), started now; None where only one core
    is there to share or no fork. The head start stops first: no thread runs when the process forks. The worker
    ignores Ctrl-C: this process answers it and stops it. The pages hold the same figures as made here: every
    simulation draws from its own seeded streams."""
    import multiprocessing

    if not _can_share():
        return None
    from oddsmith.report import parallel

    if head is not None:
        head.stop()
    ctx = multiprocessing.get_context("fork")
    claims, tasks = ctx.Value("i", 0), _shared_tasks(deck_inputs, head.begun() if head is not None else ())
    _JOB.update(plan=plan, workers=workers, decks=deck_inputs, claims=claims, tasks=tasks)
    try:
        pool = ctx.Pool(1, initializer=parallel._start_worker, initargs=(None,))
    finally:
        _JOB.clear()
    return _Second(pool, pool.apply_async(_second_job), claims, tasks, plan, workers, deck_inputs, head)


def _wait(result):
    """The worker's result, answering Ctrl-C while waiting."""
    from oddsmith import interrupts

    while not result.ready():
        interrupts.check()
        result.wait(0.1)
    return result.get()


# ---------------------------------------------------------------------------- the result cache

def _cache_key(kind: str, settings: ReportSettings, date: str, deck_inputs, posse_input) -> bytes:
    """What a report's files depend on: its kind and inputs (the loaded decks and posse, hashed), seed,
    trials, paper, format, resolution, the output's name (page files and chart links carry it) and the
    date printed on it. Not --workers: the figures do not depend on it."""
    import hashlib
    import pickle

    decks = None
    if deck_inputs is not None:  # by label and content (DeckInputs itself holds object ids)
        decks = ([(deck_inputs.label(d), d) for d in deck_inputs.decks],
                 None if deck_inputs.vs is None else (deck_inputs.label(deck_inputs.vs), deck_inputs.vs),
                 deck_inputs.starters)
    inputs = hashlib.sha256(pickle.dumps((decks, posse_input), protocol=4)).hexdigest()  # hashed, never loaded
    return cache.key_digest("report", kind, inputs, settings.seed, settings.trials, settings.paper, settings.fmt,
                            settings.dpi, settings.output.name, date)


def _pack(files: list[tuple[str, bytes]], pages: int) -> bytes:
    out = bytearray(struct.pack("<II", pages, len(files)))
    for name, data in files:
        raw = name.encode("utf-8")
        out += struct.pack("<IQ", len(raw), len(data)) + raw + data
    return bytes(out)


def _unpack(payload: bytes) -> tuple[list[tuple[str, bytes]], int]:
    pages, n = struct.unpack_from("<II", payload, 0)
    at, files = 8, []
    for _ in range(n):
        name_len, size = struct.unpack_from("<IQ", payload, at)
        at += 12
        name = payload[at:at + name_len].decode("utf-8")
        at += name_len
        files.append((name, payload[at:at + size]))
        at += size
    if at != len(payload) or not files:
        raise ValueError("a cache entry of another layout")
    return files, pages


def _to_cache(digest: bytes, written: list[Path], pages: int) -> None:
    try:
        files = [(p.name, p.read_bytes()) for p in written if p.is_file()]
    except OSError:
        return
    if len(files) == len(written):  # not when writing to a device or a pipe
        cache.store(digest, _pack(files, pages))


def _from_cache(digest: bytes, settings: ReportSettings) -> tuple[list[Path], int] | None:
    """The files of an identical earlier run, written again (atomically), or None."""
    from oddsmith.output import atomic_paths

    payload = cache.load(digest)
    if payload is None:
        return None
    try:
        files, pages = _unpack(payload)
    except (ValueError, struct.error, UnicodeDecodeError):
        return None
    main = settings.output
    targets = [main.with_name(name) for name, _ in files]
    if targets[0].name != main.name:
        return None
    with atomic_paths(targets) as tmps:
        for tmp, (_, data) in zip(tmps, files):
            tmp.write_bytes(data)
    return targets, pages


def reproduce_command(kind: str, settings: ReportSettings, *, decks: list[str] | None = None, vs: str | None = None,
                      posse: str | None = None, with_gang: bool = False) -> str:
    """The command that makes this report again with the same figures (printed on its first page)."""
    import shlex

    words = ["oddsmith", "report"]
    if kind == "deck":
        words += ["deck", *(decks or [])] + (["--vs", vs] if vs else []) + (["--with-gang"] if with_gang else [])
    elif kind == "shadows":
        words += ["shadows"] + ([posse] if posse else [])
    words += ["--seed", str(settings.seed)]
    if settings.trials != REPORT_TRIALS:
        words += ["--trials", str(settings.trials)]
    if settings.paper != DEFAULT_PAPER:
        words += ["--paper", settings.paper]
    return " ".join(shlex.quote(w) for w in words)


def _description(kind, deck_inputs, posse_input) -> list[str]:
    from oddsmith.report import deck_report, shadows_sheets

    lines: list[str] = []
    if deck_inputs is not None:
        lines += deck_report.describe(deck_inputs)
    if kind in ("full", "shadows"):
        lines += shadows_sheets.describe(posse_input)
    return lines
