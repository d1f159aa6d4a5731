"""`drawodds serve`: the keep calculator, the trainer, the solved game and the guide as a local web page."""

from __future__ import annotations

import importlib.util
import threading
import webbrowser
from typing import Annotated

import typer

from drawodds.cli.errors import refuse
from drawodds.render.console import note

LOCAL = "127.0.0.1"


def serve_cmd(
    host: Annotated[str, typer.Option("--host", help=(
        "Address to listen on (default 127.0.0.1: this computer only). Another address lets other "
        "machines on the network use the page."))] = LOCAL,
    port: Annotated[int, typer.Option("--port", help="Port to listen on (1-65535).")] = 8765,
    open_browser: Annotated[bool, typer.Option("--open/--no-open", help=(
        "Open the page in the default browser once the server is up."))] = True,
) -> None:
    """Serve drawodds as a web page on this computer: keep, read, the trainer, the solved game, the guide.

    Needs the web extra: pip install "drawodds\\[web]". Stop it with Ctrl-C.

    Examples:

      drawodds serve

      drawodds serve --port 9000 --no-open
    """
    if not 1 <= port <= 65535:
        raise refuse(f"--port must be 1-65535, got {port}")
    if importlib.util.find_spec("uvicorn") is None or importlib.util.find_spec("starlette") is None:
        raise refuse('drawodds serve needs the web extra: pip install "drawodds[web]"')
    import uvicorn

    from drawodds.web.app import create_app

    url = f"http://{'localhost' if host == LOCAL else host}:{port}/"
    if host != LOCAL:
        note(f"listening on {host}: anyone who can reach this machine on port {port} can use the page")
    note(f"drawodds is served at {url} (Ctrl-C stops it)")
    if open_browser:
        threading.Timer(1.0, webbrowser.open, (url,)).start()
    uvicorn.run(create_app(), host=host, port=port, log_level="warning")
