"""Every test's result cache lives in a temporary folder, never in the user's ~/.cache/oddsmith; the garbage
collector runs seldom (what a report does: oddsmith.report.build.fewer_collections); a quick twin is left out of a run
that has its slow test."""
import gc
import os

import pytest


@pytest.fixture(autouse=True, scope="session")
def _private_result_cache(tmp_path_factory):
    old = os.environ.get("ODDSMITH_CACHE_DIR")
    os.environ["ODDSMITH_CACHE_DIR"] = str(tmp_path_factory.mktemp("oddsmith-cache"))
    yield
    if old is None:
        os.environ.pop("ODDSMITH_CACHE_DIR", None)
    else:
        os.environ["ODDSMITH_CACHE_DIR"] = old


def pytest_sessionstart(session):
    # The tests draw pages and play games by the million objects: collect every 50,000 allocations, never over
    # what the imports and the collection made (as a report does); docs/development.md
    gc.set_threshold(50_000, *gc.get_threshold()[1:])


def pytest_collection_finish(session):
    gc.freeze()


def pytest_configure(config):
    """With ``-n``, pytest-xdist hands out the tests by its "load" schedule; "worksteal" instead lets a worker that has
    run out take pending tests from the other, so one long statistical test left at the end of a queue does not keep
    a core idle (docs/development.md). Left alone when another ``--dist`` was asked for, or without pytest-xdist."""
    if getattr(config.option, "dist", None) == "load" and getattr(config.option, "numprocesses", None):
        config.option.dist = "worksteal"


@pytest.hookimpl(trylast=True)  # after -m and -k have chosen the tests
def pytest_collection_modifyitems(config, items):
    """A quick twin (``@pytest.mark.quick_twin("test_x[1]")``) is the quick loop's smaller run of a setup that the slow
    test ``test_x[1]`` of the same module plays on more games: a run that has that slow test leaves the twin out, since
    it would repeat a weaker check of the same setup (docs/development.md)."""
    chosen = {item.nodeid for item in items}

    def repeated(item) -> bool:
        mark = item.get_closest_marker("quick_twin")
        return mark is not None and f"{item.nodeid.split('::')[0]}::{mark.args[0]}" in chosen

    twins = [item for item in items if repeated(item)]
    if twins:
        config.hook.pytest_deselected(items=twins)
        left_out = set(map(id, twins))
        items[:] = [item for item in items if id(item) not in left_out]
