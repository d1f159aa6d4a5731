import numpy as np
import pytest

from drawodds.cards import JOKER, CardError, format_cards, format_hand, parse_hand, split_tokens, unseen

SAME = ["AsAhKs7s3s", "As Ah Ks 7s 3s", "as,ah,ks,7s,3s", "A♠A♥K♠7♠3♠", "A♤ A♡ K♤ 7♤ 3♤", "AS AH KS 7S 3S"]


@pytest.mark.parametrize("text", SAME)
def test_every_way_of_writing_a_hand_parses_the_same(text):
    assert parse_hand(text).tolist() == [51, 50, 47, 23, 7]


def test_encoding_is_rank_times_four_plus_suit():
    # rank 0 = deuce ... 12 = ace; suits c, d, h, s = 0..3
    assert parse_hand("2c2d2h2sAs").tolist() == [0, 1, 2, 3, 51]


@pytest.mark.parametrize("ten", ["10s", "Ts", "ts", "10♠"])
def test_ten_written_both_ways(ten):
    assert parse_hand(f"{ten} 9s 8s 7s 6s")[0] == 8 * 4 + 3


def test_format_back_canonical_and_pretty():
    h = parse_hand("as ah ks 7s 3s")
    assert format_hand(h) == "As Ah Ks 7s 3s"
    assert format_hand(h, pretty=True) == "A♠ A♥ K♠ 7♠ 3♠"
    assert format_cards(h) == ["As", "Ah", "Ks", "7s", "3s"]


def test_joker_only_where_the_deck_has_one():
    assert parse_hand("AsKsQsJsJk", joker=True)[-1] == JOKER
    with pytest.raises(CardError, match="card 5 'Jk'.*joker"):
        parse_hand("AsKsQsJsJk")


@pytest.mark.parametrize("text, message", [
    ("AsAhKs7s3x", r"card 5 '3x': unknown suit"),
    ("AsAhKs7sXs", r"card 5 'Xs': unknown rank"),
    ("AsAsKs7s3s", r"card 2 'As': duplicate of card 1"),
    ("AsKs7s3s", r"5 cards; got 4"),
    ("AsKs7s3s2s4s", r"5 cards; got 6"),
    ("", r"5 cards; got 0"),
])
def test_bad_input_names_the_token_and_position(text, message):
    with pytest.raises(CardError, match=message):
        parse_hand(text)


def test_card_error_is_a_value_error():
    assert issubclass(CardError, ValueError)


def test_split_tokens_without_separators():
    assert split_tokens("10sJdQhKcAs") == ["10s", "Jd", "Qh", "Kc", "As"]


def test_unseen_removes_known_cards():
    rest = unseen([0, 51])
    assert len(rest) == 50 and 0 not in rest and 51 not in rest
    assert len(unseen([0], joker=True)) == 52 and JOKER in unseen([0], joker=True)
    assert rest.dtype == np.int8


from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

five_cards = st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True)


@given(five_cards, st.booleans(), st.sampled_from([" ", "", ","]), st.booleans())
def test_format_parse_round_trip(cards, pretty, sep, lower):
    text = sep.join(format_cards(cards, pretty=pretty))
    text = text.lower() if lower else text
    assert parse_hand(text).tolist() == cards


@given(five_cards, st.integers(0, 4), st.integers(0, 3))
def test_any_duplicate_is_named(cards, i, j):
    if i == j % 5:
        j = (j + 1) % 5
    cards = list(cards)
    cards[j % 5] = cards[i]
    with pytest.raises(CardError, match="duplicate"):
        parse_hand(" ".join(format_cards(cards)))


def test_the_joker_glyph_is_read_as_the_joker():
    assert parse_hand("As Ks Qs Js 🃏", joker=True)[-1] == JOKER
    assert parse_hand("AsKsQsJs🃏", joker=True)[-1] == JOKER


def test_rank_one_is_refused_with_both_readings_named():
    with pytest.raises(CardError, match=r"card 1 '1s': no rank '1'; did you mean 10s or As\?"):
        parse_hand("1sKsQsJs9s")


def test_errors_echo_input_safely_in_one_line():
    with pytest.raises(CardError) as exc:
        parse_hand("As\x1b[2JKsQs")
    assert "\x1b" not in str(exc.value) and "\n" not in str(exc.value)
    with pytest.raises(CardError) as exc:
        parse_hand("Zz" * 5000)
    assert len(str(exc.value)) < 120
