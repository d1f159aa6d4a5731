"""The web page in a real headless Chromium, used as a person uses it: clicking cards, the keyboard
alone, three trainer hands, and every page at a phone's width with nothing cut off, in Swedish and
Norwegian with no English word left."""

from __future__ import annotations

import shutil
import socket
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
playwright = pytest.importorskip("playwright.sync_api")

from drawodds import i18n  # noqa: E402
from drawodds.web.app import Settings, create_app  # noqa: E402

CHROMIUM = next((p for p in (shutil.which("chromium"), shutil.which("chromium-browser"), "/usr/bin/chromium")
                 if p and Path(p).exists()), None)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine (apt-get install chromium)")
PHONE = 375
PAGES = ("/", "/keep", "/keep?hand=AsAhKs7s3s&opponents=3&trials=2000", "/read",
         "/read?draw=1&hand=AsAhKs7s3s&trials=500", "/train", "/solved", "/guide")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("web-browser")
    guide = Path(__file__).resolve().parents[1] / "reports"      # the guide `drawodds report` wrote, read only
    app = create_app(Settings(history=folder / "train.jsonl", guide=guide, charts=folder / "charts"))
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not running.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert running.started, "the server did not start"
    yield f"http://127.0.0.1:{port}"
    running.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with playwright.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture
def page(browser: object) -> Iterator[object]:
    context = browser.new_context(locale="en-GB", viewport={"width": 1000, "height": 800})  # type: ignore[attr-defined]
    yield context.new_page()
    context.close()


def test_pick_five_cards_and_read_the_verdict(server: str, page: object) -> None:
    page.goto(server + "/keep")  # type: ignore[attr-defined]
    for code in ("As", "Ah", "Ks", "7s", "3s"):
        page.click(f'.grid button[data-card="{code}"]')  # type: ignore[attr-defined]
    assert page.input_value("#hand") == "As Ah Ks 7s 3s"  # type: ignore[attr-defined]
    assert page.locator('.grid button[aria-pressed="true"]').count() == 5  # type: ignore[attr-defined]
    page.click('.grid button[data-card="Ks"]')  # type: ignore[attr-defined]   # a second click puts it back
    page.click('.grid button[data-card="Kh"]')  # type: ignore[attr-defined]
    page.click('.grid button[data-card="Qd"]')  # type: ignore[attr-defined]   # a sixth card is refused
    assert page.input_value("#hand") == "As Ah 7s 3s Kh"  # type: ignore[attr-defined]
    page.select_option("#opponents", "2")  # type: ignore[attr-defined]
    page.fill('input[name="trials"]', "3000")  # type: ignore[attr-defined]
    page.click("#go")  # type: ignore[attr-defined]
    verdict = page.locator("#verdict").inner_text(timeout=30_000)  # type: ignore[attr-defined]
    assert verdict.startswith("Keep A♠ A♥") and "equity against 2 opponents" in verdict
    assert page.locator("table.holds tbody tr").count() >= 10  # type: ignore[attr-defined]


def test_long_work_shows_its_progress_and_cancels(server: str, page: object) -> None:
    page.goto(server + "/keep?hand=AsAhKs7s3s&opponents=5&trials=10000000&seed=9")  # type: ignore[attr-defined]
    bar = page.locator(".job progress")  # type: ignore[attr-defined]
    bar.wait_for()
    page.wait_for_function("document.querySelector('.job progress').value > 0", timeout=30_000)  # type: ignore[attr-defined]
    page.click(".job .cancel")  # type: ignore[attr-defined]
    note = page.locator(".keep-result .note").first.inner_text(timeout=30_000)  # type: ignore[attr-defined]
    assert note == "Cancelled: the figures cover the trials run so far."
    assert page.locator("#verdict").inner_text().startswith("Keep")  # type: ignore[attr-defined]


def test_the_keep_page_with_the_keyboard_alone(server: str, page: object) -> None:
    page.goto(server + "/keep")  # type: ignore[attr-defined]
    for _ in range(40):
        page.keyboard.press("Tab")  # type: ignore[attr-defined]
        if page.evaluate("document.activeElement.id") == "hand":  # type: ignore[attr-defined]
            break
    assert page.evaluate("document.activeElement.id") == "hand"  # type: ignore[attr-defined]
    page.keyboard.type("Kh Qh Jh Th")  # type: ignore[attr-defined]
    page.keyboard.press("Tab")  # type: ignore[attr-defined]   # into the card grid: its first card, the ace of spades
    page.keyboard.press("Tab")  # type: ignore[attr-defined]   # the king of spades ...
    assert page.evaluate("document.activeElement.dataset.card") == "Ks"  # type: ignore[attr-defined]
    page.keyboard.press("Space")  # type: ignore[attr-defined]
    assert page.input_value("#hand") == "Kh Qh Jh Th Ks"  # type: ignore[attr-defined]
    while page.evaluate("document.activeElement.id") != "opponents":  # type: ignore[attr-defined]
        page.keyboard.press("Tab")  # type: ignore[attr-defined]
    page.keyboard.press("ArrowDown")  # type: ignore[attr-defined]   # one step down the list: no opponents ...
    page.keyboard.press("ArrowDown")  # type: ignore[attr-defined]   # ... then one
    assert page.input_value("#opponents") == "1"  # type: ignore[attr-defined]
    while page.evaluate("document.activeElement.name") != "trials":  # type: ignore[attr-defined]
        page.keyboard.press("Tab")  # type: ignore[attr-defined]
    page.keyboard.type("3000")  # type: ignore[attr-defined]
    page.keyboard.press("Enter")  # type: ignore[attr-defined]
    verdict = page.locator("#verdict").inner_text(timeout=30_000)  # type: ignore[attr-defined]
    best = page.request.get(server + "/api/keep?hand=Kh+Qh+Jh+Th+Ks&opponents=1&trials=3000").json()  # type: ignore[attr-defined]
    shown = " ".join(c[0].replace("T", "10") + "♣♦♥♠"["cdhs".index(c[1])] for c in best["holds"][0]["keep"])
    assert verdict.startswith(f"Keep {shown}, draw") and "against 1 opponent" in verdict


def test_three_trainer_hands_by_clicking(server: str, page: object) -> None:
    page.goto(server + "/train")  # type: ignore[attr-defined]
    page.select_option("#objective", "jacks")  # type: ignore[attr-defined]
    page.click("#deal")  # type: ignore[attr-defined]
    for n in range(1, 4):
        cards = page.locator(".dealt label.keepcard")  # type: ignore[attr-defined]
        assert cards.count() == 5
        cards.nth(0).click()
        cards.nth(1).click()
        assert page.locator(".dealt input:checked").count() == 2  # type: ignore[attr-defined]
        page.click("#draw")  # type: ignore[attr-defined]
        grade = page.locator("#grade").inner_text(timeout=30_000)  # type: ignore[attr-defined]
        assert ("Right" in grade or "Not the best hold" in grade) and "Cost:" in grade
        assert page.locator("#score").inner_text().startswith(f"Score: {n} decision")  # type: ignore[attr-defined]
    assert page.locator(".score table tbody tr").count() >= 1  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_every_page_fits_a_phone(server: str, browser: object, lang: str) -> None:
    context = browser.new_context(viewport={"width": PHONE, "height": 740}, is_mobile=True,  # type: ignore[attr-defined]
                                  device_scale_factor=2)
    phone = context.new_page()
    try:
        for path in PAGES:
            phone.goto(server + path + ("&" if "?" in path else "?") + f"lang={lang}")
            phone.wait_for_load_state("load")
            width = phone.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE, f"{path} is {width} px wide at {PHONE} px"
            assert phone.locator("h1").is_visible()
        phone.goto(server + f"/train?lang={lang}")       # a trainer session: a hand dealt, one answered
        phone.select_option("#objective", "jacks")
        phone.click("#deal")
        phone.locator(".dealt label.keepcard").nth(0).click()
        phone.locator(".dealt label.keepcard").nth(1).click()
        phone.click("#draw")
        phone.locator("#grade").wait_for()
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE
    finally:
        context.close()


sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_untranslated import english_words  # noqa: E402

REPORTS = Path(__file__).resolve().parents[1] / "reports"
LANGUAGE_NAMES = {"English", "Svenska", "Norsk"}      # each language's link, in its own words


def _phone(browser: object, lang: str) -> object:
    context = browser.new_context(viewport={"width": PHONE, "height": 740}, is_mobile=True,  # type: ignore[attr-defined]
                                  device_scale_factor=1, locale={"sv": "sv-SE", "nb": "nb-NO"}.get(lang, "en-GB"))
    return context


def _fits(phone: object, where: str) -> None:
    width = phone.evaluate("document.documentElement.scrollWidth")  # type: ignore[attr-defined]
    assert width <= PHONE, f"{where} is {width} px wide at {PHONE} px"


def _english(phone: object) -> set[str]:
    """English words in what the page shows (the guide's own text and sheet names apart: the guide's language)."""
    text = phone.evaluate("""() => {  // type: ignore
        const copy = document.body.cloneNode(true);
        copy.querySelectorAll('article.guide, .sheet-name, .sheets img, script, style').forEach(e => e.remove());
        return copy.innerText + ' ' + [...copy.querySelectorAll('[aria-label],[title],[placeholder],[alt]')]
            .map(e => [e.getAttribute('aria-label'), e.getAttribute('title'), e.getAttribute('placeholder'),
                       e.getAttribute('alt')].join(' ')).join(' ');
    }""")  # type: ignore[attr-defined]
    return english_words(text) - LANGUAGE_NAMES


def _walk(phone: object, server: str, lang: str) -> None:
    """A player's walk on a phone: pick five cards, rank the holds, read a draw, three trainer hands."""
    phone.goto(server + f"/keep?lang={lang}")  # type: ignore[attr-defined]
    for code in ("As", "Ah", "Ks", "7s", "3s"):
        phone.click(f'.grid button[data-card="{code}"]')  # type: ignore[attr-defined]
    phone.fill('input[name="trials"]', "3000")  # type: ignore[attr-defined]
    phone.click("#go")  # type: ignore[attr-defined]
    verdict = phone.locator("#verdict")  # type: ignore[attr-defined]
    verdict.wait_for(timeout=30_000)
    phone.wait_for_timeout(300)  # type: ignore[attr-defined]
    box = verdict.bounding_box()
    assert box is not None and -1 <= box["y"] and box["y"] + box["height"] <= 741, f"the verdict is at {box}"
    rows = phone.locator("table.holds tbody tr")  # type: ignore[attr-defined]
    first = rows.first.locator(".hand .card")
    tops = {round(first.nth(i).bounding_box()["y"]) for i in range(first.count())}
    assert len(tops) == 1, "a hold's cards are stacked, not on one line"
    _fits(phone, "the keep result")
    phone.goto(server + f"/read?draw=1&hand=AsAhKs7s3s&trials=500&lang={lang}")  # type: ignore[attr-defined]
    phone.locator("#reading").wait_for(timeout=30_000)  # type: ignore[attr-defined]
    _fits(phone, "the read result")
    phone.goto(server + f"/train?lang={lang}")  # type: ignore[attr-defined]
    phone.select_option("#objective", "jacks")  # type: ignore[attr-defined]
    phone.click("#deal")  # type: ignore[attr-defined]
    asked = phone.url  # type: ignore[attr-defined]
    phone.click("#draw")  # type: ignore[attr-defined]   # nothing kept: five cards, more than Mørkpoker's three
    assert phone.locator("#too-few").is_visible() and phone.url == asked  # type: ignore[attr-defined]
    for _ in range(3):
        phone.locator(".dealt label.keepcard").nth(0).click()  # type: ignore[attr-defined]
        phone.locator(".dealt label.keepcard").nth(1).click()  # type: ignore[attr-defined]
        phone.click("#draw")  # type: ignore[attr-defined]
        phone.locator("#grade").wait_for(timeout=30_000)  # type: ignore[attr-defined]
    _fits(phone, "the trainer")


@pytest.mark.parametrize("lang", ["sv", "nb"])
def test_a_phone_walk_in_swedish_and_norwegian(server: str, browser: object, lang: str) -> None:
    context = _phone(browser, lang)
    phone = context.new_page()  # type: ignore[attr-defined]
    try:
        _walk(phone, server, lang)
        assert phone.locator("html").get_attribute("lang") == lang
        phone.goto(server + f"/guide?lang={lang}")
        heading = phone.locator("article.guide h2").first.inner_text()
        written = (REPORTS / lang / "README.md").read_text(encoding="utf-8").splitlines()[0].removeprefix("# ")
        assert heading == written, f"the guide is not in {lang}: {heading}"
        phone.goto(server + f"/keep?hand=AsAhKs7s3s&vs=3&vs=1&opponents=3&trials=2000&lang={lang}")
        error = phone.locator("p.error").inner_text()
        assert "--" not in error and {"sv": "”Deras köp”", "nb": "«Deres bytte»"}[lang] in error
    finally:
        context.close()  # type: ignore[attr-defined]


def test_no_english_word_left_on_any_page(server: str, browser: object) -> None:
    """The pseudo language accents every sentence the catalog knows: a plain English word was never marked."""
    context = _phone(browser, i18n.PSEUDO)
    phone = context.new_page()  # type: ignore[attr-defined]
    lang = i18n.PSEUDO
    try:
        for path in (*PAGES, "/keep?hand=AsAh", "/keep?hand=AsAhKs7s3s&vs=3&vs=1&opponents=3&trials=2000", "/nope"):
            phone.goto(server + path + ("&" if "?" in path else "?") + f"lang={lang}")
            phone.wait_for_load_state("load")
            assert _english(phone) == set(), path
        phone.goto(server + f"/train?lang={lang}")
        phone.select_option("#objective", "jacks")
        phone.click("#deal")
        for _ in range(3):
            dealt = phone.locator(".dealt label.keepcard")
            dealt.nth(0).click()
            dealt.nth(1).click()
            phone.evaluate("document.getElementById('answer').action += '?lang=' + "
                           f"'{lang}'")                      # the pseudo language lives in the address only
            phone.click("#draw")
            phone.locator("#grade").wait_for(timeout=30_000)
            url = phone.url
            phone.goto(url + ("&" if "?" in url else "?") + f"lang={lang}")
            assert _english(phone) == set(), "the trainer"
    finally:
        context.close()  # type: ignore[attr-defined]
