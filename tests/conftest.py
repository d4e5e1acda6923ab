"""Every test's result cache lives in a temporary folder, never in the user's ~/.cache/oddsmith."""
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
