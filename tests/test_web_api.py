"""The web page's JSON API and pages, in-process: the same answers and errors as the command line,
languages, long work as cancellable jobs, the trainer's history, and no path a request names."""

from __future__ import annotations

import ast
import contextlib
import io
import json
import socket
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from drawodds.cli import run  # noqa: E402
from drawodds.web.app import Settings, create_app  # noqa: E402
from drawodds.web.params import LONGEST_QUERY  # noqa: E402

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "drawodds"
BASE = "http://localhost:8765"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("web")


@pytest.fixture(scope="module")
def client(folder: Path) -> TestClient:
    app = create_app(Settings(history=folder / "train.jsonl", guide=folder / "guide", charts=folder / "charts"))
    with page_client(app) as c:
        yield c


def page_client(app: object) -> TestClient:
    """A client as the page's own script is: this computer's host name, the server's form token."""
    c = TestClient(app, raise_server_exceptions=False, base_url=BASE)
    c.get("/")                     # the form token's cookie
    c.headers["x-drawodds-form"] = c.app.state.web.settings.access.form  # type: ignore[attr-defined]
    return c


def cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = run(list(args))
    return code, out.getvalue(), err.getvalue()


def test_keep_answers_what_the_command_prints(client: TestClient) -> None:
    response = client.get("/api/keep?hand=AsAhKs7s3s&opponents=3&trials=20000&seed=1")
    code, out, _ = cli("keep", "AsAhKs7s3s", "--opponents", "3", "--trials", "20000", "--seed", "1", "--json")
    assert response.status_code == 200 and code == 0
    assert response.json() == json.loads(out)
    assert response.json()["holds"][0]["keep"] == ["As", "Ah"]


def test_options_named_as_the_flags(client: TestClient) -> None:
    response = client.get("/api/keep?hand=9c9d5h5s2c&vs=3&vs=1&max-draw=4&trials=2000&seed=3")
    code, out, _ = cli("keep", "9c9d5h5s2c", "--vs", "3", "--vs", "1", "--max-draw", "4", "--trials", "2000",
                       "--seed", "3", "--json")
    assert response.status_code == 200 and code == 0
    assert response.json() == json.loads(out)
    read = client.get("/api/read?draw=1&policy=loose&rules=jackpot&opener=1")
    code, out, _ = cli("read", "1", "--policy", "loose", "--rules", "jackpot", "--opener", "--json")
    assert read.status_code == 200 and read.json() == json.loads(out)


@pytest.mark.parametrize("query, args", [
    ("hand=AsAh", ["AsAh"]),
    ("hand=AsAsKs7s3s", ["AsAsKs7s3s"]),
    ("hand=AsAhKs7s3s&opponents=9", ["AsAhKs7s3s", "--opponents", "9"]),
    ("hand=AsAhKs7s3s&trials=1", ["AsAhKs7s3s", "--trials", "1"]),
    ("hand=AsAhKs7s3s&rules=nope", ["AsAhKs7s3s", "--rules", "nope"]),
    ("hand=AsAhKs7s3s&max-draw=7", ["AsAhKs7s3s", "--max-draw", "7"]),
    ("hand=AsAhKs7s3s&by=luck", ["AsAhKs7s3s", "--by", "luck"]),
])
def test_bad_input_is_400_with_the_commands_line(client: TestClient, query: str, args: list[str]) -> None:
    response = client.get("/api/keep?" + query)
    code, _, err = cli("keep", *args)
    assert code == 2 and response.status_code == 400
    assert response.json() == {"error": err.strip().removeprefix("drawodds: error: ")}


@pytest.mark.parametrize("query, words", [
    ("hand=AsAhKs7s3s&foo=1", "No such option: --foo."),
    ("hand=AsAhKs7s3s&opponents=x", "Invalid value for '--opponents': 'x' is not a valid integer."),
    ("hand=AsAhKs7s3s&seed=1&seed=2", "--seed was given twice: give it once"),
    ("opponents=1", "Missing argument 'HAND'."),
    ("hand=AsAhKs7s3s&opener=maybe", "Invalid value for '--opener': 'maybe' is not a valid boolean."),
])
def test_what_only_the_query_shows_is_refused_in_one_line(client: TestClient, query: str, words: str) -> None:
    response = client.get("/api/keep?" + query)
    assert response.status_code == 400 and response.json() == {"error": words}


def test_sizes_are_bounded(client: TestClient) -> None:
    assert client.get("/api/keep?hand=" + "A" * (LONGEST_QUERY + 1)).status_code == 400
    assert client.get("/api/keep?hand=AsAhKs7s3s" + "&vs=1" * 40).status_code == 400
    response = client.get("/api/keep?hand=AsAhKs7s3s&trials=10000001")
    assert response.status_code == 400 and "--trials can be at most" in response.json()["error"]


def test_the_language_of_a_page(client: TestClient) -> None:
    page = client.get("/keep?lang=sv")
    assert 'lang="sv"' in page.text and "lang=sv" in page.headers["set-cookie"]
    client.cookies.clear()
    assert '<html lang="nb">' in client.get("/train", headers={"accept-language": "nb-NO,nb;q=0.9"}).text
    assert '<html lang="sv">' in client.get("/train", headers={"accept-language": "de, sv;q=0.5"}).text
    english, swedish, norwegian = (client.get(f"/?lang={lang}").text for lang in ("en", "sv", "nb"))
    client.cookies.clear()
    assert "Deal hands, choose what to keep" in english
    assert "Deal hands, choose what to keep" not in swedish and "Deal hands, choose what to keep" not in norwegian
    assert swedish != norwegian
    # JSON stays English whatever the page's language
    swedish_data = client.get("/api/keep?hand=AsAhKs7s3s&trials=2000&lang=sv").json()
    assert swedish_data == client.get("/api/keep?hand=AsAhKs7s3s&trials=2000&lang=en").json()
    client.cookies.clear()


def test_every_page_loads(client: TestClient) -> None:
    for path in ("/", "/keep", "/read", "/train", "/solved", "/guide", "/keep?hand=AsAhKs7s3s&trials=2000",
                 "/read?draw=2&hand=AsAhKs7s3s&trials=500", "/solved?rules=jackpot"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert "<h1>" in response.text
    keep = client.get("/keep?hand=As+Ah+Ks+7s+3s&opponents=2&trials=2000").text
    assert 'id="verdict">Keep A♠ A♥' in keep and "equity against 2 opponents" in keep
    bad = client.get("/keep?hand=AsAh")
    assert bad.status_code == 400 and "a hand has 5 cards; got 2" in bad.text


def test_long_work_shows_progress_and_cancels(client: TestClient) -> None:
    page = client.get("/keep?hand=AsAhKs7s3s&opponents=5&trials=10000000")
    assert page.status_code == 200 and 'class="job"' in page.text
    job = page.text.split('data-job="')[1].split('"')[0]
    deadline = time.monotonic() + 10
    while client.get(f"/api/jobs/{job}").json()["progress"] == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert 0 < client.get(f"/api/jobs/{job}").json()["progress"] < 1
    assert client.post(f"/api/jobs/{job}/cancel").status_code == 200
    while client.get(f"/api/jobs/{job}").json()["state"] == "running" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert client.get(f"/api/jobs/{job}").json()["state"] in ("cancelled", "done")
    result = client.get(f"/keep/result/{job}")
    assert result.status_code == 200 and "Cancelled: the figures cover the trials run so far." in result.text
    assert client.get("/api/jobs/nope").status_code == 404


def test_the_trainer_keeps_its_history(client: TestClient, folder: Path) -> None:
    start = client.post("/train/start", data={"rules": "morkpoker", "objective": "jacks"}, follow_redirects=True)
    token = str(start.url).split("t=")[1]
    for _ in range(3):
        page = client.get(f"/train?t={token}").text
        dealt = [part.split('"')[0] for part in page.split('name="keep" value="')[1:]]
        assert len(dealt) == 5
        graded = client.post("/train/answer", data={"t": token, "keep": dealt[:2]}, follow_redirects=True)
        assert graded.status_code == 200 and 'id="grade"' in graded.text
    lines = [json.loads(line) for line in (folder / "train.jsonl").read_text().splitlines()]
    assert len(lines) == 3 and {r["session"] for r in lines} == {1}
    assert all(r["objective"] == "jacks" and r["kind"] == "keep" for r in lines)
    again = client.post("/train/start", data={"rules": "morkpoker", "objective": "jacks"}, follow_redirects=True)
    assert "3 of" not in again.text or "all sessions" in again.text
    second = str(again.url).split("t=")[1]
    page = client.get(f"/train?t={second}").text
    dealt = [part.split('"')[0] for part in page.split('name="keep" value="')[1:]]
    client.post("/train/answer", data={"t": second, "keep": dealt}, follow_redirects=True)
    lines = [json.loads(line) for line in (folder / "train.jsonl").read_text().splitlines()]
    assert [r["session"] for r in lines] == [1, 1, 1, 2]
    assert client.get("/train?t=unknown").status_code == 200
    assert client.post("/train/answer", content=b"keep=As&" * 40).status_code == 400
    assert client.post("/train/answer", content=b"t=" + b"x" * 10_000).status_code == 400
    assert client.post("/train/answer", data={"t": "nope", "keep": "As"}).status_code in (200, 303)


def test_no_path_a_request_names(client: TestClient, folder: Path) -> None:
    (folder / "guide").mkdir(exist_ok=True)
    (folder / "guide" / "README.md").write_text("# Guide\n\n![chart](chart.png)\n", encoding="utf-8")
    (folder / "guide" / "chart.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (folder / "secret.png").write_bytes(b"TOP-SECRET-CONTENT")
    guide = client.get("/guide")
    assert guide.status_code == 200 and 'src="/guide/files/chart.png"' in guide.text
    assert client.get("/guide/files/chart.png").content.startswith(b"\x89PNG")
    for path in ("/guide/files/..%2Fsecret.png", "/guide/files/../secret.png", "/guide/files/%2e%2e%2fsecret.png",
                 "/guide/files/README.py", "/solved/chart/..%2F..%2Fetc/passwd", "/solved?rules=..%2Fetc",
                 "/static/..%2F..%2Fapp.py"):
        response = client.get(path)
        assert response.status_code in (400, 404), path
        assert b"TOP-SECRET-CONTENT" not in response.content


def test_only_the_serve_command_imports_the_web_page() -> None:
    importers = []
    for path in PACKAGE.rglob("*.py"):
        if "web" in path.relative_to(PACKAGE).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else \
                [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if any(n == "drawodds.web" or n.startswith("drawodds.web.") for n in names):
                importers.append(path.relative_to(PACKAGE).as_posix())
    assert sorted(set(importers)) == ["cli/serve.py"]


_JUNK = st.one_of(st.text(max_size=30), st.sampled_from(["AsAhKs7s3s", "Jk", "10s", "-1", "0", "1e9", "nan", "inf",
                                                          "\x00", "'; drop", "../../etc/passwd", "٣", "99999999999"]))
_NAMES = st.sampled_from(["hand", "opponents", "trials", "seed", "rules", "vs", "against", "by", "policy", "se",
                          "range", "max-draw", "joker", "joker-ace", "players", "opener", "draw", "snow",
                          "break-rate", "lang", "workers", "x", ""])


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["/api/keep", "/api/read", "/keep", "/read", "/solved", "/train", "/guide/files/x"]),
       st.lists(st.tuples(_NAMES, _JUNK), max_size=6))
def test_garbage_never_breaks_the_server(client: TestClient, path: str, pairs: list[tuple[str, str]]) -> None:
    safe = []
    for name, value in pairs:     # a valid huge size would be real work, not garbage: keep the fuzz quick
        if name in ("trials", "workers") and value.strip().lstrip("+").isdigit():
            value = str(min(int(value.strip()), 500))
        safe.append((name, value))
    if not any(n == "trials" for n, _ in safe):
        safe.append(("trials", "200"))
    response = client.get(path, params=safe)
    assert response.status_code in (200, 400), (safe, response.text)
    assert "Traceback" not in response.text and 'File "' not in response.text
    if response.status_code == 400 and path.startswith("/api/"):
        error = response.json()["error"]
        assert error and "\n" not in error


def test_the_solved_game_by_hand_kind(client: TestClient, small_solution: object) -> None:
    from drawodds.solver.summary import predraw_overview

    client.app.state.web.solutions["morkpoker"] = small_solution      # as if it were the cached equilibrium
    try:
        page = client.get("/solved?rules=morkpoker")
        assert page.status_code == 200 and "Before the draw, by the hand dealt" in page.text
        kinds = [str(k) for k in predraw_overview(small_solution)["hand"]]
        assert all(f'<option value="{k}"' in page.text for k in kinds)
        one = client.get("/solved", params={"rules": "morkpoker", "kind": kinds[-1]}).text
        body = one.split("<tbody>")[1].split("</tbody>")[0]
        assert body.count("<tr>") == 1 and kinds[-1] in body
        import re
        import sys

        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from test_untranslated import english_words

        pseudo = client.get("/solved?rules=morkpoker&lang=x-pseudo").text.split("<main>")[1]
        assert english_words(re.sub(r"<[^>]+>", " ", pseudo)) == set()    # the kinds of hand too
        assert client.get("/solved/chart/morkpoker/other.png").status_code == 400      # the charts: a few named
        from drawodds.web.pages import CHARTS

        charts = [f"/solved/chart/morkpoker/{name}" for name in CHARTS]
        with ThreadPoolExecutor(len(charts)) as pool:       # a browser asks for all of them at once
            answers = list(pool.map(client.get, charts))
        assert [a.status_code for a in answers] == [200] * len(charts)
        assert all(a.content.startswith(b"\x89PNG") for a in answers)
    finally:
        client.app.state.web.solutions.clear()
        client.app.state.web.overviews.clear()
    unsolved = client.get("/solved?rules=jackpot")
    assert 'id="solve"' in unsolved.text or 'class="job"' in unsolved.text


def test_the_solved_game_three_at_the_table(client: TestClient, small_table: object) -> None:
    web = client.app.state.web
    web.solutions["morkpoker three-handed"] = small_table     # as if it were the cached solution
    try:
        page = client.get("/solved?rules=morkpoker&players=3")
        assert page.status_code == 200 and "three at the table" in page.text
        seats = page.text.split("<tbody>")[1].split("</tbody>")[0]
        assert seats.count("<tr>") == 3 and f"{small_table.value[-1]:+.3f}" in seats      # the dealer's value
        table = small_table.draw_summary()
        first = table[table["seat"] == 0].iloc[-1]
        one = client.get("/solved", params={"rules": "morkpoker", "players": "3", "seat": "first",
                                            "kind": str(first["hand"])}).text
        body = one.split("<tbody>")[2].split("</tbody>")[0]
        assert body.count("<tr>") == 1 and f"{100 * first['pat']:.0f}%" in body
        import re
        import sys

        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from test_untranslated import english_words

        pseudo = client.get("/solved?rules=morkpoker&players=3&lang=x-pseudo").text.split("<main>")[1]
        assert english_words(re.sub(r"<[^>]+>", " ", pseudo)) == set()
        assert client.get("/solved?rules=morkpoker&players=3&seat=fourth").status_code == 400
        assert client.get("/solved?rules=morkpoker&players=4").status_code == 400
    finally:
        web.solutions.clear()
        web.overviews.clear()
    unsolved = client.get("/solved?rules=jackpot&players=3")
    assert "three-handed" in unsolved.text and ('id="solve"' in unsolved.text or 'class="job"' in unsolved.text)


def test_the_serve_command_refuses_a_port_it_cannot_use() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, _, err = cli("serve", "--no-open", "--port", str(port))
    assert code == 2 and err.startswith(f"drawodds: error: cannot listen on 127.0.0.1 port {port}: ")
    assert len(err.strip().splitlines()) == 1
    code, _, err = cli("serve", "--no-open", "--port", "70000")
    assert code == 2 and err.strip() == "drawodds: error: --port must be 1-65535, got 70000"


def test_the_same_request_shares_its_work(folder: Path) -> None:
    # Pages that answer at once with the running job, so the reload surely meets the work still running.
    settings = Settings(history=folder / "train.jsonl", guide=folder / "guide", charts=folder / "charts", wait=0.0)
    with page_client(create_app(settings)) as client:
        _shares_its_work(client)


def _shares_its_work(client: TestClient) -> None:
    address = "/read?draw=1&hand=AsAhKs7s3s&trials=2000000"
    first = client.get(address).text
    assert 'class="job"' in first
    job = first.split('data-job="')[1].split('"')[0]
    again = client.get(address).text          # the page reloaded while the work runs: the same job
    assert f'data-job="{job}"' in again
    client.post(f"/api/jobs/{job}/cancel")
    deadline = time.monotonic() + 10
    while client.get(f"/api/jobs/{job}").json()["state"] in ("queued", "running") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert client.get(f"/api/jobs/{job}").json()["state"] == "cancelled"
    assert f'data-job="{job}"' not in client.get(address).text   # cancelled work is not shared: it starts anew
    for j in list(client.app.state.web.jobs._jobs.values()):
        j.cancel()


def test_writing_the_guide_runs_apart_and_cancels(client: TestClient, folder: Path) -> None:
    page = client.post("/guide/write?quick=1", follow_redirects=True)
    assert page.status_code == 200 and 'class="job"' in page.text
    job = page.text.split('data-job="')[1].split('"')[0]
    assert client.get("/keep?hand=AsAhKs7s3s&trials=2000").status_code == 200     # the pages go on meanwhile
    time.sleep(1.0)
    client.post(f"/api/jobs/{job}/cancel")
    deadline = time.monotonic() + 40
    while client.get(f"/api/jobs/{job}").json()["state"] in ("queued", "running") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert client.get(f"/api/jobs/{job}").json()["state"] == "cancelled"
    assert 'id="write-quick"' in client.get("/guide").text       # nothing written: the guide is written whole


def _work_on_a_pool(report, out: str) -> None:
    """A page's long work that starts a worker pool of its own, as writing the guide does."""
    from drawodds.execution import Runner

    with Runner(2) as runner:
        batch = runner.map(abs, [(-3,), (-4,)], long=True)
    Path(out).write_text(" ".join(str(r) for r in batch.results))


def test_a_pages_long_work_may_start_its_own_workers(tmp_path):
    """The child a page's long work runs in may start worker processes (a daemonic one may not)."""
    from drawodds.web.jobs import Job
    from drawodds.web.work import run_in_child

    out = tmp_path / "out.txt"
    run_in_child(Job("guide"), _work_on_a_pool, str(out))
    assert out.read_text() == "3 4"
