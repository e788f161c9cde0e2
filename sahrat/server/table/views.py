"""What each seat is sent: the ``table`` message, the lobby's summary, the seed request.

A ``table`` message is the part every seat sees alike (seats, stage, clock,
last moves, result) and the seat's own part (its view from the engine, its
legal moves). :func:`encode_shared` encodes the first once per change and
:func:`encode_for` adds each seat's part to it, so a broadcast to many
connections costs one encoding of what they share.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from sahrat import fairness
from sahrat.server import protocol
from sahrat.server.jsontext import encode_utf8
from sahrat.server.table.state import FINISHED, PLAYING, TableState

#: The commitment of a table's server seed, hashed once rather than for every message
#: (about 2 % of a move's CPU at think 0); a table's seed never changes.
commitment = lru_cache(maxsize=4096)(fairness.commitment)


def summary(table: TableState) -> dict[str, Any]:
    """What the lobby shows (never a private table's code)."""
    return {
        **_described(table),
        "players": [seat.public(n) for n, seat in table.seats.items() if seat is not None],
    }


def _described(table: TableState) -> dict[str, Any]:
    """The table's game, terms and status: the summary without its players."""
    return {
        "id": table.id,
        "game": table.rules.name,
        "options": table.options,
        "seats": len(table.seat_numbers),
        "free": len(table.free_seats()),
        "kind": table.kind,
        "stake": table.stake,
        "pot": table.stake * len(table.seat_numbers),
        "turn_seconds": table.turn_seconds,
        "status": table.status,
    }


def shared(table: TableState, deadline: float | None, watching: int = 0) -> dict[str, Any]:
    """The part of the ``table`` message every seat (and spectator) receives alike;
    ``watching``: how many people watch the table."""
    message: dict[str, Any] = {
        "type": "table",
        # The players are in ``seats``, empty seats included: not repeated here (they
        # were a seventh of every message to encode and compress).
        "table": {**_described(table), "code": table.code, "host": table.host},
        "seats": [
            seat.public(n) if seat is not None else {"seat": n, "empty": True}
            for n, seat in table.seats.items()
        ],
        # Chat lines are not counted: a seat's view must not change with the other
        # side's team chat.
        "seq": table.seq - table.chat_lines,
        "moves": table.moves,
        "watching": watching,
        "spectators": {"allow": table.watchable, "chat": table.spectator_chat},
    }
    if table.rematch_of:
        message["rematch_of"] = table.rematch_of
    if table.server_seed is not None:
        message["commitment"] = commitment(table.server_seed)
    if table.seeds is not None:
        message["client_seeds"] = list(table.seeds.client_seeds)
        message["game_id"] = table.seeds.game_id
    recorder = table.recorder
    if recorder is not None:
        state = recorder.state
        current = state.current_player()
        message["to_move"] = current if current >= 0 else None
        message["deadline"] = deadline
        message["last"] = list(table.last)
        outcome = state.outcome()
        if outcome is not None:
            message["result"] = {
                "winners": list(outcome.winners),
                "record": f"/api/records/{table.id}",
            }
            if table.coins is not None:
                message["coins"] = _coins(table.coins, table.seat_numbers)
            if table.status == FINISHED and table.server_seed is not None:
                # The reveal: with it anyone can check the commitment and every shuffle.
                message["server_seed"] = table.server_seed.hex()
    return message


def _coins(settled: dict[str, Any], seats: tuple[int, ...]) -> dict[str, Any]:
    """The settlement, with what each seat won or lost (``paid`` minus the stake)."""
    paid: dict[str, int] = settled["paid"]
    net = {str(n): paid.get(str(n), 0) - settled["stake"] for n in seats}
    return {**settled, "net": net}


def own(table: TableState, player: str) -> dict[str, Any]:
    """The part of the ``table`` message only ``player``'s seat receives."""
    seat_number = table.seat_of(player)
    part: dict[str, Any] = {"you": seat_number}
    recorder = table.recorder
    if recorder is not None and seat_number is not None:
        state = recorder.state
        part["view"] = state.view(seat_number).to_json()
        if state.current_player() == seat_number and table.status == PLAYING:
            part["legal"] = [str(a) for a in state.legal_actions()]
    return part


def spectator(table: TableState) -> dict[str, Any]:
    """The part of the ``table`` message a spectator receives instead of a seat's own:
    the position with every hand shown as its size only."""
    part: dict[str, Any] = {"you": None, "spectator": True}
    recorder = table.recorder
    if recorder is not None:
        state = recorder.state
        part["view"] = hands_hidden(state.view(table.seat_numbers[0]).to_json())
    return part


def hands_hidden(view: dict[str, Any]) -> dict[str, Any]:
    """A seat's view with that seat's cards taken out: what every seat may see.

    The engines' views show one hand (``hand``, or that seat's entry of ``hands``)
    and only sizes of the others; both forms are reduced to sizes here.
    """
    out = dict(view)
    out["seat"] = None
    if isinstance(out.get("hand"), list):
        out["hand"] = []
    hands = out.get("hands")
    if isinstance(hands, dict):
        out["hands"] = {k: len(v) if isinstance(v, list) else v for k, v in hands.items()}
    return out


def encode_shared(table: TableState, deadline: float | None, watching: int = 0) -> bytes:
    """The shared part, encoded (UTF-8), without its closing brace (see :func:`encode_for`)."""
    return protocol.dumps_utf8(shared(table, deadline, watching))[:-1]


def encode_for(shared_text: bytes, table: TableState, player: str) -> bytes:
    """A whole ``table`` message for ``player``: the shared text and its own part."""
    return shared_text + b"," + encode_utf8(own(table, player))[1:]


def encode_spectator(shared_text: bytes, table: TableState) -> bytes:
    """A whole ``table`` message for a spectator: the shared text and the spectator's part."""
    return shared_text + b"," + encode_utf8(spectator(table))[1:]


def whole(
    table: TableState, deadline: float | None, player: str, watching: int = 0
) -> dict[str, Any]:
    """The ``table`` message for ``player``, as one object."""
    return {**shared(table, deadline, watching), **own(table, player)}


def seed_request(table: TableState) -> dict[str, Any]:
    assert table.server_seed is not None
    return {
        "type": "seed_request",
        "table": table.id,
        "commitment": commitment(table.server_seed),
    }
