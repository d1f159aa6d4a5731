"""The Starlette application: the routes of the pages and of the JSON API."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from drawodds.errors import DrawoddsError
from drawodds.web import calls, pages
from drawodds.web.guard import Guard
from drawodds.web.server import (
    STATIC,
    Language,
    Settings,
    Web,
    api,
    job_cancel,
    job_status,
    not_found,
    on_bug,
    on_library_error,
)

__all__ = ["Settings", "create_app"]


def _lifespan(web: Web) -> Callable[[Starlette], AbstractAsyncContextManager[None]]:
    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        web.jobs.shutdown()       # the jobs still running stop at their next progress report

    return lifespan


def create_app(settings: Settings | None = None) -> Starlette:
    """The web application (its files where ``settings`` says; the user's data and cache folders by default)."""
    web = Web(settings)
    routes = [
        Route("/", pages.home),
        Route("/keep", pages.keep_page),
        Route("/keep/result/{job}", pages.keep_result),
        Route("/read", pages.read_page),
        Route("/train", pages.train_page),
        Route("/train/start", pages.train_start, methods=["POST"]),
        Route("/train/answer", pages.train_answer, methods=["POST"]),
        Route("/solved", pages.solved_page),
        Route("/solved/solve", pages.solved_start, methods=["POST"]),
        Route("/solved/chart/{rules}/{name}", pages.solved_chart),
        Route("/guide", pages.guide_page),
        Route("/guide/write", pages.guide_start, methods=["POST"]),
        Route("/guide/files/{name}", pages.guide_file),
        Route("/api/keep", api(calls.run_keep, calls.KEEP, "keep")),
        Route("/api/read", api(calls.run_read, calls.READ, "read")),
        Route("/api/jobs/{job}", job_status),
        Route("/api/jobs/{job}/cancel", job_cancel, methods=["POST"]),
        Route("/favicon.ico", pages.favicon),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    guard = Middleware(Guard, access=web.settings.access, routes=routes, body_seconds=web.settings.body_seconds)
    app = Starlette(routes=routes, middleware=[Middleware(Language), guard],
                    exception_handlers={DrawoddsError: on_library_error, Exception: on_bug, 404: not_found,
                                        405: not_found},
                    lifespan=_lifespan(web))
    app.router.redirect_slashes = False      # its redirect would name the Host header's machine
    app.state.web = web
    return app
