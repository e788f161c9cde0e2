"""What a person does in the browser client, as functions the tests share.

Everything here clicks what a player would click: cards, highlighted
marbles and squares, the stock, melds. Nothing sends protocol messages.
"""

from __future__ import annotations

import time
from typing import Any

#: True while the player may act at a Jackaroo table (set by jackaroo-table.js).
JK_MY_TURN = "document.querySelector('.jk-table')?.dataset.myTurn === '1'"
TABLE_STATUS = "document.querySelector('#table')?.dataset.status"


def status(page: Any) -> str | None:
    return page.evaluate(TABLE_STATUS)  # type: ignore[no-any-return]


def moves(page: Any, game: str = "jk") -> int:
    return int(page.evaluate(f"document.querySelector('.{game}-table')?.dataset.moves ?? -1"))


def start_with_bots(page: Any, game: str) -> None:
    """Play now, then fill the empty seats with bots; returns when the game runs."""
    page.click(f"[data-play-now={game}]")
    page.wait_for_selector("#table .room")
    page.click("[data-action=bots]")
    page.wait_for_function(f"() => {TABLE_STATUS} === 'playing'", timeout=20_000)


#: One look at a Jackaroo table: whose turn, and what the board offers to click.
JK_LOOK = """() => {
  const table = document.querySelector('.jk-table');
  const screen = document.querySelector('#table');
  return {
    moves: table ? table.dataset.moves : null,
    mine: !!table && table.dataset.myTurn === '1',
    status: screen ? screen.dataset.status : null,
    board: document.querySelectorAll('.jk-hand button.card[data-use=board]').length,
    target: document.querySelectorAll('.jk-board .target').length,
    movable: document.querySelectorAll('.jk-board .marble.movable').length,
    button: document.querySelectorAll('.move-actions button[data-kind]').length,
  };
}"""


def tap(locator: Any) -> None:
    """A real mouse click on the element, without Playwright's wait for it to be still.

    The board's marbles glide and pulse; waiting for two still frames before
    each of some 300 clicks doubles a whole game's time on a small machine.
    """
    locator.click(force=True)


def jackaroo_turn(page: Any) -> str:
    """Play one Jackaroo move by clicks; returns how it ended ("sent", "burn", "stuck").

    A card is chosen (one that moves a marble if the hand has one), then
    whatever the board highlights is clicked: a marble, then a square (and
    for a split 7, a second marble and square) until the move is sent.
    """
    look = page.evaluate(JK_LOOK)
    before = look["moves"]
    if look["board"]:
        tap(page.locator(".jk-hand button.card[data-use=board]").first)
    else:
        tap(page.locator(".jk-hand button.card.playable").first)
    for _ in range(8):
        look = page.evaluate(JK_LOOK)
        if look["moves"] != before or not look["mine"]:
            return "sent"
        if look["target"]:
            tap(page.locator(".jk-board .target").first)
        elif look["movable"]:
            tap(page.locator(".jk-board .marble.movable").first)
        elif look["button"]:
            tap(page.locator(".move-actions button[data-kind]").first)
            return "burn"
        else:
            break
    return "stuck"


def play_jackaroo_to_end(page: Any, deadline_s: float = 150) -> int:
    """Click a real move on every turn of ours until the game ends; returns our turns."""
    turns = 0
    end = time.monotonic() + deadline_s
    while True:
        assert time.monotonic() < end, "the game did not end in time"
        page.wait_for_function(
            f"() => {JK_MY_TURN} || {TABLE_STATUS} === 'finished'", timeout=60_000, polling=50
        )
        look = page.evaluate(JK_LOOK)
        if look["status"] == "finished":
            return turns
        before = look["moves"]
        jackaroo_turn(page)
        # Our move is answered by a new table message (the move count goes up).
        page.wait_for_function(
            f"() => (document.querySelector('.jk-table')?.dataset.moves ?? '') !== '{before}'"
            f" || {TABLE_STATUS} === 'finished'",
            timeout=30_000,
            polling=50,
        )
        turns += 1


BU_PHASE = "document.querySelector('.bu-table')?.dataset.phase"


def buraco_turn(page: Any) -> list[str]:
    """One Buraco turn by clicks: draw, lay down what the table suggests, discard."""
    done = []
    tap(page.locator("[data-action=draw]"))
    done.append("draw")
    # "sent" while the server has not answered; then "play" (or the hand is over).
    page.wait_for_function(f"() => !['draw', 'sent'].includes({BU_PHASE})", polling=50)
    for _ in range(6):
        if page.evaluate(BU_PHASE) != "play":
            return done
        suggestion = page.locator("[data-suggest]")
        if not suggestion.count():
            break
        action = suggestion.first.get_attribute("data-suggest") or ""
        before = moves(page, "bu")
        tap(suggestion.first)
        if action.startswith("meld "):
            tap(page.locator("[data-action=meld]"))
        else:
            tap(page.locator(f".bu-melds.us button.meld[data-meld='{action.split()[1]}']"))
        page.wait_for_function(
            f"() => document.querySelector('.bu-table')?.dataset.moves !== '{before}'"
            f" && {BU_PHASE} !== 'sent'",
            polling=50,
        )
        done.append(action)
    if page.evaluate(BU_PHASE) != "play":
        return done
    # Discard: the first card whose discard the table allows.
    cards = page.locator(".bu-hand button.card")
    for index in range(cards.count()):
        tap(cards.nth(index))
        if page.locator("[data-action=discard]:not([disabled])").count():
            code = cards.nth(index).get_attribute("data-code")
            tap(page.locator("[data-action=discard]"))
            done.append(f"discard {code}")
            break
        tap(cards.nth(index))
    return done


def play_buraco_hand(page: Any, deadline_s: float = 120) -> list[list[str]]:
    """Our turns, by clicks, until the first hand is scored (or the game ends)."""
    turns = []
    end = time.monotonic() + deadline_s
    hand_over = "document.querySelector('.bu-results .result-table') !== null"
    while not page.evaluate(hand_over) and status(page) != "finished":
        assert time.monotonic() < end, "the hand did not end in time"
        try:
            page.wait_for_function(
                f"() => {BU_PHASE} === 'draw' || {hand_over} || {TABLE_STATUS} === 'finished'",
                timeout=30_000,
                polling=50,
            )
        except Exception:
            continue
        if page.evaluate(hand_over) or status(page) == "finished":
            break
        turns.append(buraco_turn(page))
        page.wait_for_function(
            f"() => {BU_PHASE} !== 'play' || {hand_over}", timeout=20_000, polling=50
        )
    return turns
