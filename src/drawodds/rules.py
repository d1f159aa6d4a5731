"""Rule sets: one frozen dataclass with every option the rule documents give, and named presets.

Each option names its source (``OPTION_SOURCES``; the sources are the Mørkpoker guide, the
Swedish Mörkpoker page, the Jacks-or-Better page, the Norwegian 5-card draw page, the Poengpoker
page and Robert's Rules). Where the sources offer a choice, the default is the plain home game of
the Mørkpoker guide unless a preset says otherwise. ``RuleSet.validate`` rejects impossible
combinations with one clear sentence.
"""

from __future__ import annotations

import dataclasses
import itertools
import numbers
import typing
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from drawodds.cards import DECK_SIZE, JOKER
from drawodds.errors import DrawoddsError
from drawodds.i18n import N_

MaxDraw = Literal["3", "4-ace", "4", "5", "any"]
Game = Literal["draw", "poengpoker", "chicago"]
Opener = Literal["any", "jacks"]
FirstAfterDraw = Literal["opener", "left_of_button"]
OddChip = Literal["left_of_dealer", "carry"]
PointsTie = Literal["none", "all", "split"]
TrickRule = Literal["beat_or_any", "beat_or_follow", "follow"]
EmptyStub = Literal["reshuffle", "short"]
BlindOpener = Literal["big_blind", "first_in"]
ShortBlind = Literal["full", "posted"]
CarriedPot = Literal["everyone", "full_ante"]

MAX_DRAW_CHOICES: tuple[str, ...] = ("3", "4-ace", "4", "5", "any")
POENG_HAND_POINTS = (0, 1, 2, 3, 4, 5, 6, 7, 8)  # high card ... straight flush (the Poengpoker page)
FIRST_ACE = 48  # card codes 48-51 are the aces; the joker is 52


class RuleError(DrawoddsError):
    """An impossible or unknown rule option; the message is one sentence a user can act on."""


@dataclass(frozen=True)
class RuleSet:
    """Every option of the draw games in the rule documents, with the home game as default."""

    name: str = "morkpoker"
    game: Game = "draw"
    # Deck and table
    joker: bool = False                      # the bug: 53 cards (Norwegian 5-card draw page)
    players: int = 4                         # 2-6; 7-8 with the Swedish / Norwegian draw limits
    # Forced bets and limits
    ante: int = 1                            # everyone antes before the deal (Mørkpoker guide)
    blinds: tuple[int, ...] = ()             # blinds instead of ante, each double the last (Swedish page)
    blinds_doubling: bool = True             # each blind twice the one before; False: any increase
    blind_opener: BlindOpener = "big_blind"  # blind games: who counts as the opener after the draw
    small_bet: int = 1                       # fixed bet before the draw (Mørkpoker guide: 1)
    big_bet: int = 2                         # fixed bet after the draw, twice the small (guide: 2)
    max_raises: int | None = 4               # raises after the bet; None = no cap (guide: 4)
    cap_heads_up: bool = False               # keep the cap when two players remain (house option)
    complete_short_bet: bool = True          # facing an all-in of less than half a step: complete it
    # Opening and order
    opener: Opener = "any"                   # "jacks": Jacks or Better openers (Jacks-or-Better page)
    first_after_draw: FirstAfterDraw = "opener"   # guide, Jacks-or-Better, Norwegian; Swedish: left_of_button
    all_check_redeal: bool = True            # all check in round 1: no draw, pot stays, re-ante
    max_consecutive_antes: int | None = None  # Jackpott house limit on re-antes; None = no limit
    false_openers: bool = False              # teaching mode: players may open without openers
    open_with_raise: bool = False            # the first bet of round 1 may already be a raise
    false_opener_takes_back: bool = True     # an exposed false opener's later bets go back to it
    # The draw
    max_draw: MaxDraw = "3"                  # 3; 4 with an ace (Norwegian); 4 or 5 (Swedish); any
    joker_is_ace_for_draw: bool = True       # 4-ace: a kept joker counts as the ace
    draws: int = 1                           # 2 or 3: double / triple draw (Swedish page)
    seven_player_limit: bool = True          # 7+ players: at most 2 each until someone folds
    # Showdown and chips
    odd_chip: OddChip = "left_of_dealer"     # or carried to the next deal (Swedish option)
    stack: int = 40                          # starting chips (Mørkpoker guide: 40)
    deals: int = 12                          # deals in a session (Mørkpoker guide: 12)
    rebuy: bool = False                      # busted players rebuy a stack instead of sitting out
    # Points games (the Poengpoker page)
    hand_points: tuple[int, ...] = POENG_HAND_POINTS
    last_trick_points: int = 2               # Poengpoker 2, Chicago 5
    target_points: int = 13                  # Poengpoker 13, Chicago 52
    royal_instant_win: bool = False          # Chicago: the highest straight flush wins at once
    points_tie: PointsTie = "none"           # exactly equal best hands: the page is silent, see docs
    trick_rule: TrickRule = "beat_or_any"    # Poengpoker: beat the lead in its suit or play any card
    empty_stub: EmptyStub = "reshuffle"      # stub runs out: rebuild from others' discards (Norwegian)
    # Where the sources are silent (see docs/rules.md)
    short_blind: ShortBlind = "full"         # the biggest blind all-in for less: others call the full blind
    carried_pot: CarriedPot = "everyone"     # a pot carried in is open to every seat dealt in
    sources: dict[str, str] = field(default_factory=dict, compare=False, hash=False, repr=False)

    @property
    def deck_size(self) -> int:
        """52, or 53 with the joker."""
        return DECK_SIZE + int(self.joker)

    @property
    def max_draw_cards(self) -> int:
        """The most cards one player may ever draw at once under this rule set."""
        return {"3": 3, "4-ace": 4, "4": 4, "5": 5, "any": 5}[self.max_draw]

    @property
    def max_draw_text(self) -> str:
        """The draw limit as printed: ``4-ace`` with the joker says whether a kept joker counts."""
        if self.max_draw == "4-ace" and self.joker:
            return "4-ace, the joker counting as the ace" if self.joker_is_ace_for_draw else "4-ace, a real ace only"
        return self.max_draw

    def draw_limit(self, keeps_ace: bool) -> int:
        """Cards a player may draw, given whether the kept cards include an ace (see ``draw_aces``)."""
        if self.max_draw == "4-ace":
            return 4 if keeps_ace else 3
        return self.max_draw_cards

    def draw_aces(self, cards: Any) -> Any:
        """Which cards count as the ace of "four cards if you keep an ace": the real aces, and the
        joker when ``joker_is_ace_for_draw``. Takes one card code or a numpy array of them.

        The one place this rule lives: the engine, keep, strategy, reading and the draw policies
        all ask here."""
        top = JOKER + 1 if self.joker_is_ace_for_draw else JOKER
        return (cards >= FIRST_ACE) & (cards < top)

    def draw_limit_for(self, kept: Iterable[int]) -> int:
        """Cards a player may draw while keeping these cards (a scalar ``draw_limit``)."""
        return self.draw_limit(any(self.draw_aces(c) for c in kept))

    def to_dict(self) -> dict[str, Any]:
        """Every option, JSON-ready (tuples as lists), in declaration order; ``from_dict`` reads it back.

        >>> preset("jackpot").to_dict()["opener"]
        'jacks'
        >>> RuleSet.from_dict(preset("jackpot", joker=True).to_dict()) == preset("jackpot", joker=True)
        True
        """
        return {name: list(v) if isinstance(v := getattr(self, name), tuple) else v for name in _OPTION_KINDS}

    @classmethod
    def from_dict(cls, values: Any) -> RuleSet:
        """The rule set of a ``to_dict`` dict, validated; an option it lacks takes the value of the
        preset it names (the defaults for any other name). Bad input raises ``RuleError``.

        >>> RuleSet.from_dict({"name": "svensk"}) == preset("svensk")
        True
        >>> RuleSet.from_dict({"name": "morkpoker", "players": "4"})
        Traceback (most recent call last):
        ...
        drawodds.rules.RuleError: players must be a whole number, got '4'
        """
        if not isinstance(values, dict):
            raise RuleError("a rule set is read from a dict of options, got {kind}", kind=type(values).__name__)
        unknown = sorted(str(k) for k in values if k not in _OPTION_KINDS)
        if unknown:
            raise RuleError("unknown rule option {name}; options are: {choices}", name=repr(unknown[0]),
                            choices=', '.join(sorted(_OPTION_KINDS)))
        name = values.get("name", cls.name)
        if not isinstance(name, str):
            raise RuleError("name must be text, got {name}", name=repr(name))
        base = _PRESETS.get(name, cls())
        changes: dict[str, Any] = {
            k: tuple(v) if isinstance(v, list) and typing.get_origin(_OPTION_KINDS[k]) is tuple else v
            for k, v in values.items()}
        return dataclasses.replace(base, **changes).validate()

    def replace(self, **changes: object) -> RuleSet:
        """A copy with some options changed, validated; unknown option names are refused."""
        known = {f.name for f in dataclasses.fields(self)}
        unknown = sorted(set(changes) - known)
        if unknown:
            raise RuleError("unknown rule option {name}; options are: {choices}", name=repr(unknown[0]),
                            choices=', '.join(sorted(known)))
        return dataclasses.replace(self, **changes).validate()  # type: ignore[arg-type]

    def validate(self) -> RuleSet:
        """Return self, or raise RuleError naming the first impossible combination."""
        points_game = self.game != "draw"
        if self.game not in ("draw", "poengpoker", "chicago"):
            raise RuleError("unknown game {game}", game=repr(self.game))
        if self.max_draw not in MAX_DRAW_CHOICES:
            raise RuleError("max draw must be one of {choices}, got {value}", choices=', '.join(MAX_DRAW_CHOICES),
                            value=repr(self.max_draw))
        _check_kinds(self)
        if points_game:
            if self.joker:
                raise RuleError("{game} is played with 52 cards: no joker (the Poengpoker page)", game=self.game)
            if not 2 <= self.players <= 6:
                raise RuleError("{game} is for 2-6 players, got {players}", game=self.game, players=self.players)
        else:
            if not 2 <= self.players <= 8:
                raise RuleError("the draw game is for 2-8 players, got {players}", players=self.players)
            if self.max_draw_cards >= 4 and self.max_draw != "4-ace" and self.players > 5:
                raise RuleError("with up to {max_draw} cards drawn the deck serves at most 5 players (the Swedish "
                                "Mörkpoker page), got {players}", max_draw=self.max_draw_cards, players=self.players)
        if not 1 <= self.draws <= 3:
            raise RuleError("draws must be 1, 2 or 3 (single, double, triple draw), got {draws}", draws=self.draws)
        if not points_game and self.empty_stub == "reshuffle" and _deck_may_run_dry(self):
            raise RuleError("{players} players drawing up to {max_draw} cards {draws} time(s) can empty the deck, "
                            "since nobody is dealt back their own discards: use fewer players, draws or cards",
                            players=self.players, max_draw=self.max_draw_cards, draws=self.draws)
        if self.game == "draw" and (self.small_bet <= 0 or self.big_bet <= 0):
            raise RuleError("bets must be positive")
        if self.ante < 0 or self.stack <= 0 or self.deals <= 0:
            raise RuleError("ante must be >= 0, stack and deals > 0")
        if self.ante > self.stack:
            raise RuleError("the ante ({ante}) is more than a starting stack ({stack}): nobody could pay it",
                            ante=self.ante, stack=self.stack)
        if self.royal_instant_win and not points_game:
            raise RuleError("royal_instant_win is a Chicago rule: the draw game has no instant win")
        if self.max_consecutive_antes is not None and self.max_consecutive_antes < 1:
            raise RuleError("max_consecutive_antes must be at least 1 (or None for no limit), got {value}",
                            value=self.max_consecutive_antes)
        if not points_game and self.empty_stub == "short":
            raise RuleError("empty_stub='short' is for the points games: in the draw game the stub "
                            "is always rebuilt from earlier discards (the Norwegian 5-card draw page)")
        if self.blinds:
            _check_blinds(self)
        if self.open_with_raise and self.max_raises == 0:
            raise RuleError("opening with a raise needs a raise under the cap: max_raises must be "
                            "at least 1 (or None)")
        if self.max_raises is not None and self.max_raises < 0:
            raise RuleError("max_raises must be >= 0 or None (no cap)")
        if self.opener == "jacks" and not self.all_check_redeal:
            raise RuleError("under Jacks or Better a deal nobody opens is always redealt "
                            "(all_check_redeal must stay on)")
        if self.opener == "jacks" and self.blinds:
            raise RuleError("Jacks or Better is played with an ante, not blinds: the rule pages "
                            "define openers only for ante games")
        if self.false_openers and self.opener != "jacks":
            raise RuleError("false openers exist only under Jacks or Better (opener='jacks')")
        if len(self.hand_points) != 9:
            raise RuleError("hand_points needs 9 values, high card ... straight flush")
        if points_game and (self.last_trick_points < 1 or self.target_points < 1
                            or min(self.hand_points) < 0):
            raise RuleError("a points game needs last_trick_points >= 1, target_points >= 1 and "
                            "no negative hand points (otherwise a game might never end)")
        return self


def is_whole(value: object) -> bool:
    """A whole number (a Python or numpy integer), not a bool."""
    return type(value) is int or (isinstance(value, numbers.Integral) and not isinstance(value, bool))


def _check_kinds(rules: RuleSet) -> None:
    """Raise RuleError unless every option has the kind its annotation names: a whole number
    (not 4.5 or "4"), True or False, one of the listed words, or a tuple of whole numbers."""
    for name, kind in _OPTION_KINDS.items():
        value = getattr(rules, name)
        origin, args = typing.get_origin(kind), typing.get_args(kind)
        if origin is Literal:
            if value not in args or not isinstance(value, str):
                choices = ", ".join(map(str, args[:-1])) + f" or {args[-1]}"
                raise RuleError("{name} must be {choices}, got {value}", name=name, choices=choices, value=repr(value))
        elif kind is bool:
            if not isinstance(value, bool):
                raise RuleError("{name} must be True or False, got {value}", name=name, value=repr(value))
        elif kind is int:
            if not is_whole(value):
                raise RuleError("{name} must be a whole number, got {value}", name=name, value=repr(value))
        elif kind is str:
            if not isinstance(value, str):
                raise RuleError("{name} must be text, got {value}", name=name, value=repr(value))
        elif origin is tuple:
            if not isinstance(value, tuple) or not all(is_whole(v) for v in value):
                raise RuleError("{name} must be a tuple of whole numbers, got {value}", name=name, value=repr(value))
        elif args == (int, type(None)):
            if value is not None and not is_whole(value):
                raise RuleError("{name} must be a whole number or None, got {value}", name=name, value=repr(value))


def _deck_may_run_dry(rules: RuleSet) -> bool:
    """Whether some draw could find too few cards even after the discards are reshuffled.

    A player may take any card outside the hands except their own discards (at most the most
    cards drawn, every draw) and split openers kept aside (at most one draw's worth)."""
    aside = rules.max_draw_cards if rules.opener == "jacks" else 0
    return rules.deck_size - 5 * rules.players - rules.max_draw_cards * rules.draws - aside < 0


def _check_blinds(rules: RuleSet) -> None:
    """Raise RuleError unless the blinds are 2-4 positive amounts, one per player at most,
    increasing from the dealer's left (each twice the one before unless blinds_doubling is off)."""
    blinds = rules.blinds
    if not 2 <= len(blinds) <= 4 or len(blinds) > rules.players:
        raise RuleError("use 2-4 blinds and at most one per player; got {count} blinds for {players} players",
                        count=len(blinds), players=rules.players)
    if min(blinds) <= 0:
        raise RuleError("blinds must be positive, got {blinds}", blinds=blinds)
    if any(b <= a for a, b in itertools.pairwise(blinds)):
        raise RuleError("blinds must increase from the dealer's left, got {blinds}", blinds=blinds)
    if rules.blinds_doubling and any(b != 2 * a for a, b in itertools.pairwise(blinds)):
        raise RuleError("each blind must be twice the one before, got {blinds} (set blinds_doubling=False for other "
                        "steps)", blinds=blinds)


# The kind of every option, from its annotation (``sources`` is bookkeeping, not an option).
_OPTION_KINDS: dict[str, Any] = {name: kind for name, kind in typing.get_type_hints(RuleSet).items()
                                 if name != "sources"}


# Where each option comes from in the rule documents (shown by `drawodds rules NAME`, in the
# reader's language).
OPTION_SOURCES: dict[str, str] = {
    "name": N_("the preset this rule set started from"),
    "game": N_("the draw game (the Mørkpoker guide and the other draw pages) or a points game, "
               "Poengpoker / Chicago (the Poengpoker page)"),
    "joker": N_("the Norwegian 5-card draw page: the bug, an ace or a card completing a straight or flush"),
    "players": N_("the Mørkpoker guide and the Swedish Mörkpoker page: 2-6 players; 7 with a two-card "
                  "draw limit (the Swedish page)"),
    "ante": N_("the Mørkpoker guide: everyone antes before the deal"),
    "blinds": N_("the Swedish Mörkpoker page: 2-4 blinds instead of the ante, each twice the "
                 "previous; at most one per player, so two players may both post (the page sets no "
                 "smallest table); not with Jacks or Better, whose page has openers only with an ante"),
    "blinds_doubling": N_("the Swedish Mörkpoker page: each blind twice the one before (True); "
                          "False allows any increasing blinds, a house choice"),
    "blind_opener": N_("the rule documents are silent on who counts as the opener in a blind game; "
                       "big_blind (default): the biggest blind acts first after the draw and shows "
                       "first when all check; first_in: the first player to call or raise the blinds"),
    "small_bet": N_("the Mørkpoker guide: fixed small bet before the draw"),
    "big_bet": N_("the Mørkpoker guide: big bet after the draw, twice the small"),
    "max_raises": N_("the Mørkpoker guide and Robert's Rules (quoted by the Jacks-or-Better page): "
                     "bet + 4; the Swedish Mörkpoker page: bet + 3"),
    "cap_heads_up": N_("the Mørkpoker guide and the Swedish Mörkpoker page: cap lifted heads-up unless "
                       "reached before; house option"),
    "complete_short_bet": N_("Robert's Rules: facing an all-in of less than half a step, a raise "
                             "completes it to the full step (True); the Mørkpoker guide leaves such "
                             "cases to the table, False makes the raise a full step on top; either "
                             "way no one bets past the cap"),
    "opener": N_("the Jacks-or-Better page: Jacks or Better needs at least a pair of jacks to open"),
    "first_after_draw": N_("the Mørkpoker guide, the Jacks-or-Better page and the Norwegian 5-card "
                           "draw page: the opener; the Swedish Mörkpoker page's base rule: left of "
                           "the button"),
    "all_check_redeal": N_("the Mørkpoker guide and the Norwegian 5-card draw page: all check in "
                           "round 1 -> redeal; the Swedish Mörkpoker page: a variant"),
    "max_consecutive_antes": N_("the Jacks-or-Better page: a house limit on consecutive antes"),
    "false_openers": N_("the Jacks-or-Better page: what happens when an opener cannot show openers"),
    "open_with_raise": N_("the Jacks-or-Better page (knektöppning): classic Draw High rules allow "
                          "opening directly with a raise, if agreed before play; off by default"),
    "false_opener_takes_back": N_("the Jacks-or-Better page (knektöppning): once a false opener is "
                                  "exposed before the round ends, its bets after the opening bet "
                                  "may be taken back, to be agreed before play; the opening bet "
                                  "always stays in the pot"),
    "max_draw": N_("the Mørkpoker guide: 3; the Norwegian 5-card draw page: 4 with an ace; the "
                   "Swedish Mörkpoker page: 4 or 5; Poengpoker: any"),
    "joker_is_ace_for_draw": N_("the Norwegian 5-card draw page: the joker counts as an ace, so a "
                                "kept joker allows four cards under 4-ace (True); False: only a "
                                "real ace does"),
    "draws": N_("the Swedish Mörkpoker page's variants: double and triple draw"),
    "seven_player_limit": N_("the Swedish Mörkpoker page: with 7 players at most 2 each until "
                             "someone folds"),
    "odd_chip": N_("the Mørkpoker guide and the Norwegian 5-card draw page: to the winner nearest "
                   "the dealer's left; the Swedish Mörkpoker page: carry option"),
    "stack": N_("the Mørkpoker guide: 40 chips each (the Swedish example: about 200)"),
    "deals": N_("the Mørkpoker guide: 12 deals, most chips wins"),
    "rebuy": N_("house option: busted players rebuy or sit out"),
    "hand_points": N_("the Poengpoker page: 8/7/6/5/4/3/2/1/0 for the single best hand"),
    "last_trick_points": N_("the Poengpoker page: Poengpoker 2, Chicago 5"),
    "target_points": N_("the Poengpoker page: Poengpoker 13, Chicago 52"),
    "royal_instant_win": N_("the Poengpoker page: in Chicago the highest straight flush wins at once"),
    "points_tie": N_("the Poengpoker page is silent on equal best hands; default: nobody scores"),
    "trick_rule": N_("the Poengpoker page: Poengpoker beat the lead in its suit if you can, else any "
                     "card (beat_or_any); Chicago follow suit or discard (follow); beat_or_follow = "
                     "classic suit-and-beat duty, a house reading"),
    "empty_stub": N_("the Norwegian 5-card draw page: rebuild the stub from earlier discards, never "
                     "a player's own (reshuffle); the Poengpoker page: discards leave the deal, so a "
                     "player exchanges only as many cards as the stub holds (short, points games only)"),
    "short_blind": N_("the sources are silent; the Swedish Mörkpoker page: to come in, call the "
                      "biggest blind or raise it, so a biggest blind posted all-in for less still "
                      "sets the full blind to call (full, default); posted: the others may call what "
                      "was actually posted, a house choice"),
    "carried_pot": N_("the sources are silent; the Jacks-or-Better page: the pot stays for the next "
                      "deal, so it joins that deal's main pot, open to every seat dealt in, even one "
                      "all-in on its ante (everyone, default); full_ante: only seats that paid the "
                      "full ante may win the carried chips, a house choice"),
}

_PRESETS: dict[str, RuleSet] = {
    "morkpoker": RuleSet(),
    "svensk": RuleSet(name="svensk", ante=1, small_bet=5, big_bet=10, max_raises=3, stack=200,
                      first_after_draw="left_of_button", all_check_redeal=False, players=6),
    "jackpot": RuleSet(name="jackpot", opener="jacks", ante=5, small_bet=10, big_bet=20,
                       max_raises=4, stack=400),
    "poengpoker": RuleSet(name="poengpoker", game="poengpoker", max_draw="any", ante=0,
                          last_trick_points=2, target_points=13, empty_stub="short"),
    "chicago": RuleSet(name="chicago", game="chicago", max_draw="any", draws=3, ante=0,
                       last_trick_points=5, target_points=52, royal_instant_win=True,
                       trick_rule="follow"),
}

PRESET_TITLES: dict[str, str] = {      # each preset's name as a player says it
    "morkpoker": N_("Mørkpoker"),
    "svensk": N_("Swedish köppoker"),
    "jackpot": N_("Jacks or Better (Jackpott)"),
    "poengpoker": N_("Poengpoker"),
    "chicago": N_("Chicago"),
}

PRESET_DESCRIPTIONS: dict[str, str] = {
    "morkpoker": N_("plain Mørkpoker, the home game of the Mørkpoker guide (default): ante 1, bets 1/2, "
                    "40 chips"),
    "svensk": N_("Swedish köppoker (the Swedish Mörkpoker page): ante 1, 5/10, bet + 3 raises, left of "
                 "button acts first"),
    "jackpot": N_("Jacks or Better / Jackpott (the Jacks-or-Better page): openers, pot carried, Robert's "
                  "Rules cap"),
    "poengpoker": N_("Poengpoker (the Poengpoker page): any exchange, best hand scores 8..0, last trick 2, "
                     "to 13"),
    "chicago": N_("Chicago (the Poengpoker page): three exchanges, last trick 5, to 52, royal flush wins "
                  "at once"),
}


def preset_names() -> tuple[str, ...]:
    """Names of the presets, default first."""
    return tuple(_PRESETS)


def preset(name: str = "morkpoker", **overrides: object) -> RuleSet:
    """A named preset, optionally with single options overridden (validated).

    >>> rules = preset("jackpot", joker=True)
    >>> rules.opener, rules.ante, rules.deck_size
    ('jacks', 5, 53)
    >>> preset("Mørkpoker") == preset()   # any spelling of a name, aliases too
    True
    >>> preset("morkpoker", players=9)
    Traceback (most recent call last):
    ...
    drawodds.rules.RuleError: the draw game is for 2-8 players, got 9
    >>> preset("texas")
    Traceback (most recent call last):
    ...
    drawodds.rules.RuleError: unknown rule set 'texas'; choose one of: morkpoker, svensk, jackpot, poengpoker, chicago
    """
    if not isinstance(name, str):
        raise RuleError("a rule set is named by text, one of: {choices}; got {name}", choices=', '.join(_PRESETS),
                        name=repr(name))
    key = name.lower().replace("ø", "o").replace("ö", "o")
    aliases = {"jacks": "jackpot", "jackpott": "jackpot", "svenska": "svensk", "koppoker": "svensk",
               "poeng": "poengpoker", "plain": "morkpoker"}
    key = aliases.get(key, key)
    if key not in _PRESETS:
        raise RuleError("unknown rule set {name}; choose one of: {choices}", name=repr(name),
                        choices=', '.join(_PRESETS))
    return _PRESETS[key].replace(**overrides) if overrides else _PRESETS[key].validate()
