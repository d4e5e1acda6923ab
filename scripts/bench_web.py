"""The web app's answer time for each page's default question against the same calls through the
Python API, measured in one run (docs/speed.md, 'The web app').

For each page: the analysis calls the CLI makes for the page's default question, timed directly;
then the page itself, fetched over HTTP from ``oddsmith serve`` started in its own process on a free
localhost port (the whole answer: question read, the same analyses, the HTML). Each repetition uses a fresh seed, the same
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


def fetch(client, url: str):
    """The page's answer: a page still computing after the server's wait (HTTP 202) is followed as the
    browser follows it (poll the job, then load the page again, which answers from the finished job)."""
    page = client.get(url)
    while page.status_code == 202:
        job = re.search(r'data-job="(\w+)"', page.text).group(1)
        while client.get(f"/jobs/{job}").json()["state"] == "running":
            time.sleep(0.01)
        page = client.get(url)
    return page


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()

    import subprocess

    import httpx

    # the server in its own process (as a user runs it), so the API calls timed here never share its GIL
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    env = {**os.environ, "PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen([sys.executable, "-m", "oddsmith", "serve", "--port", "0"], cwd=root, env=env,
                            stdout=subprocess.PIPE, text=True)
    first = proc.stdout.readline()
    base = re.search(r"(http://\S+)/", first).group(1)
    # a fresh connection per request, as curl makes: on a kept-alive httpx connection every response here, a
    # static file's included, arrives about 40 ms late (delayed ACK), a cost of the client, not of the app
    client = httpx.Client(base_url=base, timeout=600, limits=httpx.Limits(max_keepalive_connections=0))
    print(f"oddsmith web benchmark: {args.repeats} repeats per page (4x for the dice page); load average "
          f"{os.getloadavg()[0]:.2f} at the start (2-core machine)")
    print("times in ms, medians of the repeats. API: the analysis calls; page: the HTTP answer; its Server-Timing "
          "split:\nread (the query, decks and posses loaded), analysis (the same calls), render (the HTML); "
          "rest = page - analysis\n(everything that is not the analyses, deck loading included, measured within "
          "the same request)")
    print(f"{'page':<27}{'API':>8}{'page':>8}{'page-API':>10}{'read':>8}{'analysis':>10}{'render':>8}{'rest':>8}"
          f"{'charts':>8}")
    for label, url, api in PAGES:
        sep = "&" if "?" in url else "?"
        api(1), fetch(client, url + f"{sep}seed=1")  # warm up: imports, the shipped tables, round-win table caches
        rows = []
        repeats = args.repeats * (4 if api is api_dice else 1)  # the exact page is cheap: more repeats
        for r in range(repeats):
            seed = 1000 + r
            t0 = time.perf_counter()
            api(seed)
            t1 = time.perf_counter()
            page = fetch(client, url + f"{sep}seed={seed}" + (f"&exp={r % 20}" if api is api_dice else ""))
            t2 = time.perf_counter()
            assert page.status_code == 200, (url, page.status_code)
            timing = dict(re.findall(r"(\w+);dur=([\d.]+)", page.headers["server-timing"]))
            charts = re.findall(r"/charts/\w+\.svg", page.text)
            for c in charts:
                assert client.get(c).status_code == 200
            t3 = time.perf_counter()
            web = 1000 * (t2 - t1)
            rows.append((1000 * (t1 - t0), web, float(timing["read"]), float(timing["analysis"]),
                         float(timing["render"]), web - float(timing["analysis"]),
                         1000 * (t3 - t2) if charts else float("nan")))
        med = [statistics.median(col) for col in zip(*rows)]
        a, w, rd, an, rn, rest, ch = med
        print(f"{label:<27}{a:>8.1f}{w:>8.1f}{w - a:>10.1f}{rd:>8.1f}{an:>10.1f}{rn:>8.1f}{rest:>8.1f}"
              f"{'' if ch != ch else f'{ch:.0f}':>8}")
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    proc.terminate()
    proc.wait(10)


if __name__ == "__main__":
    main()
