"""Spreading the heavy passes of an abstraction build over processes or a Dask cluster, bit for bit."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from drawodds.errors import RequestError
from drawodds.execution import LOCAL_DASK, Runner

Shelved = npt.NDArray | str             # an array a chunk reads: itself, or the .npy file that holds it


class Spread:
    """Where the heavy passes of one abstraction build run, and the arrays their chunks read.

    The chunks are fixed (blocks of deal classes or hands, slabs of buckets, draw patterns) and
    their results are combined in chunk order with the same arithmetic as in one process, so the
    abstraction is the same, bit for bit, on one process, any number of workers or a Dask
    cluster. When chunks run elsewhere, the large arrays they read are .npy files in a temporary
    folder that each chunk opens memory-mapped (one copy in the page cache, nothing large sent
    per call); the workers of a remote Dask cluster must see that folder (set TMPDIR to a folder
    they share at the same path).
    """

    def __init__(self, runner: Runner | None = None) -> None:
        self.runner = runner if runner is not None else Runner(1)
        self.folder: Path | None = None
        self._count = 0
        if self.runner.spreads(2):
            self.folder = Path(tempfile.mkdtemp(prefix="drawodds-build-"))
            if self.runner.scheduler not in (None, LOCAL_DASK):
                self._check_workers_see_folder()

    def _check_workers_see_folder(self) -> None:
        assert self.folder is not None
        probe = self.put(np.zeros(1))
        if not self.map(_readable, [(probe,)])[0]:
            folder = self.folder
            self.close()
            raise RequestError("the Dask workers cannot read {folder}: set TMPDIR to a folder they share with this "
                               "machine", folder=folder)

    def __enter__(self) -> Spread:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Delete the temporary folder (memory maps still open stay valid until dropped)."""
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None

    def put(self, array: npt.NDArray) -> Shelved:
        """What a chunk needs to read ``array``: the array itself when chunks run here, else the
        file it is written to (once)."""
        if self.folder is None:
            return array
        self._count += 1
        path = self.folder / f"{self._count}.npy"
        np.save(path, array)
        return str(path)

    def map(self, fn: Callable[..., object], calls: Sequence[tuple[object, ...]],
            progress: Callable[[int], None] | None = None, each: Callable[[int, Any], None] | None = None
            ) -> list:
        """``[fn(*args) for args in calls]`` on the runner, in call order; ``each(i, result)`` as
        each one is in, in call order, while later ones still run (Ctrl-C stops the build)."""
        batch = self.runner.map(fn, calls, progress, each)
        if batch.interrupted:
            raise KeyboardInterrupt
        return batch.results


def _open(array: Shelved) -> npt.NDArray:
    """The array behind a ``Spread.put``: itself, or its file memory-mapped read-only."""
    return np.load(array, mmap_mode="r") if isinstance(array, str) else array


def _readable(array: Shelved) -> bool:
    """Whether the worker running this sees the file behind ``array`` (the probe of a remote cluster)."""
    return not isinstance(array, str) or os.path.exists(array)
