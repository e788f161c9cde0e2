"""A finished game's record as frames to step through, every hand visible.

Only for records whose server seed is revealed: replaying the log from the
record needs the shuffles, which a running game's record does not carry.
"""

from __future__ import annotations

from typing import Any

from sahrat.errors import MalformedInput
from sahrat.fairness import FairSource, Seeds, parse_seed_hex
from sahrat.game import CHANCE
from sahrat.games import game_named
from sahrat.records import start_state


def frames(record: dict[str, Any]) -> list[dict[str, Any]]:
    """One frame per move (chance steps folded into the move before them)."""
    if not isinstance(record.get("server_seed"), str):
        raise MalformedInput("the game is not over: no replay yet", record.get("game_id"))
    game = game_named(record["game"])
    seeds = Seeds(
        parse_seed_hex(record["server_seed"]), record["game_id"], tuple(record["client_seeds"])
    )
    source = FairSource(seeds)
    state = start_state(game.name, record["options"])
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
            "position": game.full_view(state),
        }
    ]
    for entry in record["log"]:
        seat = entry["seat"]
        if seat is None:
            continue
        action = state.parse_action(entry["action"])
        words = game.describe(state, seat, action, names).to_json()
        state.apply_action(action)
        settle()
        out.append(
            {
                "index": len(out),
                "seat": seat,
                "action": entry["action"],
                "words": words,
                "time": entry.get("time"),
                "position": game.full_view(state),
            }
        )
    return out
