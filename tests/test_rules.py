import re

import pytest

from drawodds.rules import RuleError, RuleSet, preset, preset_names


def test_presets_exist_and_validate():
    assert preset_names()[0] == "morkpoker"
    for name in preset_names():
        assert preset(name).name == name


def test_home_game_defaults_from_seed_000():
    rs = preset()
    assert (rs.ante, rs.small_bet, rs.big_bet, rs.stack, rs.deals) == (1, 1, 2, 40, 12)
    assert rs.max_raises == 4 and rs.max_draw == "3" and rs.all_check_redeal
    assert rs.first_after_draw == "opener" and rs.odd_chip == "left_of_dealer"


def test_swedish_and_jackpot_presets():
    sv = preset("svensk")
    assert (sv.small_bet, sv.big_bet, sv.max_raises) == (5, 10, 3)
    assert sv.first_after_draw == "left_of_button" and not sv.all_check_redeal
    jp = preset("jackpot")
    assert jp.opener == "jacks" and jp.max_raises == 4 and (jp.small_bet, jp.big_bet) == (10, 20)


def test_points_games():
    assert preset("poengpoker").target_points == 13 and preset("poengpoker").last_trick_points == 2
    ch = preset("chicago")
    assert (ch.target_points, ch.last_trick_points, ch.draws, ch.royal_instant_win) == (52, 5, 3, True)


def test_overrides_and_draw_limits():
    rs = preset("morkpoker", max_draw="4-ace", joker=True)
    assert rs.draw_limit(keeps_ace=True) == 4 and rs.draw_limit(keeps_ace=False) == 3
    assert rs.joker_is_ace_for_draw and rs.draw_limit_for([52, 1, 2, 3]) == 4   # Jk counts as the ace
    assert rs.replace(joker_is_ace_for_draw=False).draw_limit_for([52, 1, 2, 3]) == 3
    assert rs.draw_limit_for([48]) == 4 and rs.draw_limit_for([47, 0]) == 3
    assert rs.deck_size == 53
    assert preset("poengpoker").draw_limit(False) == 5


@pytest.mark.parametrize("name, overrides, message", [
    ("poengpoker", {"joker": True}, "no joker"),
    ("morkpoker", {"players": 9}, "2-8 players"),
    ("morkpoker", {"players": 6, "max_draw": "5"}, "at most 5 players"),
    ("morkpoker", {"max_draw": "7"}, "max draw must be one of"),
    ("morkpoker", {"draws": 4}, "draws must be 1, 2 or 3"),
    ("morkpoker", {"false_openers": True}, "only under Jacks or Better"),
    ("jackpot", {"all_check_redeal": False}, "always redealt"),
    ("morkpoker", {"colour": "red"}, "unknown rule option 'colour'"),
    ("jackpot", {"players": 8, "draws": 3, "max_draw": "4-ace"}, "can empty the deck"),
    ("morkpoker", {"blinds": (2, 1)}, "must increase"),
    ("jackpot", {"blinds": (5, 10)}, "ante, not blinds"),
    ("morkpoker", {"blind_opener": "dealer"}, "big_blind or first_in"),
    ("morkpoker", {"open_with_raise": True, "max_raises": 0}, "at least 1"),
])
def test_impossible_combinations_are_rejected(name, overrides, message):
    with pytest.raises(RuleError, match=message):
        preset(name, **overrides)


def test_every_option_names_its_source():
    from drawodds.rules import OPTION_SOURCES

    names = {f for f in RuleSet.__dataclass_fields__ if f != "sources"}
    assert names == set(OPTION_SOURCES)
    assert "silent" in OPTION_SOURCES["blind_opener"]


def test_unknown_preset():
    with pytest.raises(RuleError, match="unknown rule set 'holdem'"):
        preset("holdem")
    with pytest.raises(RuleError, match="named by text"):
        preset(7)  # type: ignore[arg-type]


def test_ruleset_is_frozen():
    with pytest.raises(AttributeError):
        RuleSet().ante = 5  # type: ignore[misc]


@pytest.mark.parametrize("overrides, message", [
    ({"odd_chip": "cary"}, "odd_chip must be left_of_dealer or carry, got 'cary'"),
    ({"first_after_draw": "openr"}, "first_after_draw must be opener or left_of_button"),
    ({"opener": "queens"}, "opener must be any or jacks"),
    ({"points_tie": "half"}, "points_tie must be none, all or split"),
    ({"short_blind": "half"}, "short_blind must be full or posted"),
    ({"carried_pot": "nobody"}, "carried_pot must be everyone or full_ante"),
    ({"players": 4.5}, "players must be a whole number, got 4.5"),
    ({"players": "4"}, "players must be a whole number, got '4'"),
    ({"players": True}, "players must be a whole number"),
    ({"small_bet": 1.5}, "small_bet must be a whole number"),
    ({"ante": None}, "ante must be a whole number"),
    ({"draws": 2.0}, "draws must be a whole number"),
    ({"max_raises": 1.5}, "max_raises must be a whole number or None"),
    ({"max_raises": -1}, "max_raises must be >= 0"),
    ({"max_consecutive_antes": 0}, "max_consecutive_antes must be at least 1"),
    ({"max_consecutive_antes": -3}, "max_consecutive_antes must be at least 1"),
    ({"max_consecutive_antes": "2"}, "max_consecutive_antes must be a whole number or None"),
    ({"joker": "yes"}, "joker must be True or False"),
    ({"rebuy": 1}, "rebuy must be True or False"),
    ({"blinds": [1, 2]}, "blinds must be a tuple of whole numbers"),
    ({"hand_points": (0, 1, 2, 3, 4, 5, 6, 7, 8.5)}, "hand_points must be a tuple of whole numbers"),
    ({"name": 7}, "name must be text"),
    ({"empty_stub": "short"}, "empty_stub='short' is for the points games"),
])
def test_every_option_value_is_checked_with_one_sentence(overrides, message):
    with pytest.raises(RuleError, match=re.escape(message)) as caught:
        RuleSet().replace(**overrides)
    assert "\n" not in str(caught.value) and str(caught.value).count(". ") == 0


def test_options_of_the_right_kind_still_pass():
    import numpy as np

    assert preset("morkpoker", players=np.int64(3)).players == 3      # numpy integers are whole numbers
    assert preset("morkpoker", max_consecutive_antes=1).max_consecutive_antes == 1
    assert preset("poengpoker").empty_stub == "short"                 # the points games keep it
    assert preset("morkpoker", short_blind="posted", carried_pot="full_ante").carried_pot == "full_ante"
