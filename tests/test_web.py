"""The web app at the HTTP level (httpx against the ASGI app, no server): every page and handler,
the figures against the Python API for the same seed, bad input, the job registry."""
from __future__ import annotations

import html
import re
import threading
import time
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("starlette")

from oddsmith.web.app import make_app  # noqa: E402
from oddsmith.web.jobs import Busy, JobRegistry  # noqa: E402

from cli_run import run  # noqa: E402

# starlette's TestClient warns that it will move from httpx to httpx2; it works as it is.
pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")


@pytest.fixture(scope="module")
def client():
    from starlette.testclient import TestClient

    with TestClient(make_app(wait_seconds=60), follow_redirects=False) as c:
        yield c


def figures(text: str) -> dict[str, float]:
    return {m.group(1): float(m.group(2)) for m in re.finditer(r'data-figure="([^"]+)" data-value="([^"]+)"', text)}


def error(text: str) -> str:
    m = re.search(r'class="error" role="alert">(.*?)</div>', text, re.S)
    return html.unescape(m.group(1)) if m else ""


def _quote(text: str) -> str:
    from urllib.parse import quote

    return quote(text, safe="")


def _no_vessel() -> str:
    """The Congregation sample without its Vessel: it breaks the Faction's rule (one model must be the Vessel)."""
    from oddsmith.shadows import posse as P

    return P.sample_posse_text("congregation")[1].replace('role = "Vessel"\n', "")


QUICK = {
    "/shadows/dice": "",
    "/doomtown/deck": "seed=1&trials=2000&studs=0-2&draws=0-1",
    "/doomtown/shootout": "seed=1&trials=2000&what_if_trials=500",
    "/shadows/posse": "seed=1&trials=1000&value_trials=100",
}


@pytest.mark.parametrize("path", ["/", *QUICK])
def test_every_page_answers_with_its_form_and_no_error(client, path):
    r = client.get(path + "?" + QUICK.get(path, ""))
    assert r.status_code == 200, error(r.text)
    assert "<form" in r.text or path == "/"
    assert not error(r.text)
    assert "Content-Security-Policy" in r.headers
    if path != "/":
        assert figures(r.text), "the answer shows its headline figures"


def test_a_page_without_a_seed_redirects_to_one_with_it(client):
    r = client.get("/doomtown/deck?trials=100")
    assert r.status_code == 303
    assert re.search(r"[?&]seed=\d+", r.headers["location"])
    assert "trials=100" in r.headers["location"]


@pytest.mark.parametrize("tool,query", [
    ("shoot", "shooter=Veteran&target=Novice&weapon=Carbine&range=long"),
    ("shoot", "shooter=Hero&target=Veteran&weapon=Sixgun&range=short&cover=1&skills=Deadeye&shaken=1"),
    ("fight", "shooter=Hero&target=Novice&charging=1"),
    ("recover", "shooter=Veteran&shaken=1&friend=1"),
    ("bottle", "shooter=Novice&preacher=1"),
    ("advance", "shooter=Veteran&exp=2"),
    ("injury", "shooter=Veteran&cause=downed"),
])
def test_dice_figures_are_the_engines(client, tool, query):
    import oddsmith.shadows as S
    from oddsmith.shadows import campaign as C

    r = client.get(f"/shadows/dice?tool={tool}&{query}")
    assert r.status_code == 200, error(r.text)
    got = figures(r.text)
    q = dict(p.split("=") for p in query.split("&"))
    if tool == "shoot":
        o = S.shoot(S.Shooter.of(q["shooter"].lower(), skills=[q["skills"]] if "skills" in q else []),
                    S.Target.of(q["target"].lower(), shaken="shaken" in q), q["weapon"], range_band=q["range"],
                    cover="cover" in q).outcomes
        want = {"hit": 1 - o["miss"], "shaken": o["shaken"], "downed": o["downed"], "casualty": o["casualty"]}
    elif tool == "fight":
        o = S.fight(S.Fighter.of("hero"), S.Fighter.of("novice"), charging=True).outcomes
        want = {k: o[k] for k in ("attacker_wins", "draw", "defender_wins", "defender_casualty")}
    elif tool == "recover":
        want = S.recovery("veteran", shaken=True, friend_in_contact=True).outcomes
    elif tool == "bottle":
        want = S.bottle_check("novice", preacher=True).outcomes
    elif tool == "injury":
        d = C.injury_distribution("veteran", "downed")
        want = {"full_recovery": float(d["full_recovery"]), "dead": float(d["dead"]), "survives": float(1 - d["dead"])}
        assert want["full_recovery"] == 0.5 and want["dead"] == 0.05  # the API docs' Hero/Downed row has 0.6 and 0.04
    else:
        want = {"p_advance": float(C.advance_chance("veteran", 2)),
                "expected_games": float(C.expected_games_to_advance("veteran", 2))}
    assert got == pytest.approx(want, abs=0, rel=1e-15)
    if tool == "shoot" and "cover" not in q:
        assert got["hit"] == 0.75 and got["casualty"] == pytest.approx(5 / 96)  # the API docs' figures


def test_deck_figures_are_the_apis_for_the_same_seed(client):
    from oddsmith.doomtown import lowball, shootout
    from oddsmith.doomtown.deck import load_deck

    r = client.get("/doomtown/deck?deck=law-dogs&vs=outlaws&studs=2-3&draws=0-1&trials=3000&seed=11")
    assert r.status_code == 200, error(r.text)
    deck, opp = load_deck("law-dogs"), load_deck("outlaws")
    assert figures(r.text)["lowball_p_win"] == lowball.gamblin_odds(deck, opp).p_win
    cells = {m.group(1): (float(m.group(2)), float(m.group(3))) for m in re.finditer(
        r'data-cell="([\d,]+)" data-mean-rank="([^"]+)" data-mean-rank-stderr="([^"]+)"', r.text)}
    assert set(cells) == {"2,0", "2,1", "3,0", "3,1"}
    for key, (mean, se) in cells.items():
        s, d = map(int, key.split(","))
        o = shootout.shootout_odds(deck, s, d, trials=3000, seed=11)
        assert (mean, se) == (o.mean_rank, o.mean_rank_stderr)
        assert (se == 0) == o.exact
    assert "± " in r.text and "/charts/" in r.text


def test_shootout_figures_are_the_apis_for_the_same_seed(client):
    from oddsmith.doomtown import full_shootout as F
    from oddsmith.doomtown.deck import load_deck
    from oddsmith.doomtown.posse import parse_posse

    r = client.get("/doomtown/shootout?seed=5&trials=4000&what_if_trials=0&vs_casualties=save-dudes")
    assert r.status_code == 200, error(r.text)
    a = F.FullSide(load_deck("law-dogs"), parse_posse("Philip Swinford; Tommy Harden"))
    b = F.FullSide(load_deck("outlaws"), parse_posse("Allie Hensman; Ike Clanton"), casualties="save-dudes")
    want = F.full_shootout(a, b, trials=4000, seed=5).summary.set_index("figure")["value"]
    got = figures(r.text)
    for f in ("p_a_wins", "p_b_wins", "rounds_mean", "dudes_lost_a"):
        assert got[f] == float(want[f])
    assert "What is +1 worth" not in r.text  # what_if_trials=0 skips it


def test_battle_figures_are_the_apis_for_the_same_seed(client):
    from oddsmith.shadows import battle as B
    from oddsmith.shadows import posse as P

    r = client.get("/shadows/posse?posse=unaligned&vs=dark-confederacy&movement=none&range=medium&trials=3000"
                   "&value_trials=0&seed=9")
    assert r.status_code == 200, error(r.text)
    res = B.battle(P.sample_posse("unaligned"), P.sample_posse("dark-confederacy"),
                   B.battle_options("medium", movement="none"), trials=3000, seed=9)
    got = figures(r.text)
    for f in ("p_a_wins", "p_b_wins", "p_draw", "casualties_b"):
        assert got[f] == res[f]
    assert "fights_mean" not in got  # no Fights at a fixed range: not a headline
    assert "Roster" in r.text and "What each $ buys" not in r.text


def test_table_battle_figures_are_the_apis_for_the_same_seed(client):
    """The table battle's options as form fields (movement, terrain, plan, vs_plan): the page's figures are the
    API's for the same seed, the Fight figures among the headlines and P(in a Fight) per model."""
    from oddsmith.shadows import battle as B
    from oddsmith.shadows import posse as P

    r = client.get("/shadows/posse?posse=unaligned&vs=dark-confederacy&movement=table&terrain=light&plan=brawl"
                   "&vs_plan=gunline&targets=closest&trials=2000&value_trials=0&seed=9")
    assert r.status_code == 200, error(r.text)
    res = B.battle(P.sample_posse("unaligned"), P.sample_posse("dark-confederacy"),
                   B.battle_options(terrain="light", plan="brawl", vs_plan="gunline", targets="closest"),
                   trials=2000, seed=9)
    got = figures(r.text)
    for f in ("p_a_wins", "p_b_wins", "casualties_b", "fights_mean", "p_b_fight_casualties", "p_a_fight_casualties"):
        assert got[f] == res[f], f
    assert res["fights_mean"] > 0
    assert "P(in a Fight)" in r.text and "terrain light" in r.text and "the posse brawl" in r.text
    for field in ('name="movement"', 'name="terrain"', 'name="plan"', 'name="vs_plan"'):
        assert field in r.text, field
    assert '<option selected>brawl</option>' in r.text and '<option selected>gunline</option>' in r.text


def test_value_page_says_which_plan_and_terrain(client):
    r = client.get("/shadows/posse?posse=unaligned&vs=twilight-order&plan=brawl&terrain=dense&trials=300"
                   "&value_trials=100&seed=3")
    assert r.status_code == 200, error(r.text)
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", r.text)).split())
    assert "the values hold for the table battle (movement table), plan brawl against plan balanced, terrain dense" \
        in text


BAD = [
    ("/doomtown/deck?seed=1&paste=" + "4x+8S%0A5x+9H", 400, "(line 2)"),
    ("/doomtown/deck?seed=1&paste=AS+XX", 400, "line 1"),
    ("/doomtown/deck?seed=1&deck=no-such-deck", 400, "no-such-deck"),
    ("/doomtown/deck?seed=1&trials=0", 400, "trials"),
    ("/doomtown/deck?seed=1&trials=10000000", 400, "out of range"),
    ("/doomtown/deck?seed=1&studs=0-40", 400, "studs"),
    ("/doomtown/deck?seed=-1", 400, "seed"),
    ("/doomtown/deck?seed=1&paste=" + "x" * 30_000, 413, "too long"),
    ("/doomtown/deck?seed=1&paste=%FF%FE%00%01garbage", 400, "not text"),
    ("/doomtown/shootout?seed=1&posse=Nobody+Atall", 400, "posse"),
    ("/doomtown/shootout?seed=1&flee=sometimes", 400, "flee"),
    ("/shadows/posse?seed=1&paste=%5Bposse%0Aname+%3D", 400, "pasted posse"),
    ("/shadows/posse?seed=1&paste=" + "%5Bposse%5D%0Aname%3D%22Two%22%0Amethod%3D%22advanced%22%0A"
     "%5B%5Bmodel%5D%5D%0Aname%3D%22Boss%22%0Arank%3D%22Hero%22%0Aweapons%3D%5B%22Pistol%22%5D", 400, "posse-size"),
    ("/shadows/posse?seed=1&movement=none&range=nowhere", 400, "range"),
    ("/shadows/posse?seed=1&range=8", 400, "a fixed range applies to movement none only"),
    ("/shadows/posse?seed=1&cover=1", 400, "the terrain decides Cover"),
    ("/shadows/posse?seed=1&movement=fly", 400, "movement"),
    ("/shadows/posse?seed=1&plan=rush", 400, "gunline, brawl"),
    ("/shadows/posse?seed=1&vs_plan=rush", 400, "vs_plan"),
    ("/shadows/posse?seed=1&terrain=jungle", 400, "dense"),
    ("/shadows/posse?seed=1&terrain=1.5", 400, "terrain"),
    ("/shadows/posse?seed=1&posse=&paste=" + _quote(_no_vessel()), 400, "Vessel"),
    ("/shadows/posse?seed=1&turns=9", 400, "turns"),
    ("/shadows/dice?tool=juggle", 400, "tool"),
    ("/shadows/dice?weapon=Trebuchet", 400, "weapon"),
    ("/shadows/dice?skills=Flying", 400, "Flying"),
]


@pytest.mark.parametrize("url,status,words", BAD)
def test_bad_input_is_a_message_on_the_page_and_a_4xx(client, url, status, words, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = client.get(url)
    assert r.status_code == status
    msg = error(r.text)
    assert words in msg, msg
    assert "<form" in r.text and "Traceback" not in r.text
    assert list(tmp_path.iterdir()) == []  # nothing written on the server's disk
    assert client.get("/shadows/dice").status_code == 200  # and it keeps serving


def test_an_oversized_query_is_refused_before_any_work(client):
    r = client.get("/shadows/posse?paste=" + "a" * 62_000)
    assert r.status_code == 413 and "too large" in error(r.text)


def test_unknown_pages_jobs_and_charts_are_404(client):
    assert client.get("/nowhere").status_code == 404
    assert client.get("/jobs/0123").status_code == 404
    assert client.post("/jobs/0123/cancel").status_code == 404
    assert client.get("/charts/abc.svg").status_code == 404
    assert client.get("/static/../app.py").status_code == 404


def test_charts_are_svg_from_the_report(client):
    r = client.get("/shadows/posse?seed=2&trials=500&value_trials=100")
    tokens = re.findall(r"/charts/(\w+)\.svg", r.text)
    assert tokens
    svg = client.get(f"/charts/{tokens[0]}.svg")
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert b"<svg" in svg.content and b"http://www.w3.org" in svg.content
    assert b"<text" not in svg.content  # text drawn as paths: no font to fetch


@pytest.mark.slow
def test_printable_view_and_pdf_reuse_the_report_pages(client, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    q = "/doomtown/deck?seed=1&trials=1000&studs=0-1&draws=0-1"
    p = client.get(q + "&view=print")
    assert p.status_code == 200 and 'class="print"' in p.text and "cards and lowball" in p.text
    assert "<form" not in p.text
    pdf = client.get(q + "&format=pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert pdf.content.count(b"/Type /Page\n") + pdf.content.count(b"/Type /Page ") >= 3
    # the report's pages in the standard fonts: nothing embedded
    assert b"/BaseFont /Helvetica" in pdf.content and b"/FontFile" not in pdf.content
    assert list(tmp_path.iterdir()) == []


def test_static_files_fetch_nothing_from_elsewhere(client):
    from importlib import resources

    root = resources.files("oddsmith.web")
    for folder in ("templates", "static"):
        for f in root.joinpath(folder).iterdir():
            text = f.read_text(encoding="utf-8").replace('xmlns="http://www.w3.org/2000/svg"', "")  # a name, not a fetch
            assert not re.search(r"https?://|//cdn|@import|url\(", text), f.name
    assert client.get("/static/style.css").status_code == 200
    assert client.get("/static/app.js").headers["content-type"].startswith("text/javascript")


# ---------------------------------------------------------------------------- jobs

def _long_battle():
    from oddsmith.shadows import battle as B
    from oddsmith.shadows import posse as P

    return B.battle(P.sample_posse("unaligned"), P.sample_posse("twilight-order"), trials=50_000_000, seed=1)


def test_progress_comes_from_the_chunk_loop():
    from oddsmith.doomtown.shootout import shootout_odds
    from oddsmith.output import observe_progress
    from oddsmith.sampling import CHUNK_TRIALS

    seen = []
    with observe_progress(lambda label, done, total: seen.append((label, done, total))):
        shootout_odds("balanced", 2, 1, trials=3 * CHUNK_TRIALS, seed=1)
    assert seen and seen[-1][1:] == (3 * CHUNK_TRIALS, 3 * CHUNK_TRIALS)
    assert [d for _, d, _ in seen] == sorted(d for _, d, _ in seen)


@pytest.mark.slow
def test_a_cancelled_job_stops_at_the_next_chunk():
    jobs = JobRegistry()
    job = jobs.start("long", _long_battle)
    deadline = time.monotonic() + 120
    while job.done == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert job.state == "running" and 0 < job.done < job.total
    jobs.cancel(job.id)
    assert job.wait(60)
    assert job.state == "cancelled" and job.done < job.total and job.result is None
    again = jobs.start("long", lambda: 42)  # a cancelled question starts afresh
    assert again is not job and again.wait(10) and again.result == 42


@pytest.mark.slow
def test_two_questions_at_once_both_get_answers():
    jobs = JobRegistry(max_running=2)
    long = jobs.start("long", _long_battle)
    while long.done == 0:
        time.sleep(0.02)
    quick = jobs.start("quick", lambda: "answer")
    assert quick.wait(30) and quick.result == "answer" and long.state == "running"
    assert jobs.start("quick", lambda: "other") is quick  # the same question shares the job
    with pytest.raises(Busy):
        jobs.start("third", _long_battle) if jobs.start("fourth", _long_battle) else None
    jobs.cancel_all()
    assert long.wait(60) and long.state == "cancelled"


def test_a_job_that_fails_says_why():
    from oddsmith.errors import OddsmithError

    def bad():
        raise OddsmithError("no such thing")

    job = JobRegistry().start("bad", bad)
    assert job.wait(10) and job.state == "failed" and job.error == "no such thing" and not job.internal
    bug = JobRegistry().start("bug", lambda: 1 / 0)
    assert bug.wait(10) and bug.state == "failed" and bug.internal and "ZeroDivisionError" in bug.error


@pytest.mark.slow
def test_the_page_shows_progress_then_can_be_cancelled_over_http():
    from starlette.testclient import TestClient

    with TestClient(make_app(wait_seconds=0.2, max_running=1)) as c:
        url = "/shadows/posse?seed=3&trials=200000&value_trials=10000"
        r = c.get(url)
        assert r.status_code == 202
        job = re.search(r'data-job="(\w+)"', r.text).group(1)
        assert c.get(f"/jobs/{job}").json()["state"] == "running"
        busy = c.get("/doomtown/shootout?seed=1&trials=400000")
        assert busy.status_code == 503 and "busy" in error(busy.text)
        assert c.get("/shadows/dice").status_code == 200  # exact pages never wait for a job
        s = c.post(f"/jobs/{job}/cancel").json()
        assert s["state"] in ("cancelled", "running")
        deadline = time.monotonic() + 60
        while c.get(f"/jobs/{job}").json()["state"] == "running" and time.monotonic() < deadline:
            time.sleep(0.1)
        assert c.get(f"/jobs/{job}").json()["state"] == "cancelled"
        again = c.get(url)
        assert again.status_code == 202 and re.search(r'data-job="(\w+)"', again.text).group(1) != job
        c.app.state.jobs.cancel_all()


# ---------------------------------------------------------------------------- the command

def test_serve_without_the_web_extra_says_how_to_install_it(capsys, monkeypatch):
    import oddsmith.web

    monkeypatch.setattr(oddsmith.web, "missing", lambda: "starlette")
    rc, out, err = run(capsys, "serve")
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and 'pip install "oddsmith[web]"' in err


def test_serve_refuses_a_bad_port_and_a_port_in_use(capsys):
    import socket

    rc, _, err = run(capsys, "serve", "--port", "70000")
    assert rc == 2 and "--port" in err
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        rc, _, err = run(capsys, "serve", "--port", s.getsockname()[1])
    assert rc == 2 and "cannot listen" in err and err.count("\n") == 1


def test_serve_command_module_imports_nothing_heavy():
    import subprocess
    import sys

    code = ("import sys, oddsmith.commands.serve; "
            "print(any(m in sys.modules for m in ('pandas', 'numpy', 'matplotlib', 'starlette', 'uvicorn')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[1])
    assert out.stdout.strip() == "False"
