import pytest

from drawodds.charts import TOPICS, regenerate


def test_regenerate_writes_readable_pngs(tmp_path):
    paths = regenerate(tmp_path, ["reading", "openers"])
    assert [p.name for p in paths] == ["read_draws.png", "passout_by_table_size.png", "pot_at_opening.png"]
    for p in paths:
        data = p.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000


def test_unknown_topic():
    assert "strategy" in TOPICS
    with pytest.raises(ValueError, match="unknown chart topic 'pie'"):
        regenerate("unused", ["pie"])
