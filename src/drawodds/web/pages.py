"""The pages: keep, read, the trainer, the solved heads-up game and the player's guide.

Each page takes its options from the query as the API does (the command's flags without dashes);
a form field left empty is an option not given. Work that may take long runs as a job: the page
waits a moment for it, then shows its progress with a cancel button while the browser polls.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, RedirectResponse, Response

from drawodds import i18n
from drawodds.cards import format_cards
from drawodds.cli.options import build_rules
from drawodds.errors import DrawoddsError, RequestError
from drawodds.render.train import cost_text, score_line
from drawodds.solver.solved_range import TABLE_SEATS
from drawodds.trainer import OBJECTIVES, PATTERN_WORDS, Position
from drawodds.trainer.phrases import local
from drawodds.web import calls, views
from drawodds.web.jobs import Job
from drawodds.web.server import Web, call_key, field_error, query
from drawodds.web.work import run_in_child, solve_equilibrium, solve_table_equilibrium, write_guide

SOLVED_RULES = ("morkpoker", "svensk", "jackpot")       # the rule sets the solver covers
CHARTS = ("solve_predraw.png", "solve_draw.png", "solve_postdraw.png", "solve_exploitability.png")
GUIDE_FILES = re.compile(r"^[A-Za-z0-9_.-]{1,100}\.(png|pdf|md|svg)$")
FORM_BODY = 8192          # bytes of a posted form
_SHEET_ROW = re.compile(r"^\|\s*([^|]+?)\s*\|.*\((cheatsheet[\w.-]*\.png)\)", re.MULTILINE)


def _web(request: Request) -> Web:
    web: Web = request.app.state.web
    return web


def _form(request: Request) -> dict[str, list[str]]:
    """The page's own query values (for refilling the form)."""
    found: dict[str, list[str]] = {}
    for k, v in request.query_params.multi_items():
        found.setdefault(k, []).append(v)
    return found


async def home(request: Request) -> Response:
    return _web(request).page(request, "home.html", title=i18n.gettext("drawodds"))


# --- keep ----------------------------------------------------------------------------------------

def _keep_frame(request: Request, **values: Any) -> dict[str, Any]:
    return {"title": i18n.gettext("What to keep"), "deck": views.deck(), "rule_options": views.rule_choices(),
            "opponent_options": [(n, str(n)) for n in range(6)], "form": _form(request),
            "most_drawn": views.most_drawn(request.query_params.get("rules")), **values}


async def keep_page(request: Request) -> Response:
    """``/keep``: the card grid and options; with a hand, the verdict and the ranked holds."""
    web = _web(request)
    frame = _keep_frame(request)
    if not request.query_params.get("hand", "").strip():
        return web.page(request, "keep.html", **frame)
    try:
        args = query(request, calls.KEEP, drop_empty=True)
    except DrawoddsError as exc:
        return web.page(request, "keep.html", status=400, **frame, error=field_error(exc))
    job = web.start(request, "keep", lambda j: calls.run_keep(args, j), call_key("keep", args))
    if not await web.finish(job, request, wait=web.settings.wait):
        return web.page(request, "keep.html", **frame, job=job, result_url=f"/keep/result/{job.id}")
    return _keep_done(request, job, frame)


def _keep_done(request: Request, job: Job, frame: dict[str, Any], fragment: bool = False) -> Response:
    web = _web(request)
    frame = {**frame, "fragment": fragment}
    if isinstance(job.error, DrawoddsError):
        return web.page(request, "keep_result.html" if fragment else "keep.html", status=400, **frame,
                        error=field_error(job.error))
    if job.error is not None:
        raise job.error
    if job.result is None:
        return web.page(request, "keep_result.html" if fragment else "keep.html", **frame,
                        error=i18n.gettext("cancelled: nothing had finished"))
    return web.page(request, "keep_result.html" if fragment else "keep.html", **frame,
                    view=views.keep_view(job.result))


async def keep_result(request: Request) -> Response:
    """``/keep/result/JOB``: the result part of the keep page, once its job is done (for the page's script)."""
    web = _web(request)
    job = web.jobs.get(request.path_params["job"])
    if job is None or job.kind != "keep":
        raise RequestError("no such job (it may have finished long ago)")
    await web.finish(job, request)
    return _keep_done(request, job, _keep_frame(request), fragment=True)


# --- read ----------------------------------------------------------------------------------------

async def read_page(request: Request) -> Response:
    """``/read``: what an opponent's draw count says (and our equity per hold with our hand)."""
    web = _web(request)
    frame: dict[str, Any] = {"title": i18n.gettext("Reading a draw"), "rule_options": views.rule_choices(),
                             "form": _form(request), "most_drawn": views.most_drawn(request.query_params.get("rules"))}
    if not request.query_params.get("draw", "").strip():
        return web.page(request, "read.html", **frame)
    try:
        args = query(request, calls.READ, drop_empty=True)
    except DrawoddsError as exc:
        return web.page(request, "read.html", status=400, **frame, error=field_error(exc))
    job = web.start(request, "read", lambda j: calls.run_read(args, j), call_key("read", args))
    if not await web.finish(job, request, wait=web.settings.wait):     # the same address again shares this job
        return web.page(request, "read.html", **frame, job=job, result_url=f"{request.url.path}?{request.url.query}")
    if isinstance(job.error, DrawoddsError):
        return web.page(request, "read.html", status=400, **frame, error=field_error(job.error))
    if job.error is not None:
        raise job.error
    r = job.result
    if r is None:
        return web.page(request, "read.html", **frame, error=i18n.gettext("cancelled: nothing had finished"))
    equity = [{"keep": views.cards(e.keep), "draw": e.draw, "equity": views.pct(e.equity),
               "se": views.pct(e.equity_se)} for e in (r.equity or ())][:8]
    return web.page(request, "read.html", **frame, reading=r, holding=views.bars(r.holding),
                    final=views.bars(r.final), equity=equity, our_hand=views.cards(r.hand or []),
                    p_draw=views.pct(r.p_draw))


# --- the trainer ---------------------------------------------------------------------------------

async def train_page(request: Request) -> Response:
    """``/train``: the set-up form, or the session's question, last grade, score and missed patterns."""
    web = _web(request)
    frame: dict[str, Any] = {"title": i18n.gettext("Trainer"), "rule_options": views.rule_choices(),
                             "objectives": OBJECTIVES}
    token = request.query_params.get("t")
    session = web.sessions.get(token)
    if session is None:
        return web.page(request, "train.html", **frame, expired=token is not None)
    question = session.question
    summary = session.summary(web.sessions.history)
    last = session.graded[-1] if session.graded else None
    cost = cost_text(last.cost, last.cost_se, last.objective, last.exact) if last else ""
    patterns = {p.pattern: PATTERN_WORDS[p.pattern].text() if p.pattern in PATTERN_WORDS else p.name
                for p in summary.patterns}
    return web.page(request, "train.html", **frame, token=token, session=session, summary=summary, last=last,
                    last_dealt=views.tens(i18n.worded(last.dealt)) if last else "",
                    last_why=views.tens(local(last.why)) if last else "",
                    limits=(session.setup.rules.draw_limit(False), session.setup.rules.draw_limit(True)),
                    pattern_names=patterns,
                    score_line=score_line(session.graded, session.setup.objective),
                    cost_line=i18n.gettext("Cost: {cost}").format(cost=cost),
                    dealt=views.cards(format_cards(question.hand)) if isinstance(question, Position) else [],
                    last_hand=views.cards(last.hand) if last else [], last_best=views.cards(last.best) if last else [],
                    last_chosen=views.cards(last.chosen) if last else [], error=request.query_params.get("error"))


async def train_start(request: Request) -> Response:
    """``POST /train/start`` (``rules``, ``objective``): a new session, its first hand dealt."""
    web = _web(request)
    form = await _posted(request)
    rules = (form.get("rules") or [""])[0] or "morkpoker"
    objective = (form.get("objective") or [""])[0] or None

    def start() -> str:
        token, session = web.sessions.start(rules, objective)
        session.deal()
        return token

    token = await run_in_threadpool(start)
    return RedirectResponse(f"/train?t={token}", status_code=303)


async def _posted(request: Request) -> dict[str, list[str]]:
    """A posted form (``application/x-www-form-urlencoded``), bounded in size."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > FORM_BODY:
            raise RequestError("the form is too long")
    try:
        return parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True, max_num_fields=32)
    except ValueError:          # more fields than any form of these pages sends
        raise RequestError("the form is too long") from None


async def train_answer(request: Request) -> Response:
    """``POST /train/answer``: grade the cards kept, then show the grade and the next hand."""
    web = _web(request)
    form = await _posted(request)
    token = (form.get("t") or [""])[0]
    session = web.sessions.get(token)
    if session is None:
        return RedirectResponse("/train?t=expired", status_code=303)
    kept = [c for c in form.get("keep", []) if len(c) <= 3]

    def answer() -> None:
        with session.lock:
            web.sessions.answer(session, kept)
            session.deal()

    try:
        await run_in_threadpool(answer)
    except DrawoddsError as exc:
        return RedirectResponse(f"/train?t={token}&error={quote(field_error(exc))}", status_code=303)
    return RedirectResponse(f"/train?t={token}", status_code=303)


# --- the solved game, heads-up and three-handed ------------------------------------------------------

def _solved_rules(request: Request) -> str:
    rules = request.query_params.get("rules") or "morkpoker"
    if rules not in SOLVED_RULES:
        raise RequestError("{rules} must be one of {choices}, got {value}", "rules", choices=", ".join(SOLVED_RULES),
                           value=repr(rules[:40]))
    return rules


def _solved_players(request: Request) -> int:
    players = request.query_params.get("players") or "2"
    if players not in ("2", "3"):
        raise RequestError("{players} must be 2 or 3, got {value}", "players", value=repr(players[:40]))
    return int(players)


def _table_solution(web: Web, rules: str) -> Any:
    """The cached three-handed solution of ``rules`` (loaded once), or None when it has not been solved."""
    from drawodds.solver.table import table_equilibrium, table_path

    return _loaded(web, f"{rules} three-handed", rules, lambda r: table_path(r).exists(), table_equilibrium)


def _table_view(web: Web, rules: str, solution: Any, seat: str, kind: str | None) -> dict[str, Any]:
    """The three-handed page's figures: each seat's value and gain, and one seat's draw by hand."""
    table = _worked_out(web, f"{rules} three-handed", solution, lambda: solution.draw_summary())
    mine = table[table["seat"] == TABLE_SEATS.index(seat)]
    draws = [c for c in mine.columns if c == "pat" or c.startswith("draw ")]
    rows = _table(mine, ["share", "reaches_draw", *draws], kind)
    seats = [[i18n.gettext(SEAT_WORDS[s]), f"{v:+.3f}", f"{1000 * g:.2f}"]
             for s, v, g in zip(TABLE_SEATS, solution.value, solution.seat_gains, strict=True)]
    return {"kinds": [(str(h), i18n.gettext(str(h))) for h in mine["hand"]], "draw_cols": draws, "draw": rows,
            "seats": seats, "iterations": solution.iterations,
            "milli": f"{1000 * solution.exploitability:.2f}"}


SEAT_WORDS = {"first": i18n.N_("first, left of the dealer"), "second": i18n.N_("second"),
              "dealer": i18n.N_("the dealer")}


def _solution(web: Web, rules: str) -> Any:
    """The cached equilibrium of ``rules`` (loaded once), or None when it has not been solved."""
    from drawodds.solver.cache import equilibrium_cached
    from drawodds.solver.solve import equilibrium_solution

    return _loaded(web, rules, rules, equilibrium_cached, equilibrium_solution)


def _loaded(web: Web, key: str, rules: str, stored: Callable[[Any], bool], load: Callable[[Any], Any]) -> Any:
    """A solution the server keeps under ``key``: read from the cache once (``load``) when ``stored``
    says the cache has it, else None."""
    if key not in web.solutions:
        rule_set = build_rules(rules)
        if not stored(rule_set):
            return None
        web.solutions[key] = load(rule_set)
    return web.solutions[key]


def _table(frame: Any, columns: list[str], kind: str | None) -> list[list[str]]:
    rows = []
    for _, r in frame.iterrows():
        if kind and str(r["hand"]) != kind:
            continue
        rows.append([i18n.gettext(str(r["hand"])), *[views.pct(r[c], 0) if c in r else "—" for c in columns]])
    return rows


async def solved_page(request: Request) -> Response:
    """``/solved?rules=&kind=&players=&seat=``: how the heads-up equilibrium opens, draws and bets, by
    kind of hand; with ``players=3``, each seat's value in the three-handed solution and how one
    seat draws."""
    web = _web(request)
    rules = _solved_rules(request)
    players = _solved_players(request)
    kind = request.query_params.get("kind") or None
    if players == 3:
        return await _solved_table_page(request, web, rules, kind)
    frame: dict[str, Any] = {"title": i18n.gettext("The solved heads-up game"), "rules": rules,
                             "solved_rules": SOLVED_RULES, "kind": kind, "players": 2}
    running = web.jobs.running(f"solve {rules}")
    solution = await run_in_threadpool(_solution, web, rules)
    if solution is None:
        return web.page(request, "solved.html", **frame, job=running)
    def tables() -> dict[str, Any]:
        pre, draw, post, pat = _overviews(web, rules, solution)
        draws = [c for c in draw.columns if c == "pat" or c.startswith("draw ")]
        kinds = [(str(h), i18n.gettext(str(h))) for h in pre["hand"]]      # the tables' English labels, worded
        post_cols = [c for c in ("bet first", "bet after check", "fold", "call", "raise") if c in post.columns]
        post_rows = []
        for _, r in post.iterrows():
            if kind and str(r["hand"]) != kind:
                continue
            post_rows.append([i18n.gettext(str(r["hand"])), str(int(r["opponent_draw"])),
                              *[views.pct(r[c], 0) for c in post_cols]])
        return {"kinds": kinds, "pre": _table(pre, ["share", "open", "bet after check", "fold", "call", "raise"], kind),
                "draw_cols": draws, "draw": _table(draw, ["share", "reaches draw", *draws], kind),
                "post_cols": post_cols, "post": post_rows,
                "pat": {k: views.pct(v, 0) for k, v in pat["stand_pat"].items()},
                "bet_after": {k: views.pct(v, 0) for k, v in pat["bet_after"].items()}}

    return web.page(request, "solved.html", **frame, solved=True, **(await run_in_threadpool(tables)))


async def _solved_table_page(request: Request, web: Web, rules: str, kind: str | None) -> Response:
    seat = request.query_params.get("seat") or "dealer"
    if seat not in TABLE_SEATS:
        raise RequestError("{seat} must be one of {choices}, got {value}", "seat", choices=", ".join(TABLE_SEATS),
                           value=repr(seat[:40]))
    frame: dict[str, Any] = {"title": i18n.gettext("The solved game, three at the table"), "rules": rules,
                             "solved_rules": SOLVED_RULES, "kind": kind, "players": 3, "seat": seat,
                             "seat_options": [(s, i18n.gettext(SEAT_WORDS[s])) for s in TABLE_SEATS]}
    running = web.jobs.running(f"solve {rules} three-handed")
    solution = await run_in_threadpool(_table_solution, web, rules)
    if solution is None:
        return web.page(request, "solved.html", **frame, job=running)
    figures = await run_in_threadpool(_table_view, web, rules, solution, seat, kind)
    return web.page(request, "solved.html", **frame, solved=True, **figures)


def _overviews(web: Web, rules: str, solution: Any) -> tuple[Any, Any, Any, dict[str, dict[str, float]]]:
    """The solution's tables before, at and after the draw, and its standing pat (worked out once)."""
    from drawodds.solver.summary import draw_overview, pat_overview, postdraw_overview, predraw_overview

    return _worked_out(web, rules, solution, lambda: (predraw_overview(solution), draw_overview(solution),
                                                      postdraw_overview(solution), pat_overview(solution)))


def _worked_out(web: Web, key: str, solution: Any, work: Callable[[], Any]) -> Any:
    """What ``work`` makes of ``solution``, kept under ``key`` until the solution changes."""
    kept = web.overviews.get(key)
    if kept is None or kept[0] is not solution:
        kept = (solution, work())
        web.overviews[key] = kept
    return kept[1]


async def solved_start(request: Request) -> Response:
    """``POST /solved/solve?rules=&players=``: solve the equilibrium of the rules, heads-up or
    three-handed (one solve at a time)."""
    web = _web(request)
    rules = _solved_rules(request)
    if _solved_players(request) == 3:
        name = f"solve {rules} three-handed"
        if web.jobs.running(name) is None:
            web.solutions.pop(name.removeprefix("solve "), None)
            web.start(request, name, lambda job: run_in_child(job, solve_table_equilibrium, rules), long=True)
        return RedirectResponse(f"/solved?rules={rules}&players=3", status_code=303)
    if web.jobs.running(f"solve {rules}") is None:
        web.solutions.pop(rules, None)
        web.start(request, f"solve {rules}", lambda job: run_in_child(job, solve_equilibrium, rules), long=True)
    return RedirectResponse(f"/solved?rules={rules}", status_code=303)


async def solved_chart(request: Request) -> Response:
    """``/solved/chart/RULES/NAME``: one of the solution's charts, drawn once into the server's folder."""
    from drawodds.charts.solve import write_solve_charts

    web = _web(request)
    rules, name = request.path_params["rules"], request.path_params["name"]
    if rules not in SOLVED_RULES or name not in CHARTS:
        raise RequestError("no such chart")
    folder = web.settings.charts / rules

    def draw() -> dict[str, Path]:
        solution = _solution(web, rules)
        if solution is None:
            raise RequestError("the {rules} equilibrium is not solved yet", rules=rules)
        with web.drawing:        # the page asks for all its charts at once: the first request draws them
            have = {p.name: p for p in folder.glob("*.png")} if folder.is_dir() else {}
            if not set(CHARTS) <= set(have):
                have = {p.name: p for p in write_solve_charts(solution, folder)}
        return have

    charts = await run_in_threadpool(draw)
    if name not in charts:
        raise RequestError("no such chart")
    return FileResponse(charts[name], media_type="image/png")


# --- the player's guide --------------------------------------------------------------------------

def _guide_files(folder: Path) -> dict[str, Path]:
    """The files of the guide folder a page may show, by name (nothing else is ever served)."""
    if not folder.is_dir():
        return {}
    return {p.name: p for p in folder.iterdir()
            if GUIDE_FILES.match(p.name) and not p.is_symlink() and p.is_file()}   # a link may point anywhere


def _guide_folder(web: Any) -> Path:
    """The guide in the reader's language: English in the server's folder, another language in its
    subfolder (``sv``, ``nb``), as ``reports/`` keeps them."""
    lang = i18n.language()
    return Path(web.settings.guide) / ("" if lang == i18n.ENGLISH else lang)


def _slug(text: str, separator: str) -> str:
    """A heading's anchor as the guide's own contents links write it (GitHub's: ``1-vad-du-ska-behålla``)."""
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", separator)


def _guide_html(text: str) -> str:
    """The guide's Markdown as HTML, its headings one level down (with the anchors its contents link
    to), its links to its own files pointed at ``/guide/files/``."""
    import markdown

    body = markdown.markdown(html.escape(text, quote=False).replace("&gt;", ">"), extensions=[
        "tables", "toc"], extension_configs={"toc": {"slugify": _slug, "separator": "-"}})
    body = re.sub(r"<(/?)h([1-5])\b", lambda m: f"<{m[1]}h{int(m[2]) + 1}", body)   # under the page's own title
    return re.sub(r'(src|href)="(?!https?:|/|#)([^"]+)"', r'\1="/guide/files/\2"', body)


async def guide_page(request: Request) -> Response:
    """``/guide``: the player's guide and the cheat sheets, once written (a job writes them)."""
    web = _web(request)
    files = _guide_files(_guide_folder(web))
    frame: dict[str, Any] = {"title": i18n.gettext("The player's guide"), "job": web.jobs.running("guide")}
    if "README.md" not in files:
        return web.page(request, "guide.html", **frame)
    text = files["README.md"].read_text(encoding="utf-8")
    titles = {m[2]: m[1] for m in _SHEET_ROW.finditer(text)}      # the guide's own table names each sheet
    sheets = [(n, titles.get(n, i18n.gettext("Cheat sheets")))
              for n in sorted(files) if n.startswith("cheatsheet") and n.endswith(".png")]
    return web.page(request, "guide.html", **frame, guide=_guide_html(text), sheets=sheets,
                    pdfs={n[:-4]: n for n in files if n.endswith(".pdf")})


async def guide_start(request: Request) -> Response:
    """``POST /guide/write?quick=1``: write the guide into the server's folder (one at a time)."""
    web = _web(request)
    quick = request.query_params.get("quick", "1") != "0"
    if web.jobs.running("guide") is None:
        folder = str(_guide_folder(web))
        web.start(request, "guide", lambda job: run_in_child(job, write_guide, folder, quick), long=True)
    return RedirectResponse("/guide", status_code=303)


async def guide_file(request: Request) -> Response:
    """``/guide/files/NAME``: a file of the guide folder, by a name the folder lists."""
    files = _guide_files(_guide_folder(_web(request)))
    name = request.path_params["name"]
    if name not in files:
        raise RequestError("no such file in the guide")
    return FileResponse(files[name])


async def favicon(request: Request) -> Response:
    return FileResponse(Path(__file__).with_name("static") / "favicon.svg", media_type="image/svg+xml")
