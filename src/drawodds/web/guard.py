"""Who may use the page: this computer's browser only, and only the page's own forms change anything.

The checks a local notebook server makes (Jupyter's): a request whose Host header names another
machine is refused (a web site cannot reach the server through a host name of its own that points
here, "DNS rebinding"); bound beyond this computer, every browser first gives the token printed at
the start; a request that changes anything (starts long work, writes the history or the guide,
cancels) is a POST from the page's own origin carrying the server's form token (a SameSite cookie
and the same value in the form or a header), so another site's page cannot make one. Every answer
forbids framing and content sniffing. A HEAD is answered from the route alone, without its work,
and a request body that does not arrive in time is refused.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from html import escape
from urllib.parse import parse_qs, urlencode

from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from drawodds import i18n

LOOPBACK = ("localhost", "127.0.0.1", "::1")       # the names of this computer a browser may use
BODY_BYTES = 16_384        # bytes of a request body (the forms send a few hundred)
BODY_SECONDS = 10.0        # seconds a request body has to arrive
SAFE = ("GET", "HEAD")
FREE = ("/static/", "/favicon.ico")     # needs no login token: the login page's own look
HEADERS = [(b"x-frame-options", b"DENY"), (b"x-content-type-options", b"nosniff"),
           (b"content-security-policy", b"frame-ancestors 'none'; form-action 'self'; base-uri 'none'"),
           (b"referrer-policy", b"same-origin"), (b"cross-origin-resource-policy", b"same-origin")]


@dataclass(frozen=True)
class Access:
    """Who the server answers: the Host names it accepts (None: any, when a login token is asked for),
    the login token (None on this computer alone) and the token of its forms."""

    hosts: tuple[str, ...] | None = LOOPBACK
    login: str | None = None
    form: str = field(default_factory=lambda: secrets.token_urlsafe(24))


def host_name(header: str) -> str:
    """The host of a Host header, without its port (``[::1]:8765`` is ``::1``), lower case."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def cookie_name(scope: Scope, what: str) -> str:
    """A cookie of this server: cookies are shared by every port of a host, so the name holds the port."""
    server = scope.get("server") or ("", 0)
    return f"drawodds_{what}_{server[1] or 0}"


def _same_token(given: str | None, wanted: str) -> bool:
    return bool(given) and secrets.compare_digest(str(given).encode(), wanted.encode())


class Guard:
    """ASGI middleware: the Host, login and origin checks, the form token, the safe headers, cheap HEAD."""

    def __init__(self, app: ASGIApp, access: Access, routes: Iterable[BaseRoute] = (),
                 body_seconds: float = BODY_SECONDS) -> None:
        self.app = app
        self.access = access
        self.routes = list(routes)
        self.body_seconds = body_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        form_cookie = cookie_name(scope, "form")
        has_form_cookie = _same_token(request.cookies.get(form_cookie), self.access.form)
        client_cookie = cookie_name(scope, "client")
        client = request.cookies.get(client_cookie, "")
        new_client = not (0 < len(client) <= 64)
        if new_client:
            client = secrets.token_urlsafe(12)
        scope.setdefault("state", {})["client"] = client

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = message.setdefault("headers", [])
                headers.extend(HEADERS)
                if not has_form_cookie:
                    cookie = f"{form_cookie}={self.access.form}; Path=/; SameSite=Strict; HttpOnly"
                    headers.append((b"set-cookie", cookie.encode()))
                if new_client:         # which browser asked for which work (a few pieces each at a time)
                    cookie = f"{client_cookie}={client}; Path=/; SameSite=Strict; HttpOnly"
                    headers.append((b"set-cookie", cookie.encode()))
            await send(message)

        refused = self._refusal(request)
        if refused is None and request.method == "HEAD":
            refused = self._head(scope)
        if refused is None and request.method not in SAFE:
            refused, receive = await self._posted(request, receive)
        if refused is not None:
            await refused(scope, receive, sending)
            return
        await self.app(scope, receive, sending)

    def _refusal(self, request: Request) -> Response | None:
        """A refusal of a foreign Host, a missing login, a cross-site request that would change something."""
        if self.access.hosts is not None and host_name(request.headers.get("host", "")) not in self.access.hosts:
            return PlainTextResponse(i18n.gettext(
                "This server answers only to this computer's own names (localhost, 127.0.0.1, [::1])."),
                status_code=400)
        login = self.access.login
        if login is not None and not request.url.path.startswith(FREE):
            cookie = cookie_name(request.scope, "login")
            given = request.query_params.get("token")
            if _same_token(given, login):      # from the address printed at the start: remembered, then dropped
                rest = urlencode([(k, v) for k, v in request.query_params.multi_items() if k != "token"])
                response = RedirectResponse(request.url.path + ("?" + rest if rest else ""), status_code=303)
                response.set_cookie(cookie, login, httponly=True, samesite="strict")
                return response
            header = request.headers.get("authorization", "")
            if not (_same_token(request.cookies.get(cookie), login)
                    or _same_token(header.removeprefix("token ").strip(), login)):
                return _login_page(given is not None)
        if request.method in SAFE:
            if _starts_work(request) and _cross_site(request) and request.headers.get("sec-fetch-mode") != "navigate":
                return PlainTextResponse(i18n.gettext("Another site's page cannot start work here."),
                                         status_code=403)
            return None
        origin = request.headers.get("origin")
        if origin is not None and origin != f"{request.url.scheme}://{request.headers.get('host', '')}":
            return PlainTextResponse(i18n.gettext("Only this server's own pages can change anything here."),
                                     status_code=403)
        if _cross_site(request):
            return PlainTextResponse(i18n.gettext("Only this server's own pages can change anything here."),
                                     status_code=403)
        return None

    def _head(self, scope: Scope) -> Response | None:
        """HEAD: the status and type the GET would have, without doing its work."""
        if scope["path"].startswith(FREE):
            return None
        for route in self.routes:
            match, _ = route.matches({**scope, "method": "GET"})
            if match == Match.FULL:
                api = scope["path"].startswith("/api/")
                return Response(media_type="application/json" if api else "text/html")
        return Response(status_code=404, media_type="text/html")

    async def _posted(self, request: Request, receive: Receive) -> tuple[Response | None, Receive]:
        """Read a request's body (bounded in size and time), check its form token, and hand it on."""
        body = bytearray()
        try:
            async with asyncio.timeout(self.body_seconds):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return PlainTextResponse("", status_code=400), receive
                    body += message.get("body", b"")
                    if len(body) > BODY_BYTES:
                        return PlainTextResponse(i18n.gettext("the form is too long"), status_code=413), receive
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            return PlainTextResponse(i18n.gettext("the request did not arrive in time"), status_code=408), receive
        given = request.headers.get("x-drawodds-form")
        if given is None and request.headers.get("content-type", "").startswith("application/x-www-form-urlencoded"):
            try:
                given = (parse_qs(body.decode("utf-8", "replace"), max_num_fields=64).get("form") or [""])[0]
            except ValueError:           # more fields than any form of these pages sends
                given = None
        if not (_same_token(given, self.access.form)
                and _same_token(request.cookies.get(cookie_name(request.scope, "form")), self.access.form)):
            return PlainTextResponse(i18n.gettext(
                "This form is out of date (the server was restarted, or it came from elsewhere): "
                "reload the page and try again."), status_code=403), receive
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        return None, replay


def _cross_site(request: Request) -> bool:
    return request.headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none")


WORK_PAGES = {"/keep": "hand", "/read": "draw"}


def _starts_work(request: Request) -> bool:
    """A GET that starts a computation (the API, or a page asked for a result)."""
    path = request.url.path
    if path.startswith(("/api/keep", "/api/read", "/keep/result/", "/solved/chart/")):
        return True
    wanted = WORK_PAGES.get(path)
    return wanted is not None and bool(request.query_params.get(wanted))


def _login_page(wrong: bool) -> Response:
    """The page that asks for the token printed where the server was started."""
    title = escape(i18n.gettext("The token, please"))
    said = escape(i18n.gettext(
        "This server is open to the network: give the token printed where it was started "
        "(after ?token= in its address)."))
    not_it = escape(i18n.gettext("That is not the token."))
    wrong_text = f'<p class="error" role="alert">{not_it}</p>' if wrong else ""
    label, button = escape(i18n.gettext("Token")), escape(i18n.gettext("Log in"))
    body = (f'<!doctype html><html lang="{escape(i18n.language())}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{title} · drawodds</title><link rel="stylesheet" href="/static/style.css">'
            '<link rel="icon" href="/static/favicon.svg"></head>'
            f'<body><main><h1>{title}</h1>{wrong_text}<p>{said}</p>'
            f'<form method="get" action=""><label>{label} <input name="token" type="password" autocomplete="off">'
            f'</label> <button type="submit">{button}</button></form></main></body></html>')
    return Response(body, status_code=401, media_type="text/html")

