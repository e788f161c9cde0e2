"""Who a rated game's sides are, read back from a table's event log as stored: seats taken
and left before the deal, a host's order of the seats, bots, and players who left after."""

from __future__ import annotations

from typing import Any

from sahrat.server.people.ratings import leavers, lineup_at_deal

SEATS = (0, 1, 2, 3)


def seat(n: int, player: str, bot: bool = False) -> tuple[str, dict[str, Any], float]:
    return ("seat", {"seat": n, "player": player, "name": player, "bot": bot}, 1.0)


START = ("start", {"game_id": "g", "client_seeds": []}, 5.0)


def test_the_lineup_is_who_sat_where_at_the_deal_and_when() -> None:
    log = [seat(0, "a"), seat(1, "b"), ("unseat", {"seat": 1}, 2.0), seat(1, "c"),
           seat(2, "d"), seat(3, "e"), START, seat(3, "bot:3", bot=True)]  # fmt: skip
    assert lineup_at_deal(SEATS, log) == ({0: "a", 1: "c", 2: "d", 3: "e"}, 5.0)


def test_a_hosts_order_moves_the_players_to_their_new_seats() -> None:
    log = [seat(0, "a"), seat(1, "b"), seat(2, "c"), seat(3, "d"),
           ("assign", {"order": ["b", "a", "d", "c"]}, 3.0), START]  # fmt: skip
    assert lineup_at_deal(SEATS, log) == ({0: "b", 1: "a", 2: "d", 3: "c"}, 5.0)


def test_a_bot_at_the_deal_is_no_one() -> None:
    log = [seat(0, "a"), seat(1, "bot:1", bot=True), START]
    assert lineup_at_deal((0, 1), log) == ({0: "a", 1: None}, 5.0)


def test_a_game_never_dealt_has_no_lineup() -> None:
    assert lineup_at_deal((0, 1), [seat(0, "a"), seat(1, "b")]) is None


def testleavers_are_those_replaced_or_marked_left_after_the_deal() -> None:
    seated: dict[int, str | None] = {0: "a", 1: "b", 2: "c", 3: "d"}
    log = [seat(0, "a"), START, seat(1, "bot:1", bot=True), ("left", {"seat": 2}, 6.0),
           ("move", {"seat": 3, "action": "x", "auto": False}, 7.0)]  # fmt: skip
    assert leavers(seated, log) == {"b", "c"}


def test_a_seat_changed_before_the_deal_is_no_leaver() -> None:
    seated: dict[int, str | None] = {0: "a", 1: "c"}
    log = [seat(0, "a"), seat(1, "b"), seat(1, "c"), START]
    assert leavers(seated, log) == set()
