"""The language machinery: which language is chosen, catalogs, plural forms and numbers."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from drawodds import i18n
from drawodds.errors import DrawoddsError, choose_language

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "catalog.py"


@pytest.mark.parametrize(("option", "environ", "expected"), [
    (None, {}, "en"),
    (None, {"LANG": "sv_SE.UTF-8"}, "sv"),
    (None, {"LANG": "nb_NO.UTF-8"}, "nb"),
    (None, {"LANG": "no_NO"}, "nb"),
    (None, {"LANG": "de_DE.UTF-8"}, "en"),
    (None, {"LANG": "C"}, "en"),
    (None, {"LANG": "en_US.UTF-8", "LC_ALL": "sv_FI.UTF-8"}, "sv"),
    (None, {"LANGUAGE": "nb:sv", "LANG": "sv_SE.UTF-8"}, "nb"),
    (None, {"DRAWODDS_LANG": "nb", "LANG": "sv_SE.UTF-8"}, "nb"),
    ("sv", {"DRAWODDS_LANG": "nb", "LANG": "en_GB.UTF-8"}, "sv"),
])
def test_the_option_then_the_environment_then_the_locale_choose(option, environ, expected):
    assert choose_language(option, environ) == expected


def test_a_language_drawodds_does_not_speak_is_refused_in_one_line():
    with pytest.raises(DrawoddsError) as caught:
        choose_language("de", {})
    assert caught.value.parameter == "lang"
    assert caught.value.worded({"lang": "--lang"}) == "--lang must be one of en, sv, nb, got 'de'"
    with pytest.raises(DrawoddsError, match="DRAWODDS_LANG must be one of"):
        choose_language(None, {"DRAWODDS_LANG": "sv_SE"})


def test_use_sets_the_language_for_a_block_only():
    assert i18n.language() == "en"
    with i18n.use("nb"):
        assert i18n.language() == "nb"
        with i18n.use("sv"):
            assert i18n.language() == "sv"
        assert i18n.language() == "nb"
    assert i18n.language() == "en"


def test_numbers_are_written_as_each_language_writes_them():
    assert i18n.percent(0.5291) == "52.9%"
    assert i18n.number(-1234.5, 1, grouped=True) == "-1,234.5"
    with i18n.use("sv"):
        assert i18n.percent(0.5291) == "52,9\u00a0%"
        assert i18n.number(-1234.5, 1, grouped=True) == "\u22121\u00a0234,5"
        assert i18n.number(0.25, 2, signed=True) == "+0,25"
        # Only numbers change: ranges of words and counts keep their hyphens.
        assert i18n.local_number("0.123 ± 0.004 over 2-7 players") == "0,123 ± 0,004 over 2-7 players"


def test_english_errors_are_worded_from_their_template_in_the_current_language():
    error = DrawoddsError("{lang} must be one of {choices}, got {value}", "lang", choices="en, sv, nb", value="'de'")
    with i18n.use("sv"):
        swedish = error.worded({"lang": "--lang"})
    assert swedish.startswith("--lang ") and "en, sv, nb" in swedish and "'de'" in swedish
    assert swedish != error.worded({"lang": "--lang"})


def test_plural_forms_follow_the_count():
    expected = {"sv": ("{n} motståndare", "{n} motståndare"), "nb": ("{n} motstander", "{n} motstandere")}
    for lang, (singular, plural) in expected.items():
        with i18n.use(lang):
            assert i18n.ngettext("{n} opponent", "{n} opponents", 1) == singular
            assert i18n.ngettext("{n} opponent", "{n} opponents", 3) == plural


def test_the_pseudo_language_accents_letters_but_keeps_placeholders_and_markup():
    assert i18n.pseudo("Keep {cards}, draw [bold]{n}[/bold]") == "Ķééƥ {cards}, ďŕàŵ [bold]{n}[/bold]"
    with i18n.use(i18n.PSEUDO):
        assert i18n.gettext("Stand pat") == "Šţàñď ƥàţ"


def test_the_catalogs_translate_every_marked_sentence_with_nothing_fuzzy_or_stale():
    spec = importlib.util.spec_from_file_location("catalog_script", SCRIPT)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    problems = list(script.problems())
    assert not problems, "\n".join(problems[:40]) + f"\n({len(problems)} in all; python scripts/catalog.py check)"
