"""`drawodds serve`: the keep calculator, the trainer, the solved game and the guide as a local web page."""

from __future__ import annotations

import importlib.util
import ipaddress
import secrets
import socket
import threading
import webbrowser
from typing import Annotated

import typer

from drawodds.cli.errors import refuse
from drawodds.i18n import N_, _
from drawodds.render.console import note

LOCAL = "127.0.0.1"

HELP = N_("""Serve drawodds as a web page on this computer: keep, read, the trainer, the solved game, the guide.

Needs the web extra: pip install "drawodds\\[web]". Stop it with Ctrl-C.

Examples:

  drawodds serve

  drawodds serve --port 9000 --no-open""")


def serve_cmd(
    host: Annotated[str, typer.Option("--host", help=N_(
        "Address to listen on (default 127.0.0.1: this computer only). An address other machines can "
        "reach (0.0.0.0, ::) lets them use the page with the token printed at the start."))] = LOCAL,
    port: Annotated[int, typer.Option("--port", help=N_("Port to listen on (1-65535)."))] = 8765,
    open_browser: Annotated[bool, typer.Option("--open/--no-open", help=N_(
        "Open the page in the default browser once the server is up."))] = True,
) -> None:
    """The command `drawodds serve` (its help is HELP)."""
    host = host.strip().removeprefix("[").removesuffix("]")
    if not 1 <= port <= 65535:
        raise refuse(_("--port must be 1-65535, got {port}").format(port=port))
    if importlib.util.find_spec("uvicorn") is None or importlib.util.find_spec("starlette") is None:
        raise refuse(_('drawodds serve needs the web extra: pip install "drawodds[web]"'))
    import uvicorn

    from drawodds.web.app import Settings, create_app
    from drawodds.web.guard import LOOPBACK, Access

    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        family = found[0][0]
        listening = socket.socket(family, socket.SOCK_STREAM)
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind((host, port))
    except OSError as exc:
        raise refuse(_("cannot listen on {host} port {port}: {reason}").format(
            host=host, port=port, reason=exc.strerror or exc)) from None
    local = all(ipaddress.ip_address(str(info[4][0]).split("%")[0]).is_loopback for info in found)
    access = Access(hosts=tuple(dict.fromkeys((*LOOPBACK, host.strip("[]").lower()))) if local else None,
                    login=None if local else secrets.token_urlsafe(24))
    url, lines = addresses(host, port, access.login, family == socket.AF_INET6)
    for line in lines:
        note(line)
    if open_browser:
        threading.Timer(1.0, webbrowser.open, (url,)).start()
    server = uvicorn.Server(uvicorn.Config(create_app(Settings(access=access)), log_level="warning"))
    try:
        server.run(sockets=[listening])
    except KeyboardInterrupt:          # Ctrl-C is how the server is stopped
        note(_("stopped"))
    finally:
        listening.close()


def addresses(host: str, port: int, token: str | None, ipv6: bool) -> tuple[str, list[str]]:
    """The page's address for this computer's browser, and the lines that say where it is (with the
    token in the address when the server is open to the network)."""
    if token is None:
        url = f"http://localhost:{port}/"
        return url, [_("the page is at {url} (this computer only; Ctrl-C stops the server)").format(url=url)]
    url = f"http://{'[::1]' if ipv6 else '127.0.0.1'}:{port}/?token={token}"
    return url, [_("listening on {host}: other machines on the network can reach the page, with the token "
                   "in its address").format(host=_url_host(host)),
                 _("the page is at {url} (Ctrl-C stops the server)").format(
                     url=f"http://{_url_host(host)}:{port}/?token={token}"),
                 _("on this computer: {url}").format(url=url)]


def _url_host(host: str) -> str:
    """A host as an address writes it (an IPv6 address in brackets: ``[::]``)."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host
