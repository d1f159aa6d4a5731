"""`drawodds report`: the guide writes every file it promises, links only to files it wrote, and
the same seed writes the same bytes.

One small run is shared by the tests: the command itself (`--quick`, with the quick sizes cut
down further so the suite stays fast), and the guide computed a second time, in another process,
with the same sizes for the byte-for-byte comparison. (Charts carry no time stamps: a redrawn chart has the same
bytes, checked by hand across processes; too slow to draw everything twice here.)
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from drawodds.analyses import report as guide_module
from drawodds.cli import main

SCALE = 0.02        # of the quick run's sizes
# Smaller still where the tests look at files, links and bytes, not figures: the strategy lists
# come from 0.5% of the deal classes, and card removal simulates 100 deals per close class.
SIZES = {"classes": 0.005, "removal_trials": 100, "dilemma_trials": 200}


SECOND_RUN = f"""
import dataclasses, sys
from drawodds.analyses import report
from drawodds.analyses.report import QUICK, guide
from drawodds.render.report import guide_files, guide_markdown
report.QUICK = dataclasses.replace(QUICK.scaled({SCALE}), **{SIZES!r})
data = guide(quick=True, workers=1)
sys.stdout.buffer.write(guide_markdown(data, guide_files(data)).encode())
"""


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict, str]:
    """The command's folder and --json output, and the guide's Markdown computed again in another
    process (side by side, on the second core)."""
    again = subprocess.Popen([sys.executable, "-c", SECOND_RUN], stdout=subprocess.PIPE)
    out, folder = io.StringIO(), tmp_path_factory.mktemp("guide")
    with pytest.MonkeyPatch.context() as mp, contextlib.redirect_stdout(out):
        mp.setattr(guide_module, "QUICK", dataclasses.replace(guide_module.QUICK.scaled(SCALE), **SIZES))
        with pytest.raises(SystemExit) as exc:
            main(["report", "--quick", "--out", str(folder), "--json", "--workers", "1"])
    markdown, _ = again.communicate(timeout=600)
    assert exc.value.code == 0 and again.returncode == 0
    return folder, json.loads(out.getvalue()), markdown.decode()


def test_the_command_writes_every_file_it_lists(runs) -> None:
    a, listed, _ = runs
    names = sorted(p.name for p in a.iterdir() if not p.name.startswith("."))   # the hidden manifest aside
    assert listed["files"] == names and listed["quick"] is True and listed["seed"] == 1
    assert listed["sections"] == ["keep", "reading", "openers", "pat", "points"]
    assert "README.md" in names and "standing_pat.md" in names
    sheets = [n for n in names if n.startswith("cheatsheet_")]
    assert len(sheets) == 2 * 6           # 2 to 6 players of Mørkpoker and Jacks or Better, PNG and PDF
    for name in names:
        data = a.joinpath(name).read_bytes()
        assert data, name
        if name.endswith(".png"):
            assert data.startswith(b"\x89PNG")
        if name.endswith(".pdf"):
            assert data.startswith(b"%PDF") and len(re.findall(rb"/Type\s*/Page[^s]", data)) == 1   # one page


def test_every_link_of_the_guide_is_a_file_of_the_folder(runs) -> None:
    a, _, _ = runs
    text = a.joinpath("README.md").read_text(encoding="utf-8")
    targets = set(re.findall(r"\]\(([^)#\s]+)\)", text))
    assert {"strategy_heatmap.png", "read_draws.png", "passout_by_table_size.png", "last_trick_vs_pair.png",
            "cheatsheet_morkpoker_4_players.pdf", "standing_pat.md"} <= targets
    missing = [t for t in targets if not a.joinpath(t).is_file()]
    assert not missing
    # Every file is linked from the guide, and the guide names no time, host or worker count.
    assert {p.name for p in a.iterdir()} - {"README.md", ".drawodds-guide", ".drawodds-lists"} <= targets
    host = os.uname().nodename
    assert "seconds" not in text and "workers" not in text and (len(host) < 8 or host not in text)
    headings = re.findall(r"^## (.+)$", text, flags=re.MULTILINE)
    assert headings[:5] == ["1. What to keep", "2. Reading draw counts",
                            "3. Jacks or Better: pass-outs and pot growth", "4. Standing pat",
                            "5. Poengpoker and Chicago: what to keep"]


def test_the_same_seed_writes_the_same_markdown(runs) -> None:
    a, _, again = runs
    assert a.joinpath("README.md").read_text(encoding="utf-8") == again


def test_a_bad_option_is_refused_before_any_work(capsys, tmp_path) -> None:
    for args, fragment in ((["--seed", "-1"], "--seed"), (["--workers", "0"], "--workers")):
        with pytest.raises(SystemExit) as exc:
            main(["report", "--out", str(tmp_path / "x"), *args])
        err = capsys.readouterr().err
        assert exc.value.code == 2 and fragment in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists() or not any((tmp_path / "x").iterdir())


def test_the_folder_lists_what_the_guide_wrote_so_a_second_run_may_replace_it(runs) -> None:
    from drawodds.analyses.report import lists_fingerprint
    from drawodds.charts.report import LISTS, MANIFEST, check_guide_folder

    folder, data, _ = runs
    assert set((folder / MANIFEST).read_text().split()) == set(data["files"]) | {LISTS}
    assert (folder / LISTS).read_text().strip() == lists_fingerprint()
    check_guide_folder(folder)        # no objection: every file there is the guide's own
