"""Only this computer's own pages use the server: another Host, another site's page, a missing token
are refused and change nothing; work is bounded and ends when the page that asked for it goes away."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
uvicorn = pytest.importorskip("uvicorn")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from drawodds.errors import DrawoddsError  # noqa: E402
from drawodds.web.app import Settings, create_app  # noqa: E402
from drawodds.web.guard import Access  # noqa: E402
from drawodds.web.jobs import PER_CLIENT, Busy, Jobs  # noqa: E402
from drawodds.web.work import run_in_child  # noqa: E402

BASE = "http://localhost:8765"
FRAMED = ("x-frame-options", "DENY")


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    (tmp_path / "guide").mkdir()
    (tmp_path / "guide" / "README.md").write_text("# Guide\n\nThe old guide.\n", encoding="utf-8")
    return Settings(history=tmp_path / "train.jsonl", guide=tmp_path / "guide", charts=tmp_path / "charts")


def own_client(app: object) -> TestClient:
    """The page's own script: this computer's name, the form token's cookie and header."""
    client = TestClient(app, raise_server_exceptions=False, base_url=BASE)
    client.get("/")
    client.headers["x-drawodds-form"] = client.app.state.web.settings.access.form  # type: ignore[attr-defined]
    return client


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8765", "127.0.0.1.evil.example", "[::2]:8765",
                                  "localhost.", ""])
def test_a_foreign_host_is_refused(settings: Settings, host: str) -> None:
    client = TestClient(create_app(settings), raise_server_exceptions=False, base_url=BASE)
    for path in ("/", "/keep", "/api/keep?hand=AsAhKs7s3s&trials=2000", "/static/style.css"):
        response = client.get(path, headers={"host": host})
        assert response.status_code == 400, (host, path)
        assert "Traceback" not in response.text
    for host in ("localhost:8765", "127.0.0.1:8765", "[::1]:8765", "LOCALHOST"):
        assert client.get("/", headers={"host": host}).status_code == 200, host


def test_every_page_forbids_framing_and_sniffing(settings: Settings) -> None:
    client = own_client(create_app(settings))
    for path in ("/", "/keep", "/read", "/train", "/guide", "/static/style.css", "/api/keep?hand=AsAh", "/nope"):
        response = client.get(path)
        assert response.headers["x-frame-options"] == "DENY", path
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"], path
        assert response.headers["x-content-type-options"] == "nosniff", path


def _state(client: TestClient, settings: Settings) -> tuple[object, ...]:
    web = client.app.state.web  # type: ignore[attr-defined]
    history = settings.history.read_bytes() if settings.history.exists() else b""
    guide = sorted((p.name, p.read_bytes()) for p in settings.guide.iterdir())
    sessions = len(web.sessions._sessions)
    jobs = [(j.id, j.state, j.cancel_event.is_set()) for j in web.jobs._jobs.values()]
    return history, guide, sessions, jobs


def test_another_sites_post_changes_nothing(settings: Settings) -> None:
    app = create_app(settings)
    own = own_client(app)
    token = app.state.web.settings.access.form
    session = str(own.post("/train/start", data={"rules": "morkpoker"}, follow_redirects=True).url).split("t=")[1]
    page = own.get(f"/train?t={session}").text
    dealt = [part.split('"')[0] for part in page.split('name="keep" value="')[1:]]
    job = own.get("/keep?hand=AsAhKs7s3s&opponents=5&trials=10000000").text.split('data-job="')[1].split('"')[0]
    routes = [("/train/start", {"rules": "morkpoker"}), ("/train/answer", {"t": session, "keep": dealt[:2]}),
              ("/solved/solve?rules=morkpoker", {}), ("/guide/write?quick=1", {}), (f"/api/jobs/{job}/cancel", {})]
    stranger = TestClient(app, raise_server_exceptions=False, base_url=BASE)
    stranger.get("/")          # even with the cookie a visit left in the browser
    cookie = stranger.cookies
    ways = [  # a form on another site (the browser says where it comes from), a script without the token, ...
        {"headers": {"origin": "http://evil.example", "sec-fetch-site": "cross-site"}, "form": True},
        {"headers": {"origin": "http://evil.example"}, "form": True},
        {"headers": {"sec-fetch-site": "same-site"}, "form": True},
        {"headers": {"origin": "null"}, "form": True},
        {"headers": {}, "form": False},                       # no token: a page that cannot read this one
        {"headers": {"x-drawodds-form": "guess"}, "form": False},
    ]
    before = _state(own, settings)
    for path, data in routes:
        for way in ways:
            form = {**data, "form": token} if way["form"] else data
            stranger.cookies = cookie
            response = stranger.post(path, data=form, headers=way["headers"], follow_redirects=False)
            assert 400 <= response.status_code < 500, (path, way)
            assert _state(own, settings) == before, (path, way)
    token_only = TestClient(app, raise_server_exceptions=False, base_url=BASE)     # the token but not the cookie
    assert token_only.post("/guide/write?quick=1", data={"form": token}).status_code == 403
    assert own.get("/train/start?rules=morkpoker").status_code in (404, 405)      # no GET changes anything
    assert _state(own, settings) == before
    assert own.post(f"/api/jobs/{job}/cancel").status_code == 200                 # the page itself may
    form = TestClient(app, raise_server_exceptions=False, base_url=BASE)
    form.get("/train")
    answered = form.post("/train/answer", data={"t": session, "keep": dealt[:2], "form": token},
                         headers={"origin": BASE, "sec-fetch-site": "same-origin"}, follow_redirects=False)
    assert answered.status_code == 303 and answered.headers["location"] == f"/train?t={session}"
    assert len(settings.history.read_text().splitlines()) == 1


def test_another_sites_page_cannot_start_work_by_an_image(settings: Settings) -> None:
    client = own_client(create_app(settings))
    for path in ("/keep?hand=AsAhKs7s3s&trials=10000000", "/api/keep?hand=AsAhKs7s3s&trials=10000000",
                 "/read?draw=1&hand=AsAhKs7s3s&trials=10000000"):
        response = client.get(path, headers={"sec-fetch-site": "cross-site", "sec-fetch-mode": "no-cors"})
        assert response.status_code == 403
    assert client.app.state.web.jobs.busy() == []  # type: ignore[attr-defined]


def test_head_does_no_work_and_nothing_redirects_to_another_host(settings: Settings) -> None:
    client = own_client(create_app(settings))
    started = time.monotonic()
    head = client.head("/keep?hand=AsAhKs7s3s&opponents=5&trials=10000000")
    assert head.status_code == 200 and head.content == b"" and time.monotonic() - started < 1
    assert client.head("/api/read?draw=1&trials=10000000").status_code == 200
    assert client.head("/no/such/page").status_code == 404
    assert client.app.state.web.jobs.busy() == []  # type: ignore[attr-defined]
    assert client.get("/keep/", follow_redirects=False).status_code == 404          # no redirect naming the Host
    started = client.post("/train/start", data={}, headers={"host": "127.0.0.1:8765"}, follow_redirects=False)
    assert started.status_code == 303 and started.headers["location"].startswith("/train?t=")


def test_a_link_in_the_guide_folder_is_not_served(settings: Settings, tmp_path: Path) -> None:
    (tmp_path / "secret.md").write_text("TOP-SECRET", encoding="utf-8")
    (settings.guide / "notes.md").symlink_to(tmp_path / "secret.md")
    client = own_client(create_app(settings))
    assert client.get("/guide/files/notes.md").status_code == 400


def test_beyond_this_computer_the_page_asks_for_the_token(settings: Settings) -> None:
    settings.access = Access(hosts=None, login="the-printed-token")
    client = TestClient(create_app(settings), raise_server_exceptions=False, base_url="http://192.0.2.7:8765")
    asked = client.get("/keep")
    assert asked.status_code == 401 and 'name="token"' in asked.text and asked.headers["x-frame-options"] == "DENY"
    assert client.get("/api/keep?hand=AsAhKs7s3s&trials=2000").status_code == 401
    assert client.get("/keep?token=wrong").status_code == 401
    assert client.get("/static/style.css").status_code == 200          # the login page's own look
    given = client.get("/keep?token=the-printed-token&lang=sv", follow_redirects=False)
    assert given.status_code == 303 and given.headers["location"] == "/keep?lang=sv"
    assert client.get("/keep").status_code == 200                       # remembered in a cookie
    other = TestClient(create_app(settings), raise_server_exceptions=False, base_url="http://192.0.2.7:8765")
    assert other.get("/api/keep?hand=AsAhKs7s3s&trials=2000",
                     headers={"authorization": "token the-printed-token"}).status_code == 200


def test_work_is_bounded_per_page_and_one_long_job_at_a_time() -> None:
    jobs = Jobs()
    stop = threading.Event()
    try:
        for _ in range(PER_CLIENT):
            jobs.start("keep", lambda job: stop.wait(10), owner="one browser")
        with pytest.raises(Busy):
            jobs.start("keep", lambda job: stop.wait(10), owner="one browser")
        jobs.start("keep", lambda job: stop.wait(10), owner="another browser")
        jobs.start("guide", lambda job: stop.wait(10), long=True, owner="another browser")
        with pytest.raises(Busy) as refused:
            jobs.start("solve morkpoker", lambda job: stop.wait(10), long=True, owner="a third")
        assert isinstance(refused.value, DrawoddsError) and "\n" not in str(refused.value)
    finally:
        stop.set()
        jobs.shutdown()


def stubborn(report: object) -> None:
    """Work that ignores Ctrl-C (as a long numpy step does until it ends)."""
    while True:
        try:
            time.sleep(30)
        except KeyboardInterrupt:
            pass


def test_cancel_stops_a_child_within_two_seconds() -> None:
    jobs = Jobs()
    job = jobs.start("guide", lambda j: run_in_child(j, stubborn), long=True)
    deadline = time.monotonic() + 20
    while job.state != "running" and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(1.0)               # the child is up
    cancelled = time.monotonic()
    job.cancel()
    assert job.finished.wait(5)
    assert time.monotonic() - cancelled < 2.0 and job.state == "cancelled"


# --- a live server: requests that hang up, a body that never comes ---------------------------------

@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int, object]]:
    folder = tmp_path_factory.mktemp("web-guard")
    app = create_app(Settings(history=folder / "train.jsonl", guide=folder / "guide", charts=folder / "charts",
                              body_seconds=1.0))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started
    yield "127.0.0.1", port, app
    server.should_exit = True
    thread.join(10)


def _send(address: tuple[str, int], request: bytes) -> socket.socket:
    connection = socket.create_connection(address, timeout=15)
    connection.sendall(request)
    return connection


HANG_UP = """
import socket, sys, time
port, paths = int(sys.argv[1]), sys.argv[2:]
ask = "GET {path} HTTP/1.1\\r\\nHost: localhost:{port}\\r\\nCookie: drawodds_client_{port}={who}\\r\\n\\r\\n"
held = []
for i, path in enumerate(paths):
    held.append(socket.create_connection(("127.0.0.1", port), timeout=15))
    held[-1].sendall(ask.format(path=path, port=port, who=i).encode())
time.sleep(float(0.8))
print(" ".join(c.recv(12).decode()[9:] if path.endswith("trials=100000000") else "-" for c, path in zip(held, paths)))
"""


def test_requests_that_hang_up_leave_the_server_idle(live: tuple[str, int, object]) -> None:
    # The clients are another process, as a browser is (a forked worker would hold this one's sockets open).
    _, port, app = live
    jobs = app.state.web.jobs  # type: ignore[attr-defined]
    huge = [f"/keep?hand=AsAhKs7s3s&opponents=5&seed={i}&trials=100000000" for i in range(6)]
    said = subprocess.run([sys.executable, "-c", HANG_UP, str(port), *huge], capture_output=True, text=True,
                          timeout=30).stdout.split()
    assert said == ["400"] * 6       # more trials than a page may ask for
    most = [f"{path}?hand=AsAhKs7s3s&opponents=5&trials=10000000&seed={i}" for i, path in
            enumerate(["/keep", "/api/keep"] * 3)]
    started = time.monotonic()
    subprocess.run([sys.executable, "-c", HANG_UP, str(port), *most], capture_output=True, timeout=30, check=True)
    hung_up = time.monotonic()
    assert hung_up - started < 5 and len(jobs.busy()) == 6     # all six were running or waiting
    while jobs.busy() and time.monotonic() - hung_up < 10:
        time.sleep(0.1)
    assert jobs.busy() == [], f"still working {time.monotonic() - hung_up:.1f} s after the clients went away"


def test_a_body_that_never_comes_times_out(live: tuple[str, int, object]) -> None:
    host, port, _ = live
    lying = _send((host, port), (f"POST /train/answer HTTP/1.1\r\nHost: localhost:{port}\r\n"
                                 "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nt=abc")
                  .encode())
    started = time.monotonic()
    answer = lying.recv(200)
    lying.close()
    assert answer.startswith(b"HTTP/1.1 408") and time.monotonic() - started < 5


def test_serve_says_where_the_page_is_for_each_host() -> None:
    from drawodds.cli.serve import addresses

    url, lines = addresses("localhost", 8765, None, False)
    assert url == "http://localhost:8765/"
    assert lines == ["the page is at http://localhost:8765/ (this computer only; Ctrl-C stops the server)"]
    url, lines = addresses("::", 8765, "T0K", True)
    assert url == "http://[::1]:8765/?token=T0K"
    assert lines == ["listening on [::]: other machines on the network can reach the page, with the token in its "
                     "address", "the page is at http://[::]:8765/?token=T0K (Ctrl-C stops the server)",
                     "on this computer: http://[::1]:8765/?token=T0K"]
    url, lines = addresses("0.0.0.0", 9000, "T0K", False)
    assert url == "http://127.0.0.1:9000/?token=T0K" and lines[1].startswith("the page is at http://0.0.0.0:9000/?")
    assert all("anyone" not in line for line in lines)


def test_the_guides_contents_links_reach_their_sections(settings: Settings) -> None:
    import re

    reports = Path(__file__).resolve().parents[1] / "reports"
    for lang in ("en", "sv", "nb"):
        if lang != "en" and not (reports / lang / "README.md").is_file():
            continue
        settings.guide = reports
        client = own_client(create_app(settings))
        page = client.get(f"/guide?lang={lang}").text
        links = set(re.findall(r'href="#([^"]+)"', page))
        ids = set(re.findall(r'id="([^"]+)"', page))
        assert links and links <= ids, (lang, links - ids)
