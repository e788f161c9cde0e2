"""A person plays a Buraco hand in the browser: draw, meld when possible, discard."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import shot
from tests.browser.ui import BU_PHASE, buraco_turn, play_buraco_hand, start_with_bots

pytestmark = pytest.mark.browser

SORT_KEY = """() => [...document.querySelectorAll('.bu-hand .card')].map(c => c.dataset.code)"""


def test_a_person_plays_a_buraco_hand_by_clicking(open_page: Any) -> None:
    page = open_page("desktop")
    start_with_bots(page, "buraco")
    # The hand is sorted by suit, then rank (ace low), jokers last.
    hand = page.evaluate(SORT_KEY)
    assert len(hand) == 11
    suits = "SHCD"
    ranks = "A23456789TJQK"
    keys = [(100, 0) if c == "JK" else (suits.index(c[1]), ranks.index(c[0])) for c in hand]
    assert keys == sorted(keys)
    assert page.locator(".bu-others .badge.bot").count() == 3
    assert page.locator(".mortos .morto").count() == 2

    # A first turn by hand, then the rest of the hand the same way.
    page.wait_for_function(f"() => {BU_PHASE} === 'draw'", timeout=30_000, polling=50)
    assert page.locator("[data-action=draw]:not([disabled])").count() == 1
    first = buraco_turn(page)
    assert first[0] == "draw" and first[-1].startswith("discard")
    # A few more turns until both sides have laid something down: the screenshot.
    turns = [first]
    both = (
        "document.querySelector('.bu-melds.us .meld')"
        " && document.querySelector('.bu-melds.them .meld')"
    )
    while not page.evaluate(f"!!({both})") and len(turns) < 8:
        page.wait_for_function(
            f"() => {BU_PHASE} === 'draw' || document.querySelector('.bu-results table')",
            timeout=30_000,
            polling=50,
        )
        if page.evaluate(BU_PHASE) != "draw":
            break
        turns.append(buraco_turn(page))
    shot(page, "buraco-ar-desktop", full_page=False)
    turns += play_buraco_hand(page)
    assert len(turns) >= 3
    melded = [a for turn in turns for a in turn if a.startswith(("meld", "add"))]

    # The hand ended: its breakdown per side, and the running score.
    results = page.locator(".bu-results .result-table")
    results.first.wait_for()
    assert results.first.locator("tr.total td").count() == 2
    assert page.locator(".bu-score .score-item").count() == 2
    if melded:
        assert page.locator(".move-words li").count() >= 1
    shot(page, "buraco-results", full_page=True)


def test_the_server_refuses_a_bad_meld_and_says_why(open_page: Any) -> None:
    """Any cards may be laid down; the engine decides, and its reason is shown."""
    page = open_page("phone", lang="en")
    start_with_bots(page, "buraco")
    page.wait_for_function(f"() => {BU_PHASE} === 'draw'", timeout=30_000, polling=50)
    page.click("[data-action=draw]")
    page.wait_for_function(f"() => {BU_PHASE} === 'play'", polling=50)
    hand = page.evaluate(SORT_KEY)
    # Without sets a meld is a sequence of one suit with at most one wild card (a 2 or a
    # joker): three natural cards of more than one suit never make one.
    naturals = [i for i, code in enumerate(hand) if code != "JK" and code[0] != "2"]
    other = [i for i in naturals if hand[i][1] != hand[naturals[0]][1]]
    assert other, f"a hand of one suit: {hand}"
    picked = [naturals[0], other[0], next(i for i in naturals if i not in (naturals[0], other[0]))]
    cards = page.locator(".bu-hand button.card")
    for index in picked:
        cards.nth(index).click()
    assert page.locator(".bu-hand .card.selected").count() == 3
    page.click("[data-action=meld]")
    toast = page.locator(".toast.error")
    toast.first.wait_for()
    # The rules' reason, in the player's language, not the engine's English: suits mixed
    # (or, three of one rank, sets that this table does not play).
    assert toast.first.text_content() in (
        "A sequence must be all one suit",
        "Sets of one rank aren't played at this table: sequences only",
    )
    # Still our turn, still the same hand: we may choose again.
    page.wait_for_function(f"() => {BU_PHASE} === 'play'", polling=50)
    assert len(page.evaluate(SORT_KEY)) == 12
    shot(page, "buraco-en-phone", full_page=True)


def test_a_buraco_replay_shows_every_hand(open_page: Any) -> None:
    """The replay viewer draws Buraco frames (a match is too long to finish in a test).

    The frames are built the way the server's replay builds them (the view
    with every seat's hand), from a live table, and served in place of
    /api/records/ID/replay.
    """
    page = open_page("desktop")
    start_with_bots(page, "buraco")
    view = page.evaluate("window.sahrat.tableScreen.msg.view")
    seats = range(len(view["hand_sizes"]))
    position = {k: v for k, v in view.items() if k not in ("hand", "seat")}
    position["hands"] = {str(s): view["hand"] if s == 0 else ["2C", "JK", "AS"] for s in seats}
    position["melds"] = [[{"cards": ["5C", "6C", "7C", "8C", "9C", "TC", "JC"], "kind": "sequence",
                           "clean": True}], []]  # fmt: skip
    frames = [
        {"index": i, "seat": None if i == 0 else 1, "action": None if i == 0 else "draw",
         "words": None if i == 0 else {"en": "Maryam draws from the stock", "ar": "مريم يسحب"},
         "position": position}
        for i in range(3)
    ]  # fmt: skip
    players = [{"seat": s, "name": f"P{s}", "bot": s > 0} for s in seats]
    body = {"game": "buraco", "players": players, "frames": frames}
    page.route("**/api/records/tFAKE/replay", lambda route: route.fulfill(json=body))
    page.click("[data-action=leave]")
    page.click("[data-action=confirm-leave]")
    page.wait_for_selector("#lobby")
    page.evaluate("location.hash = 'replay=tFAKE'")
    page.wait_for_selector("#replay .replay-bu")
    assert page.locator(".replay-hand").count() == 4
    assert page.locator(".replay-bu .meld.canasta-clean").count() == 1
    page.click("[data-step=next]")
    assert page.locator(".replay-words").text_content() == "مريم يسحب"
