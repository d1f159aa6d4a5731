"""Cards typed the Swedish and Norwegian way (E K D Kn 10, suits s h r k, joker X) under sv and nb,
with the English notation still accepted, and the one ambiguous token refused."""

from __future__ import annotations

import pytest

from drawodds import i18n
from drawodds.cards import JOKER, CardError, card_str, format_hand, parse_cards, parse_hand

NORDIC_RANKS = {12: "E", 11: "K", 10: "D", 9: "Kn", 8: "10"}
NORDIC_SUITS = "krhs"        # klöver/kløver, ruter, hjärter/hjerter, spader/spar (card code order)


def nordic(card: int) -> str:
    """A card as a Swedish or Norwegian player writes it."""
    rank, suit = divmod(card, 4)
    return NORDIC_RANKS.get(rank, str(rank + 2)) + NORDIC_SUITS[suit]


@pytest.mark.parametrize("lang", ["sv", "nb"])
def test_every_card_round_trips_in_both_notations(lang: str) -> None:
    with i18n.use(lang):
        for card in range(52):
            for written in (nordic(card), nordic(card).lower(), nordic(card).upper(), card_str(card)):
                assert parse_cards(written) == [card], written
        assert parse_cards("X", joker=True) == [JOKER]
        assert parse_cards("Joker", joker=True) == [JOKER]


@pytest.mark.parametrize("lang", ["sv", "nb"])
def test_hands_with_and_without_separators(lang: str) -> None:
    with i18n.use(lang):
        assert format_hand(parse_hand("EsEhKs7s3s")) == "As Ah Ks 7s 3s"
        assert format_hand(parse_hand("Es Eh Kns 10r 3k")) == "As Ah Js Td 3c"
        assert format_hand(parse_hand("KkKnkDdEr10h")) == "Kc Jc Qd Ad Th"   # K then k; Kn then k; D then d
        assert format_hand(parse_hand("es,eh;kns/10r|3k")) == "As Ah Js Td 3c"
        assert format_hand(parse_hand("AsKhQdJcTs")) == "As Kh Qd Jc Ts"       # English, unchanged
        assert format_hand(parse_hand("Es Ah Dd Jc 10k")) == "As Ah Qd Jc Tc"  # both notations in one hand


@pytest.mark.parametrize("lang", ["sv", "nb"])
@pytest.mark.parametrize("token", ["Jk", "jk", "JK"])
def test_the_ambiguous_token_is_refused_in_one_line_saying_how_to_write_it(lang: str, token: str) -> None:
    with i18n.use(lang), pytest.raises(CardError) as caught:
        parse_hand(f"As Ah Ks 7s {token}", joker=True)
    message = str(caught.value)
    assert "\n" not in message and "Knk" in message and "X" in message and f"'{token}'" in message


def test_english_notation_is_unchanged_under_english() -> None:
    assert parse_hand("As Ah Ks 7s Jk", joker=True).tolist()[-1] == JOKER
    for scandinavian in ("Es", "Dd", "Kns", "7k", "3r", "X"):
        with pytest.raises(CardError) as caught:
            parse_cards(scandinavian, joker=True)
        assert "\n" not in str(caught.value)
    with pytest.raises(CardError, match=r"^card 1 'Es': unknown rank 'e' \(use 2-9, T or 10, J, Q, K, A\)$"):
        parse_cards("Es")


@pytest.mark.parametrize("lang", ["sv", "nb"])
@pytest.mark.parametrize("typed", ["Kn", "Xs", "Es Eh Ks 7s 1s", "Es Es Ks 7s 3s", "Zz", "E", "Kny"])
def test_bad_scandinavian_input_is_one_line_in_the_language(lang: str, typed: str) -> None:
    with i18n.use(lang), pytest.raises(CardError) as caught:
        parse_hand(typed, joker=True)
    message = str(caught.value)
    assert "\n" not in message and message.startswith("kort ")
