"""Every console example in README.md and docs/ runs and prints the numbers the page shows.

A console example is a fenced block marked ``console``; each line starting with ``$ `` is a
command (``drawodds ...``, optionally preceded by ``NAME=value`` settings) and the lines after it,
up to the next command, are its output. Only the numbers are compared, in order, so a change of
table borders does not fail the test but any changed figure does.

After a deliberate change of figures or layout, rewrite every output in place with::

    python tests/test_docs_examples.py --update
"""

from __future__ import annotations

import os
import re
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
NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
SETTING = re.compile(r"^[A-Z_]+=\S*$")
# Piped output of a wide terminal unless the example asks for another width.
DEFAULT_ENV = {"COLUMNS": "160", "NO_COLOR": "1", "TERM": "dumb"}


@dataclass(frozen=True)
class Example:
    page: Path
    command: str
    output: str

    @property
    def id(self) -> str:
        return f"{self.page.relative_to(ROOT)}: {self.command}"


def pages() -> list[Path]:
    """The README and every page of the manual."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def examples(page: Path) -> list[Example]:
    """The (command, output) pairs of every console block on a page, in order."""
    found = []
    for block in BLOCK.finditer(page.read_text(encoding="utf-8")):
        command, lines = None, []
        for line in block.group(1).splitlines():
            if line.startswith("$ "):
                if command is not None:
                    found.append(Example(page, command, "\n".join(lines)))
                command, lines = line[2:].strip(), []
            else:
                lines.append(line)
        if command is not None:
            found.append(Example(page, command, "\n".join(lines)))
    return found


def run(command: str, workdir: str) -> str:
    """Run one documented command the way a user would, and return what it prints."""
    words = shlex.split(command)
    # The package of this checkout, whatever is installed and wherever the example runs.
    env = {**os.environ, **DEFAULT_ENV,
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")]))}
    while words and SETTING.match(words[0]):
        name, _, value = words.pop(0).partition("=")
        env[name] = value
    assert words and words[0] == "drawodds", f"an example must run drawodds: {command!r}"
    done = subprocess.run([sys.executable, "-m", "drawodds", *words[1:]], capture_output=True,
                          text=True, env=env, cwd=workdir, timeout=120)
    printed = (done.stdout + done.stderr).rstrip("\n")
    return "\n".join(line.rstrip() for line in printed.splitlines())


def numbers(text: str) -> list[str]:
    return NUMBER.findall(text)


ALL = [example for page in pages() for example in examples(page)]


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Every example's output, the commands run side by side on every core (each in its own folder)."""
    folders = [str(tmp_path_factory.mktemp("example")) for _ in ALL]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        outputs = pool.map(run, [e.command for e in ALL], folders)
        return {e.id: out for e, out in zip(ALL, outputs, strict=True)}


@pytest.mark.parametrize("example", ALL, ids=[e.id for e in ALL])
def test_documented_example_prints_the_documented_numbers(example: Example, printed: dict[str, str]) -> None:
    out = printed[example.id]
    assert numbers(out) == numbers(example.output), f"{example.id}\n--- printed:\n{out}"


def update() -> None:
    """Re-run every example and write its output back into its page."""
    for page in pages():
        text = page.read_text(encoding="utf-8")

        def rerun(block: re.Match[str]) -> str:
            out = []
            with tempfile.TemporaryDirectory() as workdir:
                for line in block.group(1).splitlines():
                    if line.startswith("$ "):
                        out += [line, run(line[2:].strip(), workdir)]
            return "```console\n" + "\n".join(out) + "\n```"

        new = BLOCK.sub(rerun, text)
        if new != text:
            page.write_text(new, encoding="utf-8")
            print(f"updated {page.relative_to(ROOT)}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit("usage: python tests/test_docs_examples.py --update")
    update()
