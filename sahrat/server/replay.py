"""A finished game's record as frames to step through, every hand visible.

Only for records whose server seed is revealed: replaying the log from the
record needs the shuffles, which a running game's record does not carry.
"""

from __future__ import annotations

from typing import Any

from sahrat.cards import CODES
from sahrat.errors import MalformedInput
from sahrat.fairness import FairSource, Seeds, parse_seed_hex
from sahrat.game import CHANCE
from sahrat.games.jackaroo.position import to_position
from sahrat.records import GAMES
from sahrat.server.games import view_json
from sahrat.server.words import describe


def full_position(game: str, state: Any) -> dict[str, Any]:
    """Everything on the table, every hand included."""
    seats = GAMES[game].seats(state)
    if game == "jackaroo":
        return to_position(state, visible=seats, stock_visible=False)
    view = view_json(state, seats[0])
    view["hands"] = {str(s): [CODES[c] for c in sorted(state.hand(s))] for s in seats}
    del view["hand"], view["seat"]
    return view


def frames(record: dict[str, Any]) -> list[dict[str, Any]]:
    """One frame per move (chance steps folded into the move before them)."""
    if not isinstance(record.get("server_seed"), str):
        raise MalformedInput("the game is not over: no replay yet", record.get("game_id"))
    game = record["game"]
    rules = GAMES[game]
    seeds = Seeds(
        parse_seed_hex(record["server_seed"]), record["game_id"], tuple(record["client_seeds"])
    )
    source = FairSource(seeds)
    state = rules.new_state(record["options"])
    names = {p["seat"]: p["name"] for p in record["players"]}

    def settle() -> None:
        while state.current_player() == CHANCE:
            state.apply_action(state.sample_chance(source))

    settle()
    out = [
        {
            "index": 0,
            "seat": None,
            "action": None,
            "words": None,
            "position": full_position(game, state),
        }
    ]
    for entry in record["log"]:
        seat = entry["seat"]
        if seat is None:
            continue
        action = state.parse_action(entry["action"])
        words = describe(game, state, seat, action, names.get(seat, str(seat)), names=names)
        state.apply_action(action)
        settle()
        out.append(
            {
                "index": len(out),
                "seat": seat,
                "action": entry["action"],
                "words": words,
                "time": entry.get("time"),
                "position": full_position(game, state),
            }
        )
    return out
