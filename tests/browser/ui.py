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
    """Open a new table of ``game`` from the lobby's form and fill its empty seats with
    bots; returns when the game runs.

    Not "play now": that may seat the page at a waiting table an earlier test walked
    away from, whose absent person then holds up every round for a whole turn clock.
    """
    page.click(f".create-form [data-game={game}]")
    page.click(".create-form [data-action=create]")
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


# -- accounts and coins --------------------------------------------------------------------

PASSWORD = "lanterns and tea"


def fresh_name(prefix: str = "Reem") -> str:
    """A name no other test registers: account names are unique on the shared server."""
    import secrets

    return f"{prefix} {secrets.token_hex(3)}"


def balance(page: Any) -> int | None:
    """The balance the header shows, or None (a guest has none)."""
    found = page.evaluate("document.querySelector('.app-head .balance')?.dataset.balance ?? null")
    return None if found is None else int(found)


def wait_balance(page: Any, amount: int) -> None:
    page.wait_for_function(
        "n => document.querySelector('.app-head .balance')?.dataset.balance === String(n)",
        arg=amount,
    )


def open_auth(page: Any, tab: str) -> None:
    """From the header's "log in" (a guest's), to the log-in or registration form."""
    page.click(".app-head [data-action=login]")
    page.click(f"#auth [data-tab={tab}]")
    page.wait_for_selector(f"#auth[data-mode={tab}] form")


def register(page: Any, name: str, password: str = PASSWORD) -> None:
    """Register the guest of this page as ``name``; returns once the header shows coins."""
    open_auth(page, "register")
    page.fill("#auth input[name=name]", name)
    page.fill("#auth input[name=password]", password)
    page.click("#auth [data-action=register]")
    page.wait_for_selector(".app-head .balance")
    page.wait_for_selector("#lobby")


def log_in(page: Any, name: str, password: str = PASSWORD) -> None:
    open_auth(page, "login")
    page.fill("#auth input[name=name]", name)
    page.fill("#auth input[name=password]", password)
    page.click("#auth [data-action=login]")
    page.wait_for_selector(".app-head .balance")


def form_error(page: Any) -> tuple[str, str]:
    """The form's refusal: its code and its words."""
    box = page.locator("#auth .form-error:not([hidden])")
    box.wait_for()
    return box.get_attribute("data-code") or "", box.text_content() or ""


def create_coin_table(page: Any, game: str, seats: int, stake: int) -> None:
    """Create a public coin table from the lobby's form; returns in its waiting room."""
    page.click(f".create-form [data-game={game}]")
    page.click(f".create-form [data-seats='{seats}']")
    page.click(".create-form [data-kind=coin]")
    page.click(f".create-form .kind-field [data-stake='{stake}']")
    page.click(".create-form [data-action=create]")
    page.wait_for_selector("#table .room")


def data_of(page: Any, selector: str, key: str) -> list[str]:
    """``data-KEY`` of every element matching ``selector``, in page order."""
    found: list[str] = page.eval_on_selector_all(
        selector, "(es, key) => es.map(e => e.dataset[key])", key
    )
    return found


#: Where the account and coin tests leave their pictures of the new screens.
SHOTS = "/tmp/sahrat-shots"


def snap(page: Any, name: str, full_page: bool = True) -> None:
    """A picture of the screen (SHOTS/NAME.png), after checking nothing scrolls sideways."""
    import os

    os.makedirs(SHOTS, exist_ok=True)
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0, name
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=f"{SHOTS}/{name}.png", full_page=full_page)


def account_server(data_dir: Any, **settings: Any) -> Any:
    """A server for the account and coin tests, as the suite's own (conftest.py) but with
    room for many accounts and log-ins: every browser of a test run comes from 127.0.0.1,
    and the per-address limits have tests of their own on the server's side."""
    from tests.browser.conftest import need_chromium
    from tests.server.harness import running

    need_chromium()
    return running(
        data_dir,
        bot_delay=0.05,
        turn_seconds=20,
        min_turn_seconds=3,
        seed_seconds=1.0,
        finished_linger=30.0,
        accounts_burst=100_000,
        logins_burst=100_000,
        name_logins_burst=100_000,
        **settings,
    )


# -- a Jackaroo table from a made-up message ----------------------------------------------

#: Seat names: ours has a digit (isolation in English), the bots are Arabic.
JK_NAMES = ("Reem 2", "فهد", "مريم", "نورة")


def jk_message(
    legal: list[str] | None,
    hand: list[str],
    marbles: dict[str, list[str]],
    to_move: int = 0,
    deadline: float | None = None,
) -> dict[str, Any]:
    """A table message for seat 0 of a four-seat Jackaroo table, as the server sends it."""
    message: dict[str, Any] = {
        "type": "table",
        "table": {
            "id": "tmadeup",
            "game": "jackaroo",
            "status": "playing",
            "kind": "free",
            "turn_seconds": 20,
            "options": {"preset": "sahrat"},
        },
        "seats": [
            {"seat": i, "name": name, "bot": i > 0, "connected": True, "away": False}
            for i, name in enumerate(JK_NAMES)
        ],
        "you": 0,
        "to_move": to_move,
        "moves": 7,
        "deadline": deadline,
        "last": [],
        "view": {
            "game": "jackaroo",
            "options": {"preset": "sahrat", "seats": 4},
            "turn": to_move,
            "dealer": 1,
            "marbles": marbles,
            "hands": {"0": hand, "1": 4, "2": 4, "3": 4},
            "stock": 30,
            "discard": ["5C"],
            "seat": 0,
        },
    }
    if legal is not None:
        message["legal"] = legal
    return message


#: Mount a JackarooTable alone on the page with a made-up message; what it sends is kept.
MOUNT_JK = """async ([msg, lang]) => {
  const i18n = await import('/static/i18n.js');
  i18n.setLang(lang);
  const { JackarooTable } = await import('/static/jackaroo-table.js');
  window.__sent = [];
  const send = (type, body) => { window.__sent.push(body.action); return 1; };
  const table = new JackarooTable({ send });
  document.getElementById('app').replaceChildren(table.el);
  table.update(msg);
  window.__jk = table;
  // The board takes its size after the first frame: taps wait for it.
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
}"""


def mount_jackaroo(page: Any, message: dict[str, Any], lang: str = "ar") -> None:
    page.evaluate(MOUNT_JK, [message, lang])


def turn_line(page: Any) -> str:
    return (page.locator(".turn-line").text_content() or "").strip()


def sent(page: Any) -> list[str]:
    found: list[str] = page.evaluate("window.__sent")
    return found
