"""What every finished deal must satisfy, checked from its own record; and random deals to check.

``violations(state)`` reads a finished ``DealState`` (its deck, private log, public events and
result) and names every rule the deal broke: chips created or lost, a card in two places, a bet
past the cap, a folded or dead hand paid, a seat paid more than it matched (or than the carried
pot allows it), an unmatched bet kept, folded chips given back, a mucked hand paid, a draw past
its limit, a short blind's bet called short, split openers announced when the kept cards still
prove the opening (or not announced when they cannot) at any draw. It re-derives each fact its
own way rather than asking the engine's helpers.

``random_rules`` / ``random_deal`` / ``play_random`` make the deals the test suite and
``benchmarks/soak_engine.py`` throw at it: random presets and options, short random stacks (so
all-ins and side pots are common), random legal actions, mucks and exposed false openers.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

import numpy as np

from drawodds.engine.deal import Action, DealState, IllegalAction
from drawodds.engine.pots import matched_bound, uncalled_excess
from drawodds.engine.session import DeckSupply
from drawodds.evaluate import evaluate_one
from drawodds.holds import hold_openers_split
from drawodds.rules import RuleError, RuleSet, preset

DRAW_PRESETS = ("morkpoker", "svensk", "jackpot")


# ----- the checker --------------------------------------------------------------------------

def violations(state: DealState) -> list[str]:
    """Every invariant the finished deal breaks, one sentence each; [] when it keeps them all."""
    result = state.result
    if result is None:
        return ["the deal is not finished"]
    out: list[str] = []
    out += _chip_violations(state)
    out += _card_violations(state)
    out += _cap_violations(state)
    out += _pot_violations(state)
    out += _draw_violations(state)
    if state.rules.blinds:
        out += _blind_violations(state)
    if state.rules.opener == "jacks":
        out += _split_violations(state)
    return out


def _chip_violations(state: DealState) -> list[str]:
    r = state.result
    assert r is not None
    out = []
    if sum(r.stacks) + r.carried_out != sum(state.start_stacks) + state.carried_in:
        out.append(f"chips not conserved: {sum(state.start_stacks)} + {state.carried_in} in, "
                   f"{sum(r.stacks)} + {r.carried_out} out")
    if min(r.stacks) < 0 or min(state.contributed) < 0:
        out.append("a negative stack or contribution")
    if r.pot != sum(state.contributed) + state.carried_in:
        out.append("the recorded pot is not what went in")
    if r.dead_opener and state.dead_seat is not None:
        out += _false_opening_violations(state, state.dead_seat)
    # Folded chips stay in the pot (the Mørkpoker guide): a seat that folded gets back at most
    # the part of its chips nobody else matched, never chips another seat matched.
    gone: set[int] = set()
    put = [0] * state.n
    for seat, kind, chips in state.events:
        if kind == "fold":
            gone.add(seat)
        elif kind in ("ante", "blind", "bet", "raise", "call"):
            put[seat] += chips
        elif kind == "return":
            put[seat] -= chips
            if seat in gone and put[seat] < max(c for s, c in enumerate(put) if s != seat):
                out.append(f"seat {seat} got {chips} back after it folded, chips others had matched")
    if r.outcome in ("showdown", "uncontested"):
        seat, excess = uncalled_excess(state.contributed)
        false_opener = seat == state.dead_seat or (seat == state.opener and not state.opener_genuine)
        if excess and not false_opener:
            out.append(f"seat {seat} kept an unmatched bet of {excess} in the pot")
    return out


def _false_opening_violations(state: DealState, seat: int) -> list[str]:
    """A false opener found before the draw (exposed, or left alone in round 1) leaves its opening
    bet in the pot: nothing returned to it after that dips into the opening bet."""
    events = state.events
    exposed = next((i for i, e in enumerate(events) if e == (seat, "false_opener", 0)), None)
    if exposed is None and any(kind == "draw" for _, kind, _ in events):
        return []  # found only at the showdown: ordinary rules for unmatched bets
    found = len(events) if exposed is None else exposed   # when it was found out

    def chips_of(kinds: tuple[str, ...], part: list[tuple[int, str, int]]) -> int:
        return sum(chips for s, kind, chips in part if s == seat and kind in kinds)
    opening = next((chips for s, kind, chips in events if s == seat and kind in ("bet", "raise")), 0)
    put = chips_of(("bet", "raise", "call"), events[:found])
    if exposed is not None:  # an unmatched bet returned at the end of round 1 was ordinary then
        put -= chips_of(("return",), events[:found])
        kept = put - chips_of(("return",), events[found:])
    else:
        kept = put - chips_of(("return",), events)
    if kept < min(opening, put):
        return [f"the false opener, seat {seat}, got back part of its opening bet of {opening}"]
    return []


def _card_violations(state: DealState) -> list[str]:
    """Replay the private log: every card in one place, draws from the stub or a reshuffle of
    others' discards, split openers never reshuffled."""
    out = []
    deck = list(state.deck)
    if len(set(deck)) != len(deck) or not set(deck) <= set(range(state.rules.deck_size)):
        out.append("the deck is not a set of distinct cards of this rule set")
    m = len(state.order)
    hands: dict[int, list[int]] = {}
    for seat, kind, cards, _ in state.private:
        if kind == "deal":
            hands[seat] = list(cards)
    dealt = [c for h in hands.values() for c in h]
    if len(dealt) != 5 * m or len(set(dealt)) != len(dealt) or set(dealt) != set(deck[:5 * m]):
        out.append("the deal did not hand out the top of the deck, five distinct cards each")
    available = set(deck[5 * m:])
    pile: set[int] = set()
    own: dict[int, set[int]] = {s: set() for s in hands}
    aside = {s: set(cards) for s, cards in state.aside.items()}
    for seat, kind, cards, extra in state.private:
        if kind == "draw":
            discards, drawn = list(cards), list(extra)
            hand = hands[seat]
            if len(set(discards)) != len(discards) or not set(discards) <= set(hand):
                out.append(f"seat {seat} threw cards it did not hold")
            if len(drawn) != len(discards):
                out.append(f"seat {seat} got {len(drawn)} cards for {len(discards)}")
            hands[seat] = [c for c in hand if c not in discards]
            own[seat] |= set(discards)
            pile |= set(discards) - aside.get(seat, set())
            held = {c for h in hands.values() for c in h}
            for c in drawn:
                if c not in available:
                    out.append(f"seat {seat} drew card {c}, which was not in the stub")
                if c in own[seat]:
                    out.append(f"seat {seat} was dealt back its own discard {c}")
                if c in held:
                    out.append(f"card {c} is in two hands")
                available.discard(c)
                held.add(c)
            hands[seat] += drawn
        elif kind == "reshuffle":
            fresh = list(cards)
            if len(set(fresh)) != len(fresh) or not set(fresh) <= pile:
                out.append("a reshuffle holds cards that are not earlier discards")
            if set(fresh) & own[seat]:
                out.append(f"a reshuffle for seat {seat} holds its own discards")
            if any(set(fresh) & a for a in aside.values()):
                out.append("split openers were reshuffled")
            pile -= set(fresh)
            available |= set(fresh)
        elif kind == "show" and sorted(cards) != sorted(hands[seat]):
            out.append(f"seat {seat} showed cards it does not hold")
    for seat, hand in hands.items():
        if sorted(hand) != sorted(state.hands[seat]):
            out.append(f"seat {seat}'s hand differs from its record")
    return out


def _cap_violations(state: DealState) -> list[str]:
    """No round's bets pass the cap (bet plus max_raises steps), unless lifted heads-up."""
    rules = state.rules
    cap = rules.max_raises
    if cap is None:
        return []
    out = []
    live = set(state.order)
    committed: dict[int, int] = {}
    rnd, cap_level, capped_multiway, after_draw = 0, (1 + cap) * rules.small_bet, False, False
    blinds_posted = 0
    for seat, kind, chips in state.events:
        if kind in ("split", "reshuffle"):
            continue
        if kind == "draw":
            if not after_draw:  # the first draw of a new draw phase: a new betting round follows
                rnd += 1
                committed, capped_multiway = {}, False
                cap_level = (1 + cap) * rules.big_bet
            after_draw = True
            continue
        after_draw = False
        if kind == "blind":
            committed[seat] = committed.get(seat, 0) + chips
            blinds_posted += 1
            bet = max(committed.values())
            if rules.short_blind == "full":  # a blind all-in for less: the full blind is the bet
                bet = max(bet, rules.blinds[blinds_posted - 1])
            cap_level = bet + cap * rules.small_bet
        elif kind in ("bet", "raise", "call"):
            now = committed[seat] = committed.get(seat, 0) + chips
            capped = len(live) > 2 or capped_multiway or rules.cap_heads_up
            if kind != "call" and capped and now > cap_level:
                out.append(f"round {rnd}: seat {seat} {kind}s to {now}, past the cap of {cap_level}")
            if len(live) > 2 and now >= cap_level:
                capped_multiway = True
        elif kind == "return":
            committed[seat] = committed.get(seat, 0) - chips
        elif kind in ("fold", "false_opener"):
            live.discard(seat)
    return out


def _pot_violations(state: DealState) -> list[str]:
    """Each pot goes to the right hands: the best claimant(s), where a claimant is a seat that
    reached the pot, did not fold or muck and is no dead opener; a pot whose other hands all
    mucked belongs to the one left, even if it mucked later, unless that hand is dead (then the
    pot stays); take(s) never passes what s matched."""
    r = state.result
    assert r is not None
    out = []
    won: dict[int, int] = {}
    for seat, kind, chips in state.events:
        if kind == "win":
            won[seat] = won.get(seat, 0) + chips
    dead = {state.dead_seat} if r.dead_opener and state.dead_seat is not None else set()
    full_ante = {seat for seat, kind, chips in state.events if kind == "ante" and chips == state.rules.ante}
    for seat, chips in won.items():
        if state.folded[seat]:
            out.append(f"folded seat {seat} won {chips}")
        if seat in dead:
            out.append(f"the dead opener, seat {seat}, won {chips}")
        # the carried pot: every seat dealt in, or under full_ante only those that paid it in full
        carried_open = state.rules.carried_pot == "everyone" or not full_ante or seat in full_ante
        bound = matched_bound(state.contributed, seat) + state.carried_in * carried_open
        if chips > bound:
            out.append(f"seat {seat} won {chips}, more than the {bound} it matched")
    if r.outcome not in ("showdown", "uncontested"):
        if won:
            out.append(f"chips were paid in a {r.outcome} deal")
        return out
    if len(r.pots) != len(r.awards):
        return out + ["pots and awards differ in length"]
    if sum(p.amount for p in r.pots) != r.pot:
        out.append("the pots do not add up to the pot")
    mucks = [seat for seat, kind, _ in state.events if kind == "muck"]
    strength = {s: evaluate_one(state.hands[s]) for s in state.order if not state.folded[s]}
    for (amount, eligible), award in zip(r.pots, r.awards, strict=False):
        if any(state.folded[s] for s in eligible):
            out.append("a folded seat is eligible for a pot")
        # A hand that mucked gave up its claim, unless every other hand of the pot (dead or
        # live) had mucked before it: then the pot was already its. Dead hands never claim.
        standing = [s for s in eligible if s not in mucks]
        if not standing and eligible:
            standing = [max(eligible, key=mucks.index)]
        claim = [s for s in standing if s not in dead]
        if not claim:
            expected: tuple[int, ...] = ()
        else:
            best = max(strength[s] for s in claim)
            expected = tuple(s for s in claim if strength[s] == best)
            if r.outcome == "uncontested" and len(claim) > 1:
                out.append("an uncontested deal left a pot with several claimants")
        if tuple(sorted(award)) != tuple(sorted(expected)):
            out.append(f"a pot of {amount} went to {award}, the rules send it to {expected or 'the next deal'}")
    return out


def _draw_violations(state: DealState) -> list[str]:
    """No draw passes the most cards of the rule set; at seven or more players, at most two
    until a hand has left the deal (folded, or exposed as a false opener: a dead hand draws none)."""
    rules = state.rules
    out = []
    seven = rules.seven_player_limit and len(state.order) >= 7
    someone_out = False
    for seat, kind, k in state.events:
        if kind in ("fold", "false_opener"):
            someone_out = True
        elif kind == "draw":
            limit = 2 if seven and not someone_out else rules.max_draw_cards
            if k > limit:
                out.append(f"seat {seat} drew {k} cards, more than the {limit} allowed")
    return out


def _blind_violations(state: DealState) -> list[str]:
    """Under ``short_blind="full"`` nobody comes in for less than the full biggest blind posted,
    even when that blind went all-in for less, unless the caller is all-in itself."""
    rules = state.rules
    if rules.short_blind != "full":
        return []
    out = []
    stacks = list(state.start_stacks)
    put: dict[int, int] = {}
    posted = 0
    for seat, kind, chips in state.events:
        if kind == "draw":
            break
        if kind in ("blind", "bet", "raise", "call"):
            stacks[seat] -= chips
            put[seat] = put.get(seat, 0) + chips
            posted += kind == "blind"
        elif kind == "return":
            stacks[seat] += chips
            put[seat] -= chips
        if kind == "call" and put[seat] < rules.blinds[posted - 1] and stacks[seat] > 0:
            out.append(f"seat {seat} came in for {put[seat]}, less than the full blind of "
                       f"{rules.blinds[posted - 1]}")
    return out


def _split_violations(state: DealState) -> list[str]:
    """At every draw, split openers announced exactly when the dealt cards the opener still holds
    and those set aside before cannot prove the opening, and only the cards needed set aside; at
    the end the opener can prove its openers, whichever draw broke them."""
    out: list[str] = []
    splits = [(seat, k) for seat, kind, k in state.events if kind == "split"]
    opener = state.opener
    if opener is None or not state.opener_genuine:
        return [f"split openers announced by {splits} without a genuine opener"] if splits else out
    if any(seat != opener for seat, _ in splits):
        return [f"split openers announced by {splits} but the opener is {opener}"]
    dealt = np.array(next(cards for seat, kind, cards, _ in state.private
                          if seat == opener and kind == "deal"))
    draws = [cards for seat, kind, cards, _ in state.private if seat == opener and kind == "draw"]
    announced: list[int] = []   # cards announced as split at each of the opener's draws
    pending = 0
    for seat, kind, k in state.events:
        if seat == opener and kind == "split":
            pending = k
        elif seat == opener and kind == "draw":
            announced.append(pending)
            pending = 0

    def breaks(cards: set[int]) -> bool:
        return bool(hold_openers_split(dealt, np.array([[c in cards for c in dealt.tolist()]]))[0])
    set_aside = list(state.aside.get(opener, ()))
    held, used = set(dealt.tolist()), 0
    aside: set[int] = set()
    for number, (discards, k) in enumerate(zip(draws, announced, strict=False), start=1):
        held -= set(discards)
        now = set(set_aside[used:used + k])
        used += k
        if not breaks(held | aside):
            if k:
                out.append(f"seat {opener} announced split openers at draw {number} though its "
                           f"kept cards prove them")
            continue
        if not k:
            out.append(f"seat {opener} broke its openers at draw {number} without announcing the split")
            continue
        if len(now) != k or not now <= set(discards):
            out.append(f"the split announced at draw {number} is not the set-aside cards")
        if breaks(held | aside | now):
            out.append(f"the cards set aside at draw {number} do not prove the opening")
        for c in now:  # only the cards needed: none of them can be spared
            if not breaks(held | aside | (now - {c})):
                out.append(f"card {c} was set aside though the opening is proven without it")
        aside |= now
    if used != len(set_aside):
        out.append("the set-aside cards are not the announced splits")
    if draws and breaks(held | aside):
        out.append(f"seat {opener} cannot prove its openers at the end")
    return out


# ----- random deals -----------------------------------------------------------------------------

def random_rules(rng: random.Random) -> RuleSet:
    """A valid rule set: a random draw-game preset with random options (short-stack friendly)."""
    while True:
        name = rng.choice(DRAW_PRESETS)
        step = rng.choice((1, 2, 5, 10))
        options: dict[str, object] = {
            "players": rng.randint(2, 8), "joker": rng.random() < 0.3,
            "max_draw": rng.choice(("3", "3", "4-ace", "4", "5")), "draws": rng.choice((1, 1, 2, 3)),
            "cap_heads_up": rng.random() < 0.3, "odd_chip": rng.choice(("left_of_dealer", "carry")),
            "max_raises": rng.choice((None, 0, 1, 2, 3, 4, 4)),
            "first_after_draw": rng.choice(("opener", "left_of_button")),
            "seven_player_limit": rng.random() < 0.7, "joker_is_ace_for_draw": rng.random() < 0.5,
            "complete_short_bet": rng.random() < 0.5, "open_with_raise": rng.random() < 0.3,
            "small_bet": step, "big_bet": 2 * step, "ante": rng.choice((0, 1, 1, 2, 5)),
            "carried_pot": rng.choice(("everyone", "full_ante")),
        }
        if name == "jackpot":
            options["false_openers"] = rng.random() < 0.6
            options["false_opener_takes_back"] = rng.random() < 0.5
        else:
            options["all_check_redeal"] = rng.random() < 0.5
            if rng.random() < 0.4:
                doubling = rng.random() < 0.7
                k = rng.randint(2, 4)
                first = rng.choice((1, 2))
                options["blinds"] = tuple(first * 2 ** i for i in range(k)) if doubling else \
                    tuple(sorted(rng.sample(range(1, 12), k)))
                options["blinds_doubling"] = doubling
                options["blind_opener"] = rng.choice(("big_blind", "first_in"))
                options["short_blind"] = rng.choice(("full", "posted"))
        try:
            return preset(name, **options)
        except RuleError:
            continue


def random_deal(rules: RuleSet, rng: random.Random, deal_id: int = 0,
                deck: list[int] | None = None) -> DealState:
    """A fresh deal under ``rules``: short random stacks (1-40, now and then a seat sitting out),
    a random button with chips, a shuffled deck (or ``deck``), maybe a pot carried in, maybe no antes."""
    n = rules.players
    while True:
        stacks = [0 if rng.random() < 0.05 else rng.randint(1, 40) for _ in range(n)]
        if sum(1 for c in stacks if c > 0) >= 2:
            break
    button = rng.choice([s for s in range(n) if stacks[s] > 0])
    if deck is None:
        deck = list(range(rules.deck_size))
        rng.shuffle(deck)
    carried = rng.choice((0, 0, 0, rng.randint(1, 30)))

    def reshuffle(cards: list[int]) -> list[int]:
        cards = list(cards)
        rng.shuffle(cards)
        return cards
    return DealState(rules, stacks, button, deck, carried=carried, antes=rng.random() < 0.9,
                     deal_id=deal_id, reshuffle=reshuffle)


def play_random(state: DealState, rng: random.Random, muck_rate: float = 0.15,
                expose_rate: float = 0.3) -> DealState:
    """Play a deal to the end with uniformly random legal actions (cheap: no observations).

    A draw throws a random number of random cards up to the limit the rules allow, worked out
    here (an AssertionError if the engine refuses it), keeping the ace when four are drawn under
    4-ace; at the showdown a seat mucks at ``muck_rate``; a false opener is exposed before the draw
    at ``expose_rate`` per action (now and then with a lower rate, and often once it has folded).
    """
    rules = state.rules
    random_ = rng.random
    if random_() < 0.3:
        expose_rate /= 6   # let some false openers act on (call, fold) before they are found
    while state.actor is not None:
        opener = state.opener
        if (expose_rate and opener is not None and not state.opener_genuine and state.dead_seat is None
                and random_() < (0.7 if state.folded[opener] else expose_rate)):
            try:
                state.expose_false_opener()
                continue
            except IllegalAction:
                pass
        phase = state.phase
        if phase == "draw":
            seat = state.actor
            hand = list(state.hands[seat])
            k = rng.randint(0, _draw_limit(state, hand))
            rng.shuffle(hand)
            if k == 4 and rules.max_draw == "4-ace":
                ace = next(c for c in hand if rules.draw_aces(c))
                hand.remove(ace)
                hand.append(ace)
            try:
                state.apply(Action("draw", tuple(hand[:k])))
            except IllegalAction as exc:
                raise AssertionError(f"the engine refused seat {seat} a legal draw of {k}: {exc}") from None
        elif phase == "showdown":
            state.apply(Action("muck" if random_() < muck_rate else "show"))
        else:
            legal = state.legal()
            state.apply(Action(legal[int(random_() * len(legal))].kind))
    return state


def _draw_limit(state: DealState, hand: list[int]) -> int:
    """The most cards a seat holding ``hand`` may draw now, from the rules and the public events:
    three, four with an ace, four or five; two each at seven or more players until a hand has
    left the deal (a fold, or a false opener exposed: a dead hand draws none)."""
    rules = state.rules
    limit = rules.draw_limit(any(rules.draw_aces(c) for c in hand))
    if rules.seven_player_limit and len(state.order) >= 7 and not any(
            kind in ("fold", "false_opener") for _, kind, _ in state.events):
        limit = min(limit, 2)
    return limit


@dataclass(frozen=True)
class SoakReport:
    """Random deals played and checked: how many, the ones that broke a rule, what was seen."""

    deals: int
    bad: tuple[tuple[int, RuleSet, DealState, tuple[str, ...]], ...]  # (deal, rules, state, why)
    seen: Counter[str]  # event kinds, outcomes and pot situations met, with their counts


def soak(deals: int, seed: int = 0, rules_every: int = 50) -> SoakReport:
    """Play ``deals`` random deals (a fresh random rule set every ``rules_every``) and check each."""
    rng = random.Random(seed)
    decks = {size: DeckSupply(np.random.default_rng([seed, size]), size) for size in (52, 53)}
    bad = []
    seen: Counter[str] = Counter()
    rules = random_rules(rng)
    for d in range(deals):
        if d % rules_every == 0:
            rules = random_rules(rng)
        state = random_deal(rules, rng, deal_id=d, deck=decks[rules.deck_size].next())
        try:
            play_random(state, rng)
            found = violations(state)
        except (AssertionError, ValueError, IndexError, KeyError) as exc:
            found = [f"{type(exc).__name__}: {exc}"]
        if found:
            bad.append((d, rules, state, tuple(found)))
            continue
        seen.update(kind for _, kind, _ in state.events)
        seen[f"preset {rules.name}"] += 1
        r = state.result
        assert r is not None
        seen[r.outcome] += 1
        if len(r.pots) > 1:
            seen["side pots"] += 1
        if any(not award and pot.amount for pot, award in zip(r.pots, r.awards, strict=False)):
            seen["a pot no live hand may claim"] += 1
        if any(state.mucked[s] for s in r.winners):
            seen["a side pot kept after mucking"] += 1
        seen.update(_rulings_met(state))
    return SoakReport(deals, tuple(bad), seen)


def _rulings_met(state: DealState) -> list[str]:
    """The edge rulings this deal met (so a soak can show it tried them)."""
    events, rules = state.events, state.rules
    met = []
    draws_seen = 0
    for seat, kind, _ in events:
        draws_seen += kind == "draw" and seat == state.opener
        if kind == "split" and draws_seen >= 1:
            met.append("openers split at a later draw")
        if kind == "false_opener" and any(e == (seat, "fold", 0) for e in events):
            met.append("a folded false opener exposed")
    if state.dead_seat is not None and state.mucked.count(True) and state.result is not None \
            and state.result.outcome == "showdown" and not state.result.winners:
        met.append("a dead hand left alone after mucks")
    posted = [chips for _, kind, chips in events if kind == "blind"]
    if posted and posted[-1] < rules.blinds[len(posted) - 1]:
        met.append("a biggest blind all-in for less")
    if state.carried_in and rules.carried_pot == "full_ante" and any(
            kind == "ante" and chips < rules.ante for _, kind, chips in events):
        met.append("a carried pot kept from a short ante")
    if rules.seven_player_limit and len(state.order) >= 7 and any(
            kind == "false_opener" for _, kind, _ in events):
        met.append("a false opener exposed at seven players")
    return met


__all__ = ["DRAW_PRESETS", "SoakReport", "play_random", "random_deal", "random_rules", "soak", "violations"]
