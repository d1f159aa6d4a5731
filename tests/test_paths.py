"""The user's folders: the cache and data folders follow the environment and each platform's convention."""

from __future__ import annotations

from pathlib import Path

import pytest

from drawodds import paths
from drawodds.analyses.solve import cache_directory
from drawodds.trainer.history import HISTORY_FILE, default_history_path

VARS = ("DRAWODDS_CACHE", "XDG_CACHE_HOME", "XDG_DATA_HOME", "LOCALAPPDATA", "APPDATA")


@pytest.fixture
def home(monkeypatch, tmp_path):
    """A clean environment with a home folder of its own."""
    for name in VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("USERPROFILE", str(tmp_path))
    monkeypatch.setattr(Path, "home", classmethod(lambda cls: tmp_path))
    return tmp_path


def test_drawodds_cache_wins_everywhere(home, monkeypatch):
    monkeypatch.setenv("DRAWODDS_CACHE", str(home / "mine"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "xdg"))
    for platform in ("linux", "darwin", "win32"):
        monkeypatch.setattr("sys.platform", platform)
        assert paths.cache_dir() == home / "mine"
    assert cache_directory() == home / "mine"


def test_linux_follows_xdg(home, monkeypatch):
    monkeypatch.setattr("sys.platform", "linux")
    assert paths.cache_dir() == home / ".cache" / "drawodds"
    assert paths.data_dir() == home / ".local" / "share" / "drawodds"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "c"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "d"))
    assert paths.cache_dir() == home / "c" / "drawodds" == cache_directory()
    assert paths.data_dir() == home / "d" / "drawodds"
    assert default_history_path() == home / "d" / "drawodds" / HISTORY_FILE


def test_an_empty_variable_counts_as_unset(home, monkeypatch):
    monkeypatch.setattr("sys.platform", "linux")
    for name in ("DRAWODDS_CACHE", "XDG_CACHE_HOME", "XDG_DATA_HOME"):
        monkeypatch.setenv(name, "")
    assert paths.cache_dir() == home / ".cache" / "drawodds"
    assert paths.data_dir() == home / ".local" / "share" / "drawodds"


def test_macos_uses_library(home, monkeypatch):
    monkeypatch.setattr("sys.platform", "darwin")
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "c"))     # not a macOS convention: ignored
    assert paths.cache_dir() == home / "Library" / "Caches" / "drawodds"
    assert paths.data_dir() == home / "Library" / "Application Support" / "drawodds"


def test_windows_uses_appdata(home, monkeypatch):
    monkeypatch.setattr("sys.platform", "win32")
    assert paths.cache_dir() == home / "AppData" / "Local" / "drawodds"
    assert paths.data_dir() == home / "AppData" / "Roaming" / "drawodds"
    monkeypatch.setenv("LOCALAPPDATA", str(home / "local"))
    monkeypatch.setenv("APPDATA", str(home / "roaming"))
    assert paths.cache_dir() == home / "local" / "drawodds"
    assert paths.data_dir() == home / "roaming" / "drawodds"
    assert default_history_path() == home / "roaming" / "drawodds" / HISTORY_FILE
