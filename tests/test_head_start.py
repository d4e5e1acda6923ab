"""The sample report's head start (oddsmith/report/head_start.py): matchup battles played on a thread, a block at a
time, stopped anywhere, finished here, give the counts of each battle played whole."""
from __future__ import annotations

import random
import sys
import threading
import time

import numpy as np
import pytest

from oddsmith.errors import OddsmithError
from oddsmith.report import battle_page, head_start
from oddsmith.sampling import SamplingPlan
from oddsmith.shadows import battle as B
from oddsmith.shadows import engine as E


def whole_chunks(name: str, plan: SamplingPlan) -> np.ndarray:
    """The plain reading: every chunk of the plan played in one kernel call from the chunk's own generator, as
    run_counts plays a battle, the chunks' counts summed."""
    setup = B.prepare(battle_page._sample(battle_page.BASE_SAMPLE), battle_page._sample(name), battle_page.OPTIONS)
    total = np.zeros(B._K.N_OUT, dtype=np.int64)
    for i, size in enumerate(plan.chunk_sizes()):
        out = np.zeros(B._K.N_OUT, dtype=np.int64)
        B._K.mc_battle(plan.chunk_generator(i), setup.models, setup.weapons, setup.n_models, setup.order,
                       setup.opts, E.SAVE_TABLE_ARRAY, E.DAMAGE_ARRAY, B._event_codes(setup.options),
                       B._dynamite_codes(), size, out)
        total += out
    return total


def test_a_default_plan_plays_what_run_counts_plays():
    plan = battle_page.matchup_plan(SamplingPlan(seed=11, trials=700))
    head = head_start.start(battle_page.BASE_SAMPLE, ["twilight-order"], battle_page.OPTIONS, plan)
    counts = head.finish()
    setup = B.prepare(battle_page._sample(battle_page.BASE_SAMPLE), battle_page._sample("twilight-order"),
                      battle_page.OPTIONS)
    assert np.array_equal(counts["twilight-order"], B.run_counts(setup, 700, 11))
    assert np.array_equal(counts["twilight-order"], whole_chunks("twilight-order", plan))


@pytest.mark.parametrize("case", range(6))
def test_stopped_anywhere_and_finished_it_gives_the_whole_battles_counts(case, monkeypatch):
    rng = random.Random(case)
    monkeypatch.setattr(head_start, "BLOCK_GAMES", rng.choice([7, 64, 100]))
    plan = SamplingPlan(seed=case, trials=rng.choice([150, 333, 600]), chunk_trials=rng.choice([128, 200, 4096]))
    names = rng.sample(battle_page.P.sample_posse_names(), 3)
    switch = sys.getswitchinterval()
    head = head_start.start(battle_page.BASE_SAMPLE, names, battle_page.OPTIONS, plan)
    assert sys.getswitchinterval() == head_start.SWITCH_SECONDS
    time.sleep(rng.choice([0, 0.005, 0.02, 0.2]))
    head.stop()
    assert sys.getswitchinterval() == switch  # restored
    begun = head.begun()
    assert begun == list(reversed(names))[:len(begun)]  # the last first, in order
    assert not any(t.name == "oddsmith-head-start" for t in threading.enumerate())
    counts = head.finish()
    assert list(counts) == begun
    for name in begun:
        assert np.array_equal(counts[name], whole_chunks(name, plan)), name


def test_what_the_thread_raises_is_raised_where_it_stops():
    plan = SamplingPlan(seed=1, trials=50)
    head = head_start.start(battle_page.BASE_SAMPLE, ["no-such-posse"], battle_page.OPTIONS, plan)
    with pytest.raises(OddsmithError, match="no-such-posse"):
        head.stop()
    head.stop()  # once raised, stopping again is quiet
    assert head.finish() == {}
