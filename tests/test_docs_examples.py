"""Every example in README.md and docs/ runs and prints the numbers the page shows.

A console example is a fenced block marked ``console``; each line starting with ``$ `` is a
command (``drawodds ...``, optionally preceded by ``NAME=value`` settings) and the lines after it,
up to the next command, are its output. Only the numbers are compared, in order, so a change of
table borders does not fail the test but any changed figure does.

A ``json`` or ``text`` block is an example when the line above it is a comment naming its
command, ``<!-- $ drawodds ... -->`` (invisible on the page, whose prose says what ran):

* ``json``: the printed JSON is parsed and compared with the block. ``...`` marks what the page
  leaves out (more items of a list, more fields of an object); every field shown must be printed,
  strings and flags equal, and every number equal to the digits shown (0.529 stands for anything
  that rounds to it). ``<!-- $ drawodds ... --json | holds[0] -->`` compares one part.
* ``text``: the numbers are compared as in a console block; a block with a line ``...`` is an
  excerpt, whose other lines must appear in the output in order.

A command that runs longer than the suite can afford is marked ``<!-- $ drawodds ... (slow) -->``
(or a console block's ``$ drawodds ...  # slow``): it is checked only with
``DRAWODDS_SLOW_DOCS=1``, and always by ``--update``.

After a deliberate change of figures or layout, rewrite every console output in place (or only
those of the pages named) with::

    python tests/test_docs_examples.py --update [docs/commands/keep.md ...]

(``json`` and ``text`` examples are edited by hand: the page shows a shortened part.)
"""

from __future__ import annotations

import json
import math
import os
import queue
import re
import select
import shlex
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BLOCK = re.compile(r"^```console\n(.*?)^```", re.S | re.M)
MARKED = re.compile(r"^<!-- \$ (.+?) -->\n```(json|text)[^\n]*\n(.*?)^```", re.S | re.M)
SLOW = re.compile(r"\s+(?:# slow|\(slow\))$")
PART = re.compile(r"^(.*\S)\s+\|\s+([\w\[\]\.]+)$")
SLOW_DOCS = bool(os.environ.get("DRAWODDS_SLOW_DOCS"))
NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
SETTING = re.compile(r"^[A-Z_]+=\S*$")
# Piped output of a wide terminal unless the example asks for another width.
DEFAULT_ENV = {"COLUMNS": "160", "NO_COLOR": "1", "TERM": "dumb"}


@dataclass(frozen=True)
class Example:
    page: Path
    command: str
    output: str
    kind: str = "console"     # console, json or text
    part: str = ""            # json: the part of the output the block shows, e.g. holds[0]
    slow: bool = False

    @property
    def id(self) -> str:
        return f"{self.page.relative_to(ROOT)}: {self.command}{' | ' + self.part if self.part else ''}"


def pages() -> list[Path]:
    """The README and every page of the manual."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _example(page: Path, command: str, output: str, kind: str = "console") -> Example:
    slow = bool(SLOW.search(command))
    command = SLOW.sub("", command)
    part = ""
    if kind == "json" and (m := PART.match(command)):
        command, part = m.group(1), m.group(2)
    return Example(page, command, output, kind, part, slow)


def examples(page: Path) -> list[Example]:
    """Every example of a page: the (command, output) pairs of its console blocks, then its
    marked json and text blocks."""
    found = []
    text = page.read_text(encoding="utf-8")
    for block in BLOCK.finditer(text):
        command, lines = None, []
        for line in block.group(1).splitlines():
            if line.startswith("$ "):
                if command is not None:
                    found.append(_example(page, command, "\n".join(lines)))
                command, lines = line[2:].strip(), []
            else:
                lines.append(line)
        if command is not None:
            found.append(_example(page, command, "\n".join(lines)))
    for block in MARKED.finditer(text):
        found.append(_example(page, block.group(1).strip(), block.group(3).rstrip("\n"), block.group(2)))
    return found


def _split(command: str) -> tuple[dict[str, str], list[str]]:
    """A documented command's ``NAME=value`` settings and its arguments after ``drawodds``."""
    words = shlex.split(command)
    settings = {}
    while words and SETTING.match(words[0]):
        name, _, value = words.pop(0).partition("=")
        settings[name] = value
    assert words and words[0] == "drawodds", f"an example must run drawodds: {command!r}"
    return settings, words[1:]


def _environment() -> dict[str, str]:
    """The environment every example runs in: the package of this checkout (whatever is installed
    and wherever the example runs), piped to a wide terminal."""
    return {**os.environ, **DEFAULT_ENV,
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")]))}


def _drawodds(command: str, workdir: str, timeout: float) -> subprocess.CompletedProcess[str]:
    """Run one documented command (``NAME=value`` settings first) the way a user would."""
    settings, args = _split(command)
    return subprocess.run([sys.executable, "-m", "drawodds", *args], capture_output=True,
                          text=True, env={**_environment(), **settings}, cwd=workdir, timeout=timeout)


# A command that asks nothing of its process (no settings, no help or version, which read the
# terminal and the start-up) prints the same bytes and exits with the same code when a process
# that already loaded the package runs it: the command line reads its environment and folder
# when it runs, and its caches hold pure tables. Such commands run one after another in a few
# long-lived processes, each command with its own standard output and error (file descriptors 1
# and 2, as a process of its own has) and its own folder.
RUNNER = """
import json, os, sys, tempfile, warnings
from drawodds.cli import run
requests = os.fdopen(os.dup(0), encoding="utf-8")
reply = os.fdopen(os.dup(1), "w", encoding="utf-8")
os.dup2(os.open(os.devnull, os.O_RDONLY), 0)       # a command reads no standard input
filters = warnings.filters[:]
for request in requests:
    args, workdir = json.loads(request)
    os.chdir(workdir)
    warnings.filters[:] = filters                      # a warning shows again, as in a new process
    warnings.onceregistry.clear()
    warnings._filters_mutated()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        os.dup2(out.fileno(), 1)
        os.dup2(err.fileno(), 2)
        try:
            code = run(args)
        except SystemExit as exc:
            code = exc.code
        sys.stdout.flush()
        sys.stderr.flush()
        printed = []
        for f in (out, err):
            f.seek(0)
            printed.append(f.read().decode(sys.stdout.encoding))
    reply.write(json.dumps([code, *printed]) + "\\n")
    reply.flush()
"""


def in_process(command: str) -> bool:
    """Whether a command may run in a process that ran others before (see ``RUNNER``)."""
    settings, args = _split(command)
    return bool(args) and not settings and not {"--help", "-h", "--version"} & set(args)


class Runner:
    """One long-lived process running documented commands one after another (see ``RUNNER``)."""

    def __init__(self) -> None:
        self.process = subprocess.Popen([sys.executable, "-c", RUNNER], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, encoding="utf-8",
                                        env=_environment())

    def __call__(self, command: str, workdir: str, timeout: float) -> subprocess.CompletedProcess[str]:
        if not in_process(command):
            return _drawodds(command, workdir, timeout)
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(json.dumps([_split(command)[1], workdir]) + "\n")
        self.process.stdin.flush()
        if not select.select([self.process.stdout], [], [], timeout)[0]:     # one reply line per command
            self.process.kill()
            raise subprocess.TimeoutExpired(command, timeout)
        reply = self.process.stdout.readline()
        assert reply, f"the runner stopped at {command!r}"
        code, *printed = json.loads(reply)
        out, err = (text.replace("\r\n", "\n").replace("\r", "\n") for text in printed)   # as text=True reads a pipe
        return subprocess.CompletedProcess(command, code, out, err)

    def close(self) -> None:
        assert self.process.stdin
        self.process.stdin.close()
        self.process.wait(timeout=60)


# A line a long command prints every few seconds in a pipe: how many there are depends on the machine.
PROGRESS = re.compile(r"drawodds: .* \([\d,]+ s so far\)")


def run(command: str, workdir: str, execute=_drawodds) -> str:
    """Run one documented command the way a user would, and return what it prints (without the
    progress lines a slow machine adds)."""
    done = execute(command, workdir, 120)
    printed = (done.stdout + "".join(line for line in done.stderr.splitlines(keepends=True)
                                     if not PROGRESS.fullmatch(line.rstrip("\n")))).rstrip("\n")
    return "\n".join(line.rstrip() for line in printed.splitlines())


def numbers(text: str) -> list[str]:
    return NUMBER.findall(text)


# --- json examples ------------------------------------------------------------------------------

MORE = "\x00more"   # where a page's JSON says "..."
TIMES = {"seconds", "abstraction_seconds", "peak_memory_mb"}


class Shown(float):
    """A number as the page writes it: its value and how many decimals it shows."""

    decimals: int

    @classmethod
    def of(cls, text: str) -> Shown:
        out = cls(text)
        mantissa, _, exponent = text.lower().partition("e")
        places = len(mantissa.partition(".")[2])
        out.decimals = places - int(exponent or 0)
        return out


def page_json(text: str) -> object:
    """A page's JSON with ``...`` for what it leaves out, parsed (numbers as ``Shown``)."""
    out, stack, quoted, escaped, i = [], [], False, False, 0
    while i < len(text):
        ch = text[i]
        if quoted:
            escaped = ch == "\\" and not escaped
            quoted = ch != '"' or escaped
            out.append(ch)
        elif text.startswith("...", i):
            out.append(json.dumps(MORE) + (": null" if stack and stack[-1] == "{" else ""))
            i += 3
            continue
        else:
            quoted = ch == '"'
            if ch in "[{":
                stack.append(ch)
            elif ch in "]}":
                stack.pop()
            out.append(ch)
        i += 1
    return json.loads("".join(out), parse_float=Shown.of, parse_int=Shown.of)


def json_part(value: object, path: str) -> object:
    """``holds[0].keep`` of a parsed JSON value."""
    for name, index in re.findall(r"(\w+)|\[(\d+)\]", path):
        value = value[name] if name else value[int(index)]   # type: ignore[index]
    return value


def json_differences(shown: object, printed: object, where: str = "") -> list[str]:
    """Where the printed JSON disagrees with what the page shows (nothing: they agree)."""
    at = where or "the top"
    if isinstance(shown, Shown):
        if isinstance(printed, bool) or not isinstance(printed, int | float):
            return [f"{at}: the page shows {shown}, printed {printed!r}"]
        if shown.decimals <= 0 and float(shown).is_integer():
            ok = float(printed) == float(shown)
        else:
            ok = math.isclose(round(float(printed), shown.decimals), float(shown), rel_tol=1e-12, abs_tol=1e-15)
        return [] if ok else [f"{at}: the page shows {shown}, printed {printed!r}"]
    if isinstance(shown, dict):
        if not isinstance(printed, dict):
            return [f"{at}: the page shows an object, printed {printed!r}"]
        missing = [k for k in shown if k != MORE and k not in printed]
        found = [f"{at}: {k!r} is not printed" for k in missing]
        for k, v in shown.items():
            if k in TIMES and isinstance(printed.get(k), int | float):
                continue     # how long a run took, or its memory: a fact of the machine, not of the answer
            if k != MORE and k in printed:
                found += json_differences(v, printed[k], f"{where}.{k}" if where else k)
        return found
    if isinstance(shown, list):
        if not isinstance(printed, list):
            return [f"{at}: the page shows a list, printed {printed!r}"]
        cut = MORE in shown
        head = shown[:shown.index(MORE)] if cut else shown
        tail = shown[shown.index(MORE) + 1:] if cut else []
        if len(printed) < len(head) + len(tail) or (not cut and len(printed) != len(head)):
            return [f"{at}: the page shows {len(head) + len(tail)} items{' and more' if cut else ''}, "
                    f"printed {len(printed)}"]
        pairs = [*enumerate(head), *((len(printed) - len(tail) + k, v) for k, v in enumerate(tail))]
        return [d for k, v in pairs for d in json_differences(v, printed[k], f"{where}[{k}]")]
    return [] if shown == printed else [f"{at}: the page shows {shown!r}, printed {printed!r}"]


TIMED = re.compile(r"^\s*(time|peak memory)\b")   # how long a run took: a fact of the machine


def text_differences(shown: str, printed: str) -> list[str]:
    """A text example: its numbers in order, or, for an excerpt (a line ``...``), its lines in order.
    A line ``$ command`` of the page (what was typed) and the lines that time the run are left out."""
    lines = [line.rstrip() for line in shown.splitlines() if not line.startswith("$ ")]
    if not any(line.strip() == "..." for line in lines):
        def timeless(text: str) -> list[str]:
            return numbers("\n".join(line for line in text.splitlines() if not TIMED.match(line)))

        return [] if timeless(printed) == timeless("\n".join(lines)) else ["the numbers differ"]
    out = iter(line.rstrip() for line in printed.splitlines())
    missing = [line for line in lines if line.strip() not in ("", "...") and line not in out]
    return [f"not printed (in this order): {line!r}" for line in missing[:3]]


def differences(example: Example, printed: str) -> list[str]:
    """Where a run disagrees with its example (nothing: they agree)."""
    if example.kind == "json":
        value = json.loads(printed)
        return json_differences(page_json(example.output), json_part(value, example.part) if example.part else value)
    if example.kind == "text":
        return text_differences(example.output, printed)
    return [] if numbers(printed) == numbers(example.output) else ["the numbers differ"]


def stdout_of(command: str, workdir: str, execute=_drawodds) -> str:
    """What a JSON example prints on standard output alone."""
    done = execute(command, workdir, 600)
    assert done.returncode == 0, done.stderr
    return done.stdout


CAT = re.compile(r"^(.*\S)\s*;\s*cat\s+(\S+)$")   # "drawodds ... --history deals.txt; cat deals.txt"


def runs(example: Example, workdir: str, execute=_drawodds) -> str:
    """An example's output: standard output for JSON, what a terminal shows otherwise, or the file
    it wrote (``...; cat FILE``). The files of docs/examples are at hand in the folder it runs in."""
    for source in (ROOT / "docs" / "examples").glob("*"):
        if source.is_file():
            (Path(workdir) / source.name).write_bytes(source.read_bytes())
    if example.kind == "json":
        return stdout_of(example.command, workdir, execute)
    if m := CAT.match(example.command):
        run(m.group(1), workdir, execute)
        return (Path(workdir) / m.group(2)).read_text(encoding="utf-8")
    return run(example.command, workdir, execute)


ALL = [example for page in pages() for example in examples(page)]
RUN = [e for e in ALL if SLOW_DOCS or not e.slow]


@pytest.fixture(scope="module")
def printed(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The output of every example selected (``-k``), the commands run side by side on every core
    (each in its own folder): a runner per core takes the next command (see ``RUNNER``)."""
    chosen = {getattr(item, "callspec", None) and item.callspec.params.get("example") for item in request.session.items}
    todo = [e for e in RUN if e in chosen]
    folders = [str(tmp_path_factory.mktemp("example")) for _ in todo]
    runners = queue.SimpleQueue[Runner]()
    cores = min(os.cpu_count() or 1, max(1, len(todo)))
    started = [Runner() for _ in range(cores)]
    for runner in started:
        runners.put(runner)

    def one(example: Example, folder: str) -> str:
        runner = runners.get()
        try:
            return runs(example, folder, runner)
        finally:
            runners.put(runner)

    try:
        with ThreadPoolExecutor(max_workers=cores) as pool:
            outputs = list(pool.map(one, todo, folders))
    finally:
        for runner in started:
            runner.close()
    return {e.id: out for e, out in zip(todo, outputs, strict=True)}


@pytest.mark.parametrize("example", ALL, ids=[e.id for e in ALL])
def test_documented_example_prints_the_documented_numbers(example: Example, printed: dict[str, str]) -> None:
    if example.id not in printed:
        pytest.skip("a slow example: DRAWODDS_SLOW_DOCS=1 runs it")
    out = printed[example.id]
    found = differences(example, out)
    assert not found, f"{example.id}\n" + "\n".join(found) + f"\n--- printed:\n{out[:4000]}"


def test_every_json_and_text_example_with_numbers_names_its_command() -> None:
    """A json or text block with figures on a page is an example: it says which command printed it."""
    unnamed = []
    for page in pages():
        text = page.read_text(encoding="utf-8")
        named = {m.start(2) - 3 for m in MARKED.finditer(text)}
        for m in re.finditer(r"^```(json|text)[^\n]*\n(.*?)^```", text, re.S | re.M):
            if m.start() not in named and numbers(m.group(2)) and not re.search(r"[=Σ]", m.group(2)):
                unnamed.append(f"{page.relative_to(ROOT)}: {m.group(2).splitlines()[0][:60]}")
    assert not unnamed, "json/text blocks with numbers and no <!-- $ command -->:\n" + "\n".join(unnamed)


def test_page_json_reads_what_a_page_leaves_out() -> None:
    shown = page_json('{"a": 0.529, "b": [1, 2, ...], "c": {"d": "x", ...}}')
    assert json_differences(shown, {"a": 0.52911, "b": [1, 2, 3], "c": {"d": "x", "e": 1}, "f": 0}) == []
    assert json_differences(shown, {"a": 0.53035, "b": [1, 2], "c": {"d": "x"}})[0].startswith("a: the page")
    assert json_differences(page_json("[1, 2]"), [1, 2, 3]) != []
    assert json_differences(page_json('{"n": 100000}'), {"n": 100001}) != []


def update(only: list[str] | None = None) -> None:
    """Re-run every console example (of the pages named, or all) and write its output back into its page."""
    for page in pages():
        if only and not any(page.samefile(name) for name in only):
            continue
        text = page.read_text(encoding="utf-8")

        def rerun(block: re.Match[str]) -> str:
            out = []
            with tempfile.TemporaryDirectory() as workdir:
                for line in block.group(1).splitlines():
                    if line.startswith("$ "):
                        out += [line, run(SLOW.sub("", line[2:].strip()), workdir)]
            return "```console\n" + "\n".join(out) + "\n```"

        new = BLOCK.sub(rerun, text)
        if new != text:
            page.write_text(new, encoding="utf-8")
            print(f"updated {page.relative_to(ROOT)}")


if __name__ == "__main__":
    if sys.argv[1:2] != ["--update"]:
        sys.exit("usage: python tests/test_docs_examples.py --update [PAGE ...]")
    update(sys.argv[2:])
