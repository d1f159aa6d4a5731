"""Writing figures to files with fixed metadata, so the same figure gives the same bytes."""

from __future__ import annotations

from pathlib import Path

from matplotlib.axis import Axis
from matplotlib.figure import Figure
from matplotlib.ticker import ScalarFormatter

from drawodds import i18n
from drawodds.errors import RequestError
from drawodds.paths import CHART_ENDINGS, write_file

# No software version or creation date in the files: a redrawn chart is byte-identical.
PNG_METADATA: dict[str, str | None] = {"Software": None}
PDF_METADATA: dict[str, str | None] = {"Creator": None, "Producer": None, "CreationDate": None}


def save(fig: Figure, path: str | Path, dpi: int = 120) -> Path:
    """Write ``fig`` as PNG or PDF (by the file's ending) without time or version stamps, safely
    (``drawodds.paths.write_file``: a temporary file renamed into place; never a device or pipe)."""
    out = Path(path)
    if out.suffix.lower() not in CHART_ENDINGS:
        raise RequestError("a chart is written as {endings}, by the file's ending: got {path}",
                           endings=", ".join(CHART_ENDINGS), path=str(path))
    metadata = PDF_METADATA if out.suffix.lower() == ".pdf" else PNG_METADATA
    return write_file(out, lambda tmp: fig.savefig(tmp, dpi=dpi, metadata=metadata))   # tmp keeps the ending




class _LocalTicks(ScalarFormatter):
    """matplotlib's tick labels with the reader's decimal comma (``0,05``)."""

    def __call__(self, x: float, pos: int | None = None) -> str:
        return i18n.local_number(super().__call__(x, pos))


def local_ticks(*axes: Axis) -> None:
    """Tick labels of ``axes`` as the reader's language writes numbers; in English matplotlib's own, untouched."""
    if i18n.language() == i18n.ENGLISH:
        return
    for axis in axes:
        axis.set_major_formatter(_LocalTicks())
