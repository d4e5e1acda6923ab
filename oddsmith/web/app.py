"""The Starlette application of ``oddsmith serve``: one small handler per page, a job API.

Routes:

* ``/``: the index; ``/doomtown/deck``, ``/doomtown/shootout``, ``/shadows/dice``,
  ``/shadows/posse``: each a form (GET, so the URL holds the whole question, seed
  included) with its answer beside it; ``&view=print`` is the printable view of the
  answer and ``&format=pdf`` the same report pages as a PDF (made in memory);
* ``/jobs/{id}`` (GET: state and progress as JSON) and ``/jobs/{id}/cancel`` (POST);
* ``/static/...``: the style sheet and the one script, shipped in the package
  (nothing is fetched from anywhere else).

Bad input is answered on the page with HTTP 400 (413 for an oversized paste), a
full server with 503; the server keeps serving and writes nothing on disk.
"""
from __future__ import annotations

import asyncio
import secrets
import time
from importlib import resources
from types import ModuleType
from urllib.parse import urlencode

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from oddsmith.errors import OddsmithError
from oddsmith.web import render as H
from oddsmith.web.forms import BadInput, Query
from oddsmith.web.jobs import Busy, JobRegistry

#: Seconds a page waits for its simulation before answering with a progress panel instead.
WAIT_SECONDS = 3.0
#: Largest query string accepted (a pasted deck or posse, URL-encoded, fits well within it).
MAX_QUERY_BYTES = 60 * 1024

_STATIC = {"style.css": "text/css; charset=utf-8", "app.js": "text/javascript; charset=utf-8",
           "favicon.svg": "image/svg+xml"}
# Pages may use only what this server sends: no CDN, no external font or script, no telemetry.
_HEADERS = {"Content-Security-Policy": "default-src 'self'; img-src 'self'; style-src 'self'; "
                                       "script-src 'self'; connect-src 'self'; form-action 'self'",
            "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}


def _page_modules() -> list[ModuleType]:
    from oddsmith.web.pages import deck, dice, posse, shootout

    return [deck, shootout, dice, posse]


def _html(text: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(text, status_code=status, headers=_HEADERS)


def _url(module: ModuleType, params: dict[str, str], **extra: str) -> str:
    return module.PATH + "?" + urlencode({**{k: v for k, v in params.items() if v not in ("", None)}, **extra})


def _job_panel(job, module: ModuleType) -> str:
    s = job.status()
    return (f'<div class="job" id="job" data-job="{job.id}" data-state="{s["state"]}">'
            f'<p><span class="job-label">{H.esc(s["label"])}</span>: <span class="job-pct">'
            f'{100 * s["fraction"]:.0f}</span> % done.</p>'
            f'<progress max="1" value="{s["fraction"]:.3f}"></progress> '
            f'<button type="button" class="cancel" data-job="{job.id}">Cancel</button>'
            f'<p class="hint">The simulation runs on the server; this page shows the answer when it is done '
            f"(other pages and tabs keep working meanwhile).</p></div>")


def make_app(*, max_running: int = 3, wait_seconds: float = WAIT_SECONDS) -> Starlette:
    """The application: the four pages, the job API and the static files."""
    jobs = JobRegistry(max_running=max_running)
    modules = _page_modules()

    async def index(request: Request) -> Response:
        items = "".join(f'<li><a href="{m.PATH}">{H.esc(m.TITLE)}</a>: {H.esc(m.SUMMARY)}</li>'
                        for m in modules)
        body = (f"<h1>oddsmith</h1><p>Odds for Doomtown: Weird West Edition and Dracula's America: Shadows of the "
                f"West, computed on this computer by the same analyses as the <code>oddsmith</code> command line."
                f"</p><ul class=\"index\">{items}</ul>")
        return _html(H.layout("oddsmith", body, path="/"))

    def handler(module: ModuleType):
        async def endpoint(request: Request) -> Response:
            return await _answer_page(request, module)
        endpoint.__name__ = module.__name__.rsplit(".", 1)[-1]
        return endpoint

    async def _answer_page(request: Request, module: ModuleType) -> Response:
        raw = request.scope.get("query_string", b"")
        if len(raw) > MAX_QUERY_BYTES:
            return _bad(module, Query({}), BadInput(f"the request is too large ({len(raw):,} bytes; at most "
                                                    f"{MAX_QUERY_BYTES:,})", status=413))
        q = Query(request.query_params)
        view = request.query_params.get("view", "")
        fmt = request.query_params.get("format", "")
        t0 = time.perf_counter()
        try:  # reading a question loads decks and posses: off the event loop, which keeps answering others
            x = await run_in_threadpool(module.question, q)
        except OddsmithError as exc:
            return _bad(module, q, exc)
        params = module.params(x)
        t_read = time.perf_counter() - t0
        if module.SIMULATED and q.seed() is None:  # the seed goes into the URL, so the answer can be shared
            extra = {k: v for k, v in (("view", view), ("format", fmt)) if v}
            return RedirectResponse(_url(module, params, seed=str(secrets.randbelow(10**9)), **extra),
                                    status_code=303)
        try:
            if module.SIMULATED:
                job = jobs.start(module.PATH + "?" + urlencode(sorted(params.items())), lambda: module.answer(x))
                await asyncio.get_running_loop().run_in_executor(None, job.wait, wait_seconds)
                if job.state == "failed":
                    raise BadInput(job.error, status=500 if job.internal else 400)
                if job.state == "cancelled":
                    raise BadInput("this simulation was cancelled; submit the form again to start it afresh")
                if job.state == "running":
                    if view or fmt:
                        raise BadInput("the answer is still being computed: open the page and wait for it first",
                                       status=409)
                    body = module.form(x, q) + f'<div class="answer" id="answer">{TO_QUESTION}{_job_panel(job, module)}</div>'
                    return _html(H.layout(module.TITLE, _two_columns(body), path=module.PATH), 202)
                result = job.result
                t_analysis = (job.finished or time.monotonic()) - job.started
            else:
                t1 = time.perf_counter()
                result = await run_in_threadpool(module.answer, x)
                t_analysis = time.perf_counter() - t1
        except Busy as exc:
            return _bad(module, q, exc, status=503)
        except OddsmithError as exc:
            return _bad(module, q, exc)
        link = _url(module, params)
        if fmt == "pdf":
            pdf = await run_in_threadpool(H.pdf_bytes, module.TITLE, module.pages(result), getattr(x, "seed", None))
            name = module.PATH.strip("/").replace("/", "-")
            return Response(pdf, media_type="application/pdf",
                            headers={"Content-Disposition": f'attachment; filename="oddsmith-{name}.pdf"'})
        if view == "print":
            html = await run_in_threadpool(lambda: "".join(H.page_html(p) for p in module.pages(result)))
            body = (f'<p class="noprint"><a href="{H.esc(link)}">Back to the form</a> · '
                    f'<a href="{H.esc(_url(module, params, format="pdf"))}">PDF</a></p>'
                    f"<h1>{H.esc(module.TITLE)}</h1>{html}<p class=\"foot\">Reproduce: {H.esc(link)}</p>")
            return _html(H.layout(module.TITLE, body, path=module.PATH).replace("<body>", '<body class="print">', 1))
        t2 = time.perf_counter()
        answer = await run_in_threadpool(module.answer_html, result)
        share = (f'<p class="share">Link to this answer: <a href="{H.esc(link)}">{H.esc(_short(link))}</a> · '
                 f'<a href="{H.esc(_url(module, params, view="print"))}">Printable view</a> · '
                 f'<a href="{H.esc(_url(module, params, format="pdf"))}">PDF</a></p>')
        body = module.form(x, q) + f'<div class="answer" id="answer">{TO_QUESTION}{answer}{share}</div>'
        response = _html(H.layout(module.TITLE, _two_columns(body), path=module.PATH))
        # where the time went (a browser's developer tools show it; scripts/bench_web.py reads it)
        response.headers["Server-Timing"] = (f"read;dur={1000 * t_read:.2f}, analysis;dur={1000 * t_analysis:.2f}, "
                                             f"render;dur={1000 * (time.perf_counter() - t2):.2f}")
        return response

    def _bad(module: ModuleType, q: Query, exc: Exception, status: int | None = None) -> Response:
        status = status or getattr(exc, "status", 400)
        try:
            form = module.form(None, q)
        except OddsmithError:
            form = module.form(None, Query({}))
        body = form + f'<div class="answer" id="answer">{TO_QUESTION}{H.error_box(str(exc))}</div>'
        return _html(H.layout(module.TITLE, _two_columns(body), path=module.PATH), status)

    async def job_status(request: Request) -> Response:
        job = jobs.get(request.path_params["job_id"])
        if job is None:
            return JSONResponse({"error": "no such job (finished long ago, or never started)"}, status_code=404)
        return JSONResponse(job.status())

    async def job_cancel(request: Request) -> Response:
        job = jobs.cancel(request.path_params["job_id"])
        if job is None:
            return JSONResponse({"error": "no such job"}, status_code=404)
        await asyncio.get_running_loop().run_in_executor(None, job.wait, 2.0)
        return JSONResponse(job.status())

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in _STATIC:
            return Response("not found", status_code=404, media_type="text/plain")
        data = resources.files("oddsmith.web").joinpath("static", name).read_bytes()
        return Response(data, media_type=_STATIC[name], headers={"Cache-Control": "max-age=300"})

    async def chart(request: Request) -> Response:
        data = await run_in_threadpool(H.CHARTS.svg, request.path_params["token"])
        if data is None:
            return Response("no such chart (the server keeps the last few hundred; reload the page)",
                            status_code=404, media_type="text/plain")
        return Response(data, media_type="image/svg+xml", headers={"Cache-Control": "private, max-age=3600"})

    async def not_found(request: Request, exc: Exception) -> Response:
        return _html(H.layout("Not found", H.error_box(f"no page {request.url.path}: see the pages above")), 404)

    routes = [Route("/", index)]
    routes += [Route(m.PATH, handler(m)) for m in modules]
    routes += [Route("/jobs/{job_id}", job_status), Route("/jobs/{job_id}/cancel", job_cancel, methods=["POST"]),
               Route("/static/{name}", static), Route("/charts/{token}.svg", chart)]
    app = Starlette(routes=routes, exception_handlers={404: not_found})
    app.state.jobs = jobs
    return app


TO_QUESTION = '<a class="to-question" href="#question">Change the question (the form is below)</a>'


def _short(link: str, n: int = 90) -> str:
    return link if len(link) <= n else link[: n - 1] + "…"


def _two_columns(body: str) -> str:
    return f'<div class="columns">{body}</div>'
