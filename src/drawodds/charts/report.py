"""The player's guide on disk: ``report`` computes the guide and writes reports/ in full.

The folder gets README.md (the guide, ``drawodds.render.report``), a printable cheat sheet per
table size (PNG and PDF, ``drawodds.charts.cheatsheet``), the charts the guide shows and the
standing-pat lesson. Charts carry no time or version stamps, so a second run with the same
version and seed writes the same bytes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from drawodds import i18n
from drawodds.analyses.report import POLICY, READ_RULES, Guide, Report, guide, lists_fingerprint
from drawodds.charts.cheatsheet import write_cheatsheet
from drawodds.charts.openers import draw_passouts, draw_pot_at_opening
from drawodds.charts.points import plot_last_trick_vs_pair
from drawodds.charts.reading import draw_read_draws, read_subtitle
from drawodds.charts.strategy import plot_dilemmas, plot_hold_heatmap
from drawodds.errors import RequestError
from drawodds.execution import Runner, Stage
from drawodds.i18n import _
from drawodds.paths import write_text
from drawodds.render.report import (
    DILEMMAS,
    GUIDE,
    HEATMAP,
    LAST_TRICK,
    PASSOUTS,
    POT_AT_OPENING,
    POT_SIZES,
    READ_DRAWS,
    STANDING_PAT,
    cheatsheet_footer,
    guide_files,
    guide_markdown,
)
from drawodds.rules import preset


def _quiet(stage: str, done: float) -> None:
    return None


def _draw(fn: Callable[..., Path | list[Path]], args: tuple[Any, ...], lang: str = i18n.ENGLISH) -> list[Path]:
    """One drawing job (for the worker pool), its words in ``lang``: the files it wrote."""
    with i18n.use(lang):
        out = fn(*args)
    return out if isinstance(out, list) else [out]


def _last_trick(data: Guide, path: Path) -> Path:
    frame = pd.DataFrame(list(data.points.ace_vs_pair))
    frame["players"] = frame["players"].astype(int)
    frame.attrs.update(rules="poengpoker", trials=data.points.ace_trials, seed=data.seed, policy=POLICY,
                       trick="sensible")
    return plot_last_trick_vs_pair(frame, path)


def _heatmap(data: Guide, path: Path) -> Path:
    plot_hold_heatmap(data.keep.grid, path, POLICY)
    return path


def _dilemmas(data: Guide, path: Path) -> Path:
    opponents = data.keep.dilemmas[0].opponents if data.keep.dilemmas else ()
    plot_dilemmas(list(data.keep.dilemmas), opponents, path, POLICY, simulated=True)
    return path


def write_guide(data: Guide, out_dir: str | Path, *, workers: int | None = None,
                progress: Stage = _quiet) -> list[str]:
    """Write the guide's files into ``out_dir`` (created if need be); returns their names, sorted.

    The drawings are made side by side on ``workers`` processes (default: every core)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    names = guide_files(data)
    # listed before any is written: a run stopped while writing can be run again over its own files
    write_text(out / MANIFEST, "".join(f"{n}\n" for n in sorted(set(names) | {LISTS} | _manifest(out))))
    rules = preset(READ_RULES)
    subtitle = read_subtitle(POLICY, rules, data.budget.read_trials, data.seed)
    jobs: list[tuple[Callable[..., Path | list[Path]], tuple[Any, ...]]] = [
        (write_cheatsheet, (s.plan, s.title, s.against_words, cheatsheet_footer(s, data), out / s.key))
        for s in data.keep.sheets]
    jobs += [
        (_heatmap, (data, out / HEATMAP)),
        (_dilemmas, (data, out / DILEMMAS)),
        (draw_read_draws, (list(data.reading.plain), out / READ_DRAWS, subtitle)),
        (draw_passouts, (list(data.openers.passouts.rows), out / PASSOUTS)),
        (draw_pot_at_opening, ([r for r in data.openers.passouts.rows if r.n in POT_SIZES], out / POT_AT_OPENING,
                               data.openers.passouts.ante)),
        (_last_trick, (data, out / LAST_TRICK)),
    ]
    with Runner(workers) as runner:
        lang = i18n.language()
        batch = runner.map(_draw, [(fn, args, lang) for fn, args in jobs],
                           progress=lambda k: progress(_("drawing: {done} of {pictures} pictures done").format(
                               done=k, pictures=len(jobs)), 0.88 + 0.12 * k / len(jobs)))
    if batch.interrupted:
        raise KeyboardInterrupt
    written = [path for paths in batch.results for path in paths]
    write_text(out / STANDING_PAT, data.pat.to_markdown())
    assert sorted({p.name for p in written} | {STANDING_PAT, GUIDE}) == names, "a drawing the guide does not list"
    write_text(out / GUIDE, guide_markdown(data, names))
    write_text(out / LISTS, lists_fingerprint() + "\n")
    return names


MANIFEST = ".drawodds-guide"     # the names of the files the guide wrote into its folder, one a line
LISTS = ".drawodds-lists"        # the fingerprint of the code that made the guide's lists (``lists_fingerprint``)
_FIXED = (GUIDE, STANDING_PAT, HEATMAP, DILEMMAS, READ_DRAWS, PASSOUTS, POT_AT_OPENING, LAST_TRICK)


def _manifest(out: Path) -> set[str]:
    path = out / MANIFEST
    return set(path.read_text(encoding="utf-8").split()) if path.is_file() and not path.is_symlink() else set()


def check_guide_folder(out_dir: str | Path, *, force: bool = False) -> None:
    """Refuse, before any work, a folder where the guide would replace a file it did not write
    (a README.md of the user's, a symlink) unless ``force``; the guide's earlier files (listed in
    the folder's manifest) are replaced freely. A symlink is refused without ``force`` (it leads out
    of the folder); with it, the file it points to is written, as every output file is (``write_file``)."""
    out = Path(out_dir)
    if force or not out.is_dir():
        return
    ours = _manifest(out)
    mine = [p for p in out.iterdir() if p.name in _FIXED or p.name.startswith("cheatsheet_")]
    theirs = sorted(p.name for p in mine if p.name not in ours or p.is_symlink())
    if theirs:
        if len(theirs) > 1:
            raise RequestError("{file} and {more} more in {out} would be replaced and were not written by drawodds "
                               "report: choose another folder, or add {force}", "force", file=theirs[0],
                               more=len(theirs) - 1, out=out)
        raise RequestError("{file} in {out} would be replaced and were not written by drawodds report: choose "
                           "another folder, or add {force}", "force", file=theirs[0], out=out)


def report(out_dir: str | Path = "reports", *, quick: bool = False, seed: int = 1, workers: int | None = None,
           scale: float = 1.0, progress: Stage = _quiet, force: bool = False) -> Report:
    """Compute the player's guide (``drawodds.analyses.report.guide``) and write it into ``out_dir``.

    The full guide takes a few minutes; ``quick`` a fraction of that, with larger standard errors.
    Files in ``out_dir`` that an earlier guide did not write are not replaced unless ``force``
    (``check_guide_folder``, before any work)."""
    check_guide_folder(out_dir, force=force)
    start = time.perf_counter()
    data = guide(quick=quick, seed=seed, workers=workers, scale=scale,
                 progress=lambda stage, f: progress(stage, 0.88 * f))
    names = write_guide(data, out_dir, workers=workers, progress=progress)
    progress(_("done"), 1.0)
    return Report(str(out_dir), tuple(names), data.sections, quick, seed, time.perf_counter() - start)
