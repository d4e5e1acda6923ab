"""The sample report's matchup battles, begun on a thread while its process loads what both of its processes need.

A sample report's second process forks once the first has loaded pandas, the report's modules and the decks
(:func:`oddsmith.report.build._start_second`, about 0.4 s into the run): until then one core idles. The matchup
page's battles need none of that, only numpy and the battle kernel, which releases the GIL. So :func:`start` plays
them on a thread from the command's first moments, :data:`BLOCK_GAMES` games at a time, from the last matchup back
(the two processes share the matchups last, so the first ones are kept for them), until :meth:`HeadStart.stop`,
just before the fork: a block ends within milliseconds, and no thread runs when the process forks. The battles the
thread began leave the work the two processes share; this process plays what is left of the last one
(:meth:`HeadStart.finish`).

Game t of a chunk is keyed by the chunk's draws 2t and 2t + 1 wherever it is played
(:func:`oddsmith.shadows.battle.play_games`), and a battle's counts are sums of integers over its games, so the
counts are those of :func:`oddsmith.shadows.battle.run_counts`, to the last bit (docs/speed.md, 'Reports').
"""
from __future__ import annotations

import sys
import threading
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from oddsmith.sampling import SamplingPlan
from oddsmith.shadows import battle as B

#: Games of a battle played between two looks at the stop signal: about 5 ms of one core.
BLOCK_GAMES = 256
#: The interpreter's switch interval while the thread plays (Python's default: 0.005 s). Between two blocks the
#: thread waits for the GIL, which the importing thread holds until the interval ends: at the default it waited
#: about 5 ms after each 6 ms block (two thirds of a core played), at this about 0.5 ms (more than four fifths).
SWITCH_SECONDS = 0.0005


@dataclass
class _Battle:
    """One matchup's battle as far as it is played: chunk ``chunk``'s first ``first`` games and every chunk before."""

    name: str
    setup: B.BattleSetup
    counts: np.ndarray
    chunk: int = 0
    first: int = 0

    def play_block(self, plan: SamplingPlan) -> None:
        size = plan.chunk_size(self.chunk)
        n = min(BLOCK_GAMES, size - self.first)
        B.play_games(self.setup, plan.seed, self.chunk, self.first, n, self.counts)
        self.first += n
        if self.first == size:
            self.chunk, self.first = self.chunk + 1, 0

    def done(self, plan: SamplingPlan) -> bool:
        return self.chunk * plan.chunk_trials + self.first >= plan.trials


@dataclass
class HeadStart:
    """Matchup battles played on a thread (:func:`start`): each of ``names`` against ``base``, with the battle
    options ``options``, the games of ``plan`` each, in the order given."""

    base: str
    names: Sequence[str]
    options: B.BattleOptions
    plan: SamplingPlan
    _battles: list[_Battle] = field(default_factory=list)
    _stopping: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None
    _error: BaseException | None = None
    _switch: float | None = None  # the switch interval to restore

    def _run(self) -> None:
        from oddsmith.report.battle_page import _sample

        try:
            for name in self.names:
                if self._stopping.is_set():
                    return
                battle = _Battle(name, B.prepare(_sample(self.base), _sample(name), self.options),
                                 np.zeros(B._K.N_OUT, dtype=np.int64))
                self._battles.append(battle)
                while not battle.done(self.plan):
                    if self._stopping.is_set():
                        return
                    battle.play_block(self.plan)
        except BaseException as exc:  # handed to the thread that stops this one
            self._error = exc

    def stop(self) -> None:
        """Stop playing once the block in play ends, and wait for it; raise what the thread raised, if anything."""
        self._stopping.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        if self._switch is not None:
            sys.setswitchinterval(self._switch)
            self._switch = None
        if self._error is not None:
            error, self._error = self._error, None
            raise error

    def begun(self) -> list[str]:
        """The matchups begun (after :meth:`stop`)."""
        return [b.name for b in self._battles]

    def finish(self) -> dict[str, np.ndarray]:
        """{matchup: kernel counts} of every battle begun, each played to its end on this thread."""
        self.stop()
        for battle in self._battles:
            while not battle.done(self.plan):
                battle.play_block(self.plan)
        return {b.name: b.counts for b in self._battles}


def start(base: str, names: Sequence[str], options: B.BattleOptions, plan: SamplingPlan) -> HeadStart:
    """A :class:`HeadStart` playing the matchups ``names`` (last first) from now."""
    head = HeadStart(base, list(reversed(names)), options, plan)
    head._switch = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_SECONDS)
    head._thread = threading.Thread(target=head._run, name="oddsmith-head-start", daemon=True)
    head._thread.start()
    return head
