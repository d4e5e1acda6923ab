"""The web app's answer time for each page's default question against the same calls through the
Python API, measured in one run (docs/speed.md, 'The web app').

For each page: the analysis calls the CLI makes for the page's default question, timed directly;
then the page itself, fetched over HTTP from a real uvicorn server on a localhost port (the whole
answer: question read, the same analyses, the HTML). Each repetition uses a fresh seed, the same
for both, so neither side answers from a cache. The charts, which the browser fetches after the
page (drawn on request from the report's chart functions), are timed on their own.

    python scripts/bench_web.py [--repeats 5]
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def api_dice(seed: int) -> None:
    import oddsmith.shadows as S

    S.shoot(S.Shooter.of("veteran"), S.Target.of("novice"), "Carbine", range_band="medium", cover=False)


def api_deck(seed: int) -> None:
    from oddsmith.doomtown import lowball, shootout
    from oddsmith.doomtown.deck import deck_summary, load_deck

    deck, opp = load_deck("law-dogs"), load_deck("balanced")
    deck_summary(deck)
    lowball.lowball_odds(deck)
    lowball.gamblin_odds(deck, opp)
    shootout.tradeoff([deck, opp], vs=opp, studs=range(4), draws=range(4), trials=20_000, seed=seed)


def api_shootout(seed: int) -> None:
    from oddsmith.doomtown import full_shootout as F
    from oddsmith.doomtown.deck import load_deck
    from oddsmith.doomtown.posse import parse_posse

    a = F.FullSide(load_deck("law-dogs"), parse_posse("Philip Swinford; Tommy Harden"))
    b = F.FullSide(load_deck("outlaws"), parse_posse("Allie Hensman; Ike Clanton"))
    F.full_shootout(a, b, trials=20_000, seed=seed)
    F.what_if(a, b, trials=10_000, seed=seed)


def api_posse(seed: int) -> None:
    from oddsmith.shadows import battle as B
    from oddsmith.shadows import posse as P
    from oddsmith.shadows import value as V

    a, b = P.sample_posse("unaligned"), P.sample_posse("twilight-order")
    P.roster_table(a), P.cost_table(a), P.shooting_table(a)
    opts = B.battle_options("10")
    B.battle(a, b, opts, trials=10_000, seed=seed)
    V.value(a, b, opts, trials=1_000, seed=seed)


PAGES = [("Shadows dice (exact shot)", "/shadows/dice", api_dice),
         ("Doomtown deck", "/doomtown/deck?deck=law-dogs&vs=balanced&studs=0-3&draws=0-3&trials=20000", api_deck),
         ("Doomtown shootout", "/doomtown/shootout?trials=20000&what_if_trials=10000", api_shootout),
         ("Shadows posse and battle", "/shadows/posse?posse=unaligned&vs=twilight-order&trials=10000&value_trials=1000",
          api_posse)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()

    import httpx
    import uvicorn

    from oddsmith.web.app import make_app
    from oddsmith.web.server import address, bind

    sock = bind("127.0.0.1", 0)
    base = address(sock).rstrip("/")
    server = uvicorn.Server(uvicorn.Config(make_app(wait_seconds=600), log_level="warning", access_log=False))
    threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    client = httpx.Client(base_url=base, timeout=600)
    print(f"oddsmith web benchmark: {args.repeats} repeats per page, medians; load average "
          f"{os.getloadavg()[0]:.2f} at the start (2-core machine)")
    print(f"{'page':<28}{'API ms':>10}{'page ms':>10}{'overhead ms':>13}{'charts ms':>11}")
    for label, url, api in PAGES:
        sep = "&" if "?" in url else "?"
        api(1), client.get(url + f"{sep}seed=1")  # warm up: imports, the shipped tables, round-win table caches
        t_api, t_web, t_chart = [], [], []
        for r in range(args.repeats):
            seed = 1000 + r
            t0 = time.perf_counter()
            api(seed)
            t1 = time.perf_counter()
            page = client.get(url + f"{sep}seed={seed}")
            t2 = time.perf_counter()
            assert page.status_code == 200, (url, page.status_code)
            charts = re.findall(r"/charts/\w+\.svg", page.text)
            for c in charts:
                assert client.get(c).status_code == 200
            t3 = time.perf_counter()
            t_api.append(1000 * (t1 - t0))
            t_web.append(1000 * (t2 - t1))
            t_chart.append(1000 * (t3 - t2) if charts else float("nan"))
        a, w = statistics.median(t_api), statistics.median(t_web)
        c = statistics.median(t_chart)
        print(f"{label:<28}{a:>10.1f}{w:>10.1f}{w - a:>13.1f}{'' if c != c else f'{c:.0f}':>11}")
    server.should_exit = True


if __name__ == "__main__":
    main()
