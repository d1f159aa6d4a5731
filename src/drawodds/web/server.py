"""The server's parts: its settings and state, the language of each request, the JSON API and the errors.

Every request is handled in the language it asks for (``?lang=``, then the ``lang`` cookie a
language link sets, then the browser's Accept-Language, else English). A library error is HTTP 400
with the command line's one-line message (``{"error": ...}`` under ``/api/``); anything else is a
500 that shows no traceback.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from drawodds import i18n, paths
from drawodds.cli.errors import message
from drawodds.errors import Bound, DrawoddsError
from drawodds.results import json_data
from drawodds.trainer import default_history_path
from drawodds.web.guard import BODY_SECONDS, Access
from drawodds.web.jobs import Busy, Job, Jobs
from drawodds.web.params import Option, check_length, parse
from drawodds.web.trainer import Sessions
from drawodds.web.views import rule_title

STATIC = Path(__file__).with_name("static")
LANGUAGE_NAMES = {"en": "English", "sv": "Svenska", "nb": "Norsk bokmål"}
WAIT = 2.0                 # seconds a page waits for its job before it shows the progress (Settings.wait)
COOKIE_DAYS = 365
TRIALS = Bound("trials", 2, 10_000_000)    # the trials one request may ask for (a minute or so of the machine)
log = logging.getLogger("drawodds.web")


@dataclass
class Settings:
    """Where the server keeps its files: none of them is named by a request."""

    history: Path = field(default_factory=default_history_path)       # the one `drawodds train` keeps
    guide: Path = field(default_factory=lambda: paths.data_dir() / "guide")
    charts: Path = field(default_factory=lambda: paths.cache_dir() / "web-charts")
    wait: float = WAIT        # seconds a page waits for its work before it shows the progress instead
    access: Access = field(default_factory=Access)     # who may use the page (this computer's browser by default)
    body_seconds: float = BODY_SECONDS                 # seconds a request body has to arrive


def templates() -> Environment:
    """The Jinja2 environment: autoescaped HTML, ``_``/``gettext``/``ngettext`` from ``drawodds.i18n``."""
    env = Environment(loader=PackageLoader("drawodds.web", "templates"), autoescape=select_autoescape(),
                      extensions=["jinja2.ext.i18n"], trim_blocks=True, lstrip_blocks=True)
    env.install_gettext_callables(i18n.gettext, i18n.ngettext, newstyle=False)  # type: ignore[attr-defined]
    env.globals.update(pgettext=i18n.pgettext, number=i18n.number, percent=i18n.percent, rule_title=rule_title)
    return env


def request_language(request: Request) -> str:
    """The language of a request: ``?lang=``, the ``lang`` cookie, Accept-Language, else English."""
    if request.query_params.get("lang") == i18n.PSEUDO:     # a translator's check: every marked sentence accented
        return i18n.PSEUDO
    for chosen in (request.query_params.get("lang"), request.cookies.get("lang")):
        if chosen in i18n.LANGUAGES:
            return chosen
    for part in request.headers.get("accept-language", "")[:400].split(","):
        code = part.split(";")[0].strip().lower().split("-")[0]
        code = {"no": "nb", "nn": "nb"}.get(code, code)
        if code in i18n.LANGUAGES:
            return code
    return i18n.ENGLISH


def error_text(exc: DrawoddsError) -> str:
    """A library error as the command line says it: one line, its parameters named as the flags."""
    return " ".join(message(exc).split())


# The form fields of the pages, by the library parameter each fills (their labels on the page).
FIELDS = {"hand": i18n.N_("Your five cards"), "opponents": i18n.N_("Opponents"), "vs": i18n.N_("Their draws"),
          "trials": i18n.N_("Trials"), "seed": i18n.N_("Seed"), "rules": i18n.N_("Rules"),
          "draw": i18n.N_("Cards they drew"), "policy": i18n.N_("Their style"), "objective": i18n.N_("Goal")}


def field_error(exc: DrawoddsError) -> str:
    """A library error as a page says it: one line, its parameters named as the page's form fields."""
    names = {p: i18n.gettext("“{field}”").format(field=i18n.gettext(FIELDS[p])) if p in FIELDS else
             "--" + p.replace("_", "-") for p in exc.parameters}
    return " ".join(exc.worded(names).split())


class Language:
    """ASGI middleware: the request's language for everything it runs (the context is copied into
    the threads the work runs on); a ``?lang=`` choice is remembered in a cookie."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        lang = request_language(request)
        chosen = request.query_params.get("lang") in i18n.LANGUAGES

        async def sending(message: Any) -> None:
            if chosen and message["type"] == "http.response.start":
                cookie = f"lang={lang}; Path=/; Max-Age={COOKIE_DAYS * 86400}; SameSite=Lax"
                message.setdefault("headers", []).append((b"set-cookie", cookie.encode()))
            await send(message)

        with i18n.use(lang):
            scope.setdefault("state", {})["lang"] = lang
            await self.app(scope, receive, sending)


class Web:
    """The server's state: its settings, its jobs, its templates and the trainer's sessions."""

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings()
        self.jobs = Jobs()
        self.env = templates()
        self.sessions = Sessions(self.settings.history)
        self.solutions: dict[str, Any] = {}      # the cached equilibria, loaded once, by rule set
        self.overviews: dict[str, Any] = {}      # their tables, worked out once
        self.drawing = threading.Lock()          # matplotlib is not thread-safe: one request draws at a time

    def page(self, request: Request, name: str, *, status: int = 200, **values: Any) -> HTMLResponse:
        """Render template ``name`` with the page frame's values."""
        lang = request.scope.get("state", {}).get("lang", i18n.ENGLISH)
        here = request.url.path
        others = [(code, LANGUAGE_NAMES[code], _with_lang(request, code)) for code in i18n.LANGUAGES]
        html = self.env.get_template(name).render(lang=lang, here=here, languages=others,
                                                  form_token=self.settings.access.form, **values)
        return HTMLResponse(html, status_code=status)

    async def finish(self, job: Job, request: Request, wait: float | None = None) -> bool:
        """Wait for ``job`` while the request's client is there (at most ``wait`` seconds); True when done.

        When the wait ends first, the job runs on while the page asks about its progress; when the
        client goes away, it is cancelled unless another request waits for it or asked lately."""
        loop = asyncio.get_running_loop()
        end = None if wait is None else loop.time() + wait
        job.waiters += 1
        try:
            while not job.done:
                if end is not None and loop.time() >= end:
                    job.renew()
                    return False
                if await _gone(request):
                    return False
                await asyncio.sleep(0.01 if loop.time() - job.started < 0.2 else 0.05)
            return True
        finally:
            job.release()

    def start(self, request: Request, kind: str, work: Callable[[Job], Any], key: str | None = None,
              long: bool = False) -> Job:
        """Start a job for this request's browser (see ``Jobs.start``)."""
        client = request.scope.get("state", {}).get("client") or "address " + str((request.client or ("", 0))[0])
        return self.jobs.start(kind, work, key, long=long, owner=client)


async def _gone(request: Request) -> bool:
    try:
        return await asyncio.wait_for(request.is_disconnected(), timeout=0.001)
    except TimeoutError:
        return False


def _with_lang(request: Request, lang: str) -> str:
    query = [(k, v) for k, v in request.query_params.multi_items() if k != "lang"] + [("lang", lang)]
    return request.url.path + "?" + urlencode(query)


# --- the JSON API --------------------------------------------------------------------------------

def api_error(text: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": text}, status_code=status)


def query(request: Request, options: tuple[Option, ...], drop_empty: bool = False) -> dict[str, Any]:
    """The request's query as the library's keyword arguments (``lang`` is the page's, not an option)."""
    check_length(request.url.query)
    items = [(k, v) for k, v in request.query_params.multi_items()
             if k != "lang" and not (drop_empty and not v.strip())]
    args = parse(items, options)
    if args.get("trials", 0) > TRIALS.hi:          # the library checks the rest
        TRIALS.check(args["trials"])
    return args


def call_key(kind: str, args: dict[str, Any]) -> str:
    """What names a library call: its kind and options (the same key, the same seeded result)."""
    return repr((kind, sorted(args.items())))


def api(work: Callable[[dict[str, Any], Job], Any], options: tuple[Option, ...], kind: str
        ) -> Callable[[Request], Awaitable[Response]]:
    """An endpoint that runs one library call as a job and answers its result's JSON (the ``--json`` shape)."""

    async def endpoint(request: Request) -> Response:
        web: Web = request.app.state.web
        args = query(request, options)
        job = web.start(request, kind, lambda j: work(args, j), call_key(kind, args))
        if not await web.finish(job, request):
            return api_error(i18n.gettext("the request was cancelled"), 499)
        return job_response(job)

    return endpoint


def job_response(job: Job) -> Response:
    if job.error is not None:
        raise job.error
    if job.state == "cancelled" and job.result is None:
        return api_error(i18n.gettext("the work was cancelled"), 409)
    if job.body is None:       # a shared job's JSON is written once
        job.body = bytes(JSONResponse(json_data(job.result)).body)
    return Response(job.body, media_type="application/json")


async def job_status(request: Request) -> Response:
    """``GET /api/jobs/ID``: a job's state and progress (its result once done, for the API's own jobs)."""
    job = request.app.state.web.jobs.get(request.path_params["job"])
    if job is None:
        return api_error(i18n.gettext("no such job (it may have finished long ago)"), 404)
    job.renew()                # its page still shows its progress
    body: dict[str, Any] = {"id": job.id, "kind": job.kind, "state": job.state, "progress": round(job.progress, 4),
                            "stage": job.stage}
    if job.state == "failed" and isinstance(job.error, DrawoddsError):
        body["error"] = error_text(job.error)
    elif job.state == "failed":
        body["error"] = i18n.gettext("the work failed: an error in drawodds (see the server's log)")
    return JSONResponse(body)


async def job_cancel(request: Request) -> Response:
    """``POST /api/jobs/ID/cancel``: stop a job (it keeps what it finished, where its work can)."""
    job = request.app.state.web.jobs.get(request.path_params["job"])
    if job is None:
        return api_error(i18n.gettext("no such job (it may have finished long ago)"), 404)
    job.cancel()
    return JSONResponse({"id": job.id, "state": job.state})


# --- errors --------------------------------------------------------------------------------------

def _is_api(request: Request) -> bool:
    return request.url.path.startswith("/api/")


async def on_library_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, DrawoddsError)
    status = 503 if isinstance(exc, Busy) else 400
    if _is_api(request):
        return api_error(error_text(exc), status)
    web: Web = request.app.state.web
    return web.page(request, "error.html", status=status, error=field_error(exc))


async def on_bug(request: Request, exc: Exception) -> Response:
    """Anything but a library error: logged for whoever runs the server, one line for the page."""
    if isinstance(exc, MemoryError):
        text, status = i18n.gettext("not enough memory for this request: ask for fewer trials or deals"), 400
    else:
        log.error("drawodds serve: %s: %s", type(exc).__name__, exc, exc_info=exc if os.environ.get(
            "DRAWODDS_DEBUG") else None)
        text, status = i18n.gettext("an error in drawodds: it is logged where the server runs"), 500
    if _is_api(request):
        return api_error(text, status)
    return HTMLResponse(f"<!doctype html><title>drawodds</title><p>{text}</p>", status_code=status)


async def not_found(request: Request, exc: Exception) -> Response:
    if _is_api(request):
        return api_error(i18n.gettext("no such page"), 404)
    return request.app.state.web.page(request, "error.html", status=404, error=i18n.gettext("no such page"))
