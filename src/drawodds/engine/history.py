"""Hand histories: every deal as a readable text log and as one JSON line, and replays.

A JSON history starts with a header line (rules, players, seed, and each seat's betting player
under ``policies``); each further line is one deal with everything needed to play it again:
stacks, button, carried pot, the deck order, any reshuffled stubs and every action. ``replay``
plays each deal again from those and checks that it ends exactly as recorded.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from drawodds.cards import card_str
from drawodds.engine.deal import Action, DealResult, DealState
from drawodds.errors import RequestError
from drawodds.rules import RuleSet

FORMAT = "drawodds-history/1"


def deal_record(state: DealState) -> dict[str, Any]:
    """One finished deal as a JSON-ready dict (the omniscient record, not a player's view)."""
    result = state.result
    if result is None:
        raise RequestError("the deal is not finished")
    return {
        "deal": state.deal_id, "button": state.button, "stacks": list(state.start_stacks),
        "carried_in": state.carried_in, "antes": state.antes, "deck": list(state.deck),
        "reshuffles": [list(cards) for _, kind, cards, _ in state.private if kind == "reshuffle"],
        "actions": [[seat, kind, list(discards)] for seat, kind, discards in state.actions],
        "hands": {str(s): list(cards) for s, kind, cards, _ in state.private if kind == "deal"},
        "outcome": result.outcome, "net": list(result.net), "carried_out": result.carried_out,
        "pot": result.pot, "winners": list(result.winners), "opener": result.opener,
        "dead_opener": result.dead_opener,
    }


def _cards(cards: Sequence[int]) -> str:
    return " ".join(card_str(c) for c in cards)


def text_log(state: DealState) -> str:
    """A readable account of one finished deal: who was dealt what, every action, who won."""
    lines = [f"Deal {state.deal_id}: dealer seat {state.button}, stacks "
             f"{' '.join(str(s) for s in state.start_stacks)}"
             + (f", pot carried in {state.carried_in}" if state.carried_in else "")]
    for seat, kind, cards, _ in state.private:
        if kind == "deal":
            lines.append(f"  seat {seat} is dealt {_cards(cards)}")
    draws = iter([p for p in state.private if p[1] == "draw"])
    shows = iter([p for p in state.private if p[1] == "show"])
    words = {"ante": "antes", "blind": "posts a blind of", "check": "checks", "call": "calls",
             "bet": "bets", "raise": "raises, putting in", "fold": "folds", "return": "takes back",
             "win": "wins", "muck": "mucks", "split": "splits openers, keeping aside",
             "pass": "passes", "declare": "declares the pot open", "reshuffle": "reshuffle of",
             "false_opener": "is exposed as a false opener: the hand is dead"}
    for seat, kind, amount in state.events:
        who = "table" if seat < 0 else f"seat {seat}"
        if kind == "draw":
            _, _, discards, drawn = next(draws)
            lines.append(f"  {who} draws {amount}" + (f" (throws {_cards(discards)}, gets {_cards(drawn)})"
                                                       if amount else " (stands pat)"))
        elif kind == "show":
            _, _, cards, aside = next(shows)
            lines.append(f"  {who} shows {_cards(cards)}" + (f" and the split openers {_cards(aside)}"
                                                             if aside else ""))
        elif kind == "carry":
            lines.append(f"  {amount} chips stay in the pot for the next deal")
        elif kind in ("check", "fold", "muck", "pass", "declare", "false_opener"):
            lines.append(f"  {who} {words[kind]}")
        elif kind == "reshuffle":
            lines.append(f"  the stub ran out: {amount} earlier discards are reshuffled")
        else:
            lines.append(f"  {who} {words.get(kind, kind)} {amount}")
    result = state.result
    if result is not None:
        lines.append(f"  outcome: {result.outcome.replace('_', ' ')}; net "
                     + " ".join(f"{n:+d}" for n in result.net))
    return "\n".join(lines)


class HistoryWriter:
    """Writes deals to a JSON-lines file (``.jsonl``/``.json``) or a text log (any other suffix)."""

    def __init__(self, path: str | Path, rules: RuleSet, *, seed: int | None = None,
                 players: Sequence[str] = ()) -> None:
        self.path = Path(path)
        self.json = self.path.suffix.lower() in (".jsonl", ".json", ".ndjson")
        self.file: IO[str] = self.path.open("w", encoding="utf-8")
        if self.json:
            header = {"format": FORMAT, "rules": rules.to_dict(),
                      "players": len(players) or rules.players, "seed": seed, "policies": list(players)}
            self.file.write(json.dumps(header, ensure_ascii=False) + "\n")
        else:
            self.file.write(f"# drawodds hand history: {rules.name}, seed {seed}, "
                            f"policies {', '.join(players)}\n")

    def write(self, state: DealState) -> None:
        """Append one finished deal."""
        if self.json:
            self.file.write(json.dumps(deal_record(state), separators=(",", ":")) + "\n")
        else:
            self.file.write(text_log(state) + "\n\n")

    def close(self) -> None:
        self.file.close()

    def __enter__(self) -> HistoryWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_history(path: str | Path) -> tuple[dict[str, Any], Iterator[dict[str, Any]]]:
    """The header and an iterator over the deal records of a JSON-lines history."""
    handle = Path(path).open(encoding="utf-8")
    first = handle.readline()
    try:
        header = json.loads(first)
    except json.JSONDecodeError as exc:
        handle.close()
        raise RequestError("{path} is not a JSON-lines history ({reason})", path=path, reason=exc.msg) from None
    if header.get("format") != FORMAT:
        handle.close()
        raise RequestError("{path} is not a drawodds history (format {format})", path=path,
                           format=repr(header.get('format')))

    def deals() -> Iterator[dict[str, Any]]:
        with handle:
            for line in handle:
                if line.strip():
                    yield json.loads(line)
    return header, deals()


class _Script:
    """Plays back recorded actions, seat by seat."""

    def __init__(self, actions: list[list[Any]]) -> None:
        self.actions = actions
        self.next = 0

    def take(self, seat: int) -> tuple[str, tuple[int, ...]]:
        recorded_seat, kind, discards = self.actions[self.next]
        self.next += 1
        if recorded_seat != seat:
            raise RequestError("history out of step: seat {seat} to act, record says seat {recorded}", seat=seat,
                               recorded=recorded_seat)
        return kind, tuple(discards)


def replay_deal(rules: RuleSet, record: dict[str, Any]) -> DealState:
    """Play one recorded deal again from its deck and actions; returns the finished state."""
    reshuffles = iter(record["reshuffles"])
    state = DealState(rules, record["stacks"], record["button"], record["deck"],
                      carried=record["carried_in"], antes=record["antes"], deal_id=record["deal"],
                      reshuffle=lambda cards: list(next(reshuffles)))
    script = _Script(record["actions"])
    while state.actor is not None:
        if script.next < len(script.actions) and script.actions[script.next][1] == "expose":
            script.next += 1
            state.expose_false_opener()
            continue
        kind, discards = script.take(state.actor)
        state.apply(Action(kind, discards))
    return state


def replay(path: str | Path) -> list[DealResult]:
    """Replay every deal of a JSON history; raise ValueError at the first deal that ends differently."""
    header, deals = read_history(path)
    rules = RuleSet.from_dict(header["rules"])
    results = []
    for record in deals:
        state = replay_deal(rules, record)
        result = state.result
        assert result is not None
        if list(result.net) != record["net"] or result.carried_out != record["carried_out"]:
            raise RequestError("deal {deal} replays to net {net}, carried {carried}; the history says {recorded_net}, "
                               "{recorded_carried}", deal=record['deal'], net=list(result.net),
                               carried=result.carried_out, recorded_net=record['net'],
                               recorded_carried=record['carried_out'])
        results.append(result)
    return results


__all__ = ["HistoryWriter", "deal_record", "read_history", "replay", "replay_deal", "text_log"]
