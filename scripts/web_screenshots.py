"""Screenshots of every page of `drawodds serve` for the manual (docs/web/*.png), in headless Chromium.

The server runs in this process on a free local port with its own history folder; the guide page
shows the guide folder given (default: the repository's reports/, the guide `drawodds report`
wrote), and the solved game page the cached equilibrium, if this machine has solved it.

    PYTHONPATH=src python scripts/web_screenshots.py [--out docs/web] [--guide reports]
"""

from __future__ import annotations

import argparse
import shutil
import socket
import tempfile
import threading
import time
from pathlib import Path

import uvicorn
from playwright.sync_api import sync_playwright

from drawodds.web.app import Settings, create_app

ROOT = Path(__file__).resolve().parents[1]
SHOTS = (   # file name, path, viewport width, height (the most of the page the screenshot shows)
    ("home.png", "/", 1000, 560),
    ("keep.png", "/keep?hand=AsAhKs7s3s&opponents=3&trials=20000&seed=1", 1000, 1250),
    ("read.png", "/read?draw=1&hand=AsAhKs7s3s&trials=20000", 1000, 1150),
    ("train.png", None, 1000, 1000),
    ("solved.png", "/solved?rules=morkpoker", 1000, 1400),
    ("guide.png", "/guide", 1000, 1000),
    ("keep-sv-phone.png", "/keep?hand=AsAhKs7s3s&opponents=3&trials=20000&seed=1&lang=sv", 375, 1300),
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "web"))
    parser.add_argument("--guide", default=str(ROOT / "reports"))
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    parser.add_argument("--only", action="append", help="take only this screenshot (a file name; repeatable)")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="drawodds-shots-"))
    app = create_app(Settings(history=folder / "train.jsonl", guide=Path(args.guide), charts=folder / "charts"))
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    base = f"http://127.0.0.1:{port}"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
        for name, path, width, height in SHOTS:
            if args.only and name not in args.only:
                continue
            context = browser.new_context(viewport={"width": width, "height": height}, locale="en-GB",
                                          device_scale_factor=1)
            page = context.new_page()
            if path is None:        # the trainer: a session started, one hand answered
                page.goto(base + "/train")
                page.select_option("#objective", "jacks")
                page.click("#deal")
                page.locator(".dealt label.keepcard").nth(0).click()
                page.locator(".dealt label.keepcard").nth(1).click()
                page.click("#draw")
                page.locator("#grade").wait_for()
                page.locator(".dealt label.keepcard").nth(0).click()
            else:
                page.goto(base + path)
                page.wait_for_load_state("networkidle")
                if page.locator(".job").count():
                    page.locator(".job").wait_for(state="detached", timeout=120_000)
                    page.wait_for_timeout(500)               # the result swapped in, or the page reloaded
                    page.wait_for_load_state("networkidle")
                # Lazy images below the window would never load: ask for them all, then wait for them.
                page.evaluate("document.querySelectorAll('img[loading=lazy]').forEach(i => i.loading = 'eager')")
                page.evaluate("Promise.all([...document.images].map(i => i.complete ? 0 : "
                              "new Promise(r => { i.onload = i.onerror = r; })))")
            page.evaluate("window.scrollTo(0, 0)")     # the page scrolls a verdict into view: show it from the top
            tall = int(page.evaluate("document.querySelector('main').getBoundingClientRect().bottom")) + 8
            page.set_viewport_size({"width": width, "height": min(height, tall)})   # no empty band below
            page.screenshot(path=str(out / name))
            print(out / name)
            context.close()
        browser.close()
    server.should_exit = True


if __name__ == "__main__":
    main()
