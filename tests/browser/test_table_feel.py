"""The Jackaroo table's feel in Chromium: its size on screen, finger-sized targets,
motion, previews before a move, burning hints, the clock, sound, words and the
installable app.

Live tables play against the suite's quick bots; the finer cases (a capture of
the partner's marble, a split seven, a T that can only burn) mount the table
component alone with a made-up table message, as the server would send it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.bot_game import BotGame
from tests.browser.conftest import shot
from tests.browser.ui import (
    JK_MY_TURN,
    JK_NAMES,
    TABLE_STATUS,
    jackaroo_turn,
    jk_message,
    mount_jackaroo,
    sent,
    start_with_bots,
    tap,
    turn_line,
)
from tests.server.harness import Server

pytestmark = pytest.mark.browser

#: Board squares and engine notation: never in what a player reads.
NOTATION = re.compile(r"\b(?:t\d{1,2}|h[0-3]\.[1-4]|b[0-3])\b|[A2-9TJQK][SHDC] [tbh]\d|~")
ARABIC_INDIC = re.compile("[\u0660-\u0669]")

#: Every tappable thing of the Jackaroo table and the header, as [what, width, height].
TAPPABLE = """() => [...document.querySelectorAll(
    '.jk-hand button.card, .jk-table button, .jk-table summary, .table-head button,'
    + ' .app-head button, .jk-board .marble.movable .hit, .jk-board .target .hit')]
  .filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden'
               && !e.closest('[hidden]'))
  .map(e => { const b = e.getBoundingClientRect();
              return [e.outerHTML.slice(0, 60), b.width, b.height]; })"""
BOX = """s => { const e = document.querySelector(s); if (!e) return null;
  const b = e.getBoundingClientRect(); return {x: b.left, y: b.top, w: b.width, h: b.height}; }"""

SIZES = {"phone": (390, 844), "small": (360, 640), "desktop": (1440, 900)}


@pytest.fixture
def page_at(browser: Any, open_page: Any) -> Iterator[Any]:
    """``page_at(width, height, motion="reduce", lang="ar")``: a page in its own context."""
    contexts: list[Any] = []

    def make(width: int, height: int, motion: str = "reduce", lang: str = "ar") -> Any:
        context = browser.new_context(
            viewport={"width": width, "height": height}, reduced_motion=motion
        )
        contexts.append(context)
        if lang != "ar":
            context.add_init_script(f"localStorage.setItem('sahrat.lang', '{lang}')")
        return open_page(context=context)

    yield make
    for context in contexts:
        context.close()


def until_board_choice(page: Any) -> None:
    """Wait for a turn of ours where a card moves a marble; choose it and a marble."""
    for _ in range(40):
        page.wait_for_function(f"() => {JK_MY_TURN}", timeout=30_000, polling=50)
        card = page.locator(".jk-hand button.card[data-use=board]")
        if card.count():
            tap(card.first)
            try:
                page.wait_for_selector(".jk-board .target, .jk-board .marble.movable", timeout=2000)
            except Exception:
                continue  # the turn moved on under the tap: try the next one
            if not page.locator(".jk-board .target").count():
                tap(page.locator(".jk-board .marble.movable").first)
            if page.locator(".jk-board .target").count():
                return
            continue
        before = page.locator(".jk-table").get_attribute("data-moves")
        jackaroo_turn(page)
        page.wait_for_function(
            f"() => document.querySelector('.jk-table')?.dataset.moves !== '{before}'", polling=50
        )
    raise AssertionError("no turn with a move on the board")


@pytest.mark.parametrize("size", list(SIZES))
def test_the_board_fills_the_screen_and_every_target_takes_a_finger(
    page_at: Any, size: str
) -> None:
    width, height = SIZES[size]
    page = page_at(width, height)
    start_with_bots(page, "jackaroo")
    until_board_choice(page)
    # A click scrolls what it clicks into view; the question is what the screen shows at the top.
    page.evaluate("window.scrollTo(0, 0)")
    # Marbles that just became movable fade in; their boxes are measured once they have.
    page.wait_for_timeout(300)
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    board = page.evaluate(BOX, ".jk-board")
    # The hand and the action bar are on screen, without scrolling.
    for part in (".jk-hand", ".move-actions", ".turn-line"):
        box = page.evaluate(BOX, part)
        assert box["y"] + box["h"] <= height, (part, board, turn_line(page))
    if size == "phone":
        assert board["w"] >= width - 2, "a phone's board spans the width"
    elif size == "desktop":
        assert board["y"] + board["h"] >= height - 24, "a desktop's board spans the height"
        assert board["w"] >= 0.8 * (height - board["y"])
    else:
        assert board["w"] >= 280  # a short screen gives the hand its room first
    small = [t for t in page.evaluate(TAPPABLE) if t[1] < 43.5 or t[2] < 43.5]
    assert small == []
    assert page.locator(".jk-board .target .hit, .jk-board .marble.movable .hit").count() >= 1
    if size != "small":
        shot(page, f"jackaroo-table-ar-{size}", full_page=False)


def test_in_english_the_table_reads_left_to_right_with_names_isolated(page_at: Any) -> None:
    page = page_at(*SIZES["desktop"], lang="en")
    start_with_bots(page, "jackaroo")
    until_board_choice(page)
    assert page.evaluate("document.documentElement.dir") == "ltr"
    shot(page, "jackaroo-table-en-desktop", full_page=False)
    phone = page_at(*SIZES["phone"], lang="en")
    start_with_bots(phone, "jackaroo")
    until_board_choice(phone)
    shot(phone, "jackaroo-table-en-phone", full_page=False)


def test_previews_split_seven_and_greyed_cards(open_page: Any) -> None:
    page = open_page("desktop")
    marbles = {
        "0": ["t5", "t40", "t74", "b"],
        "1": ["t12", "b", "b", "b"],  # an opponent seven squares ahead
        "2": ["t8", "b", "b", "b"],  # the partner three squares ahead
        "3": ["b", "b", "b", "b"],
    }
    legal = ["7H t5-t12", "7H t5-t7 t40-t45", "7H t5-t8 t40-t44", "7H t40-t47", "3S t74-h0.2"]
    mount_jackaroo(page, jk_message(legal, ["7H", "3S", "QD"], marbles))

    tap(page.locator(".jk-hand .card[data-code='7H']"))
    tap(page.locator(".jk-board .marble[data-loc='t5']"))
    targets = page.locator(".jk-board .target")
    assert sorted(targets.evaluate_all("es => es.map(e => e.dataset.loc)")) == ["t12", "t7", "t8"]
    # What each square will do, on the square and in words.
    opponent = page.locator(".jk-board .target[data-loc='t12']")
    assert opponent.get_attribute("data-effect") == "capture"
    assert opponent.get_attribute("data-victims") == "1"
    assert opponent.locator(".target-steps").text_content() == "7"
    partner = page.locator(".jk-board .target[data-loc='t8']")
    assert "partner" in (partner.get_attribute("class") or "")
    assert partner.locator(".target-steps").text_content() == "3"
    assert page.locator(".jk-board .target[data-loc='t7'] .target-steps").text_content() == "2"
    line = turn_line(page)
    assert f"تاكل بلية {JK_NAMES[1]}" in line
    assert f"تاكل بلية شريكك {JK_NAMES[2]}!" in line
    label = re.sub("[\u2068\u2069]", "", partner.locator("title").text_content() or "")
    assert label == f"تاكل بلية شريكك {JK_NAMES[2]}! · 3 خطوات"

    # A split: the steps used and left, then the second marble finishes the seven.
    tap(partner)
    assert turn_line(page) == "تقسم السبعة: 3 + 4، اختر بلية تمشي 4"
    tap(page.locator(".jk-board .marble[data-loc='t40']"))
    assert sent(page) == ["7H t5-t8 t40-t44"]

    mount_jackaroo(page, jk_message(legal, ["7H", "3S", "QD"], marbles))
    # Entering home: one marble can move, so its target shows at once.
    tap(page.locator(".jk-hand .card[data-code='3S']"))
    home = page.locator(".jk-board .target[data-loc='h0.2']")
    assert home.get_attribute("data-effect") == "home"
    assert "تدخل البيت" in turn_line(page)

    # The move list says every move in words, never in notation.
    tap(page.locator(".jk-hand .card[data-code='7H']"))
    page.click(".move-list summary")
    words = page.locator(".move-buttons button").all_text_contents()
    assert len(words) == 4
    assert "7♥: تقسم السبعة 2 + 5" in words
    assert any(f"تاكل بلية {JK_NAMES[1]}" in w for w in words)
    assert not [w for w in words if NOTATION.search(w)]

    # A greyed card says why when tapped.
    tap(page.locator(".jk-hand .card[data-code='QD']"))
    why = page.locator(".turn-text.why").text_content() or ""
    assert "Q♦" in why and "ما لها حركة" in why


def centre(page: Any, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    assert box
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_a_tap_between_two_targets_asks_again(open_page: Any) -> None:
    page = open_page("phone")
    marbles = {"0": ["t5", "t40", "b", "b"], **{str(s): ["b"] * 4 for s in (1, 2, 3)}}
    legal = ["7H t5-t12", "7H t5-t7 t40-t45", "7H t5-t8 t40-t44", "7H t40-t47"]
    mount_jackaroo(page, jk_message(legal, ["7H"], marbles))
    tap(page.locator(".jk-hand .card[data-code='7H']"))
    tap(page.locator(".jk-board .marble[data-loc='t5']"))
    # On a phone two neighbouring squares are closer than a finger: half-way, nothing plays.
    (x7, y7), (x8, y8) = (
        centre(page, ".target[data-loc='t7']"),
        centre(page, ".target[data-loc='t8']"),
    )
    assert abs(x7 - x8) + abs(y7 - y8) < 44
    page.mouse.click((x7 + x8) / 2, (y7 + y8) / 2)
    armed = page.locator(".jk-board .target.armed")
    assert armed.count() == 1
    assert turn_line(page).startswith("اضغط مرة ثانية تأكيد")
    # The same tap again plays the square it showed: the seven's first part.
    loc = armed.get_attribute("data-loc")
    page.mouse.click((x7 + x8) / 2, (y7 + y8) / 2)
    steps = {"t7": "2 + 5", "t8": "3 + 4"}[loc or ""]
    assert turn_line(page).startswith(f"تقسم السبعة: {steps}")
    assert sent(page) == []


def test_burning_is_explained(open_page: Any) -> None:
    page = open_page("phone")
    base = {str(s): ["b", "b", "b", "b"] for s in range(4)}
    mount_jackaroo(page, jk_message(["TD burn", "TD discard", "9S discard"], ["TD", "9S"], base))
    assert turn_line(page) == "ما عندك لعبة على اللوحة: لازم تحرق ورقة (10♦، 9♠)"
    tap(page.locator(".jk-hand .card[data-code='TD']"))
    assert turn_line(page) == f"العشرة هنا ما تمشي بلية: تحرق فيها ورقة من يد {JK_NAMES[1]}"
    burn = page.locator(".move-actions [data-kind=burn]")
    assert burn.text_content() == f"احرق ورقة من يد {JK_NAMES[1]}"
    tap(burn)
    assert sent(page) == ["TD burn"]

    mount_jackaroo(page, jk_message(["discard-all"], ["2S", "9S"], base))
    assert turn_line(page) == "ما عندك لعبة: تحرق كل أوراقك"

    # Not our turn: a tap on a card says so, and the names stay whole in English.
    mount_jackaroo(page, jk_message(None, ["2S", "9S"], base, to_move=2), lang="en")
    assert page.locator(".turn-line bdi").text_content() == JK_NAMES[2]
    tap(page.locator(".jk-hand .card[data-code='2S']"))
    assert turn_line(page) == "It isn't your turn yet"


MOTION = """async ([steps]) => {
  const { JackarooBoard } = await import('/static/jackaroo-board.js');
  const { parseMove } = await import('/static/jackaroo-moves.js');
  const board = new JackarooBoard(() => {});
  document.getElementById('app').replaceChildren(board.el);
  board.setSeats(0, [0, 1, 2, 3]);
  const calls = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (frames, options) {
    calls.push({ seat: this.dataset.seat, loc: this.dataset.loc, frames: frames.length,
                 props: Object.keys(frames[0]).filter((k) => k !== 'offset').sort(),
                 second: frames.length > 2 ? frames[1].transform : null,
                 delay: options.delay || 0 });
    return animate.call(this, frames, options);
  };
  const out = [];
  for (const [marbles, action] of steps) {
    calls.length = 0;
    board.render(marbles, action ? parseMove(action) : null, 800);
    out.push({ calls: [...calls], last: board.lastLayer.querySelectorAll('.last-to').length });
  }
  Element.prototype.animate = animate;
  const at = (loc) => board.where(loc).map((v) => v.toFixed(1) + 'px').join(', ');
  return { out, t8: at('t8'), t6: at('t6') };
}"""

START = {"0": ["t5", "t40", "b", "b"], "1": ["t9", "t30", "b", "b"], "2": ["b"] * 4, "3": ["b"] * 4}


def motion_steps() -> list[Any]:
    after_capture = {**START, "0": ["t9", "t40", "b", "b"], "1": ["b", "t30", "b", "b"]}
    back = {**after_capture, "0": ["t5", "t40", "b", "b"]}
    swap = {**back, "0": ["t30", "t40", "b", "b"], "1": ["b", "t5", "b", "b"]}
    split = {**swap, "0": ["t33", "t44", "b", "b"]}
    return [
        [START, None],
        [after_capture, "5H t5-t9"],
        [back, "4S t9-t5"],
        [swap, "JH t5~t30"],
        [split, "7C t30-t33 t40-t44"],
    ]


def test_marbles_walk_square_by_square(page_at: Any) -> None:
    page = page_at(*SIZES["desktop"], motion="no-preference")
    got = page.evaluate(MOTION, [motion_steps()])
    _, capture, back, swap, split = got["out"]
    # A capture: the mover walks four squares, then the captured marble goes home.
    walker = next(c for c in capture["calls"] if c["seat"] == "0")
    victim = next(c for c in capture["calls"] if c["seat"] == "1")
    assert walker["frames"] == 5 and walker["delay"] == 0
    assert walker["props"] == ["transform"]
    assert victim["loc"] == "b1" and victim["delay"] > 0
    # A 4 walks backwards: its first step is the square behind.
    assert back["calls"][0]["frames"] == 5 and got["t8"] in back["calls"][0]["second"]
    # A J swap: both marbles cross at once.
    assert len(swap["calls"]) == 2 and all(c["delay"] == 0 for c in swap["calls"])
    # A split seven: the second part starts when the first has finished.
    first, second = split["calls"]
    assert (first["frames"], second["frames"]) == (4, 5)
    assert second["delay"] > 0
    # The last move stays drawn.
    assert all(step["last"] >= 1 for step in (capture, back, swap, split))


def test_reduced_motion_fades_instead(open_page: Any) -> None:
    page = open_page("desktop")
    got = page.evaluate(MOTION, [motion_steps()])
    calls = [c for step in got["out"][1:] for c in step["calls"]]
    assert calls and all(c["props"] == ["opacity"] for c in calls)


#: Counts, from the page's start, the cards flying and the marbles walking.
WATCH_MOTION = """
window.__motion = { flights: 0, walks: 0, marked: 0 };
new MutationObserver((records) => {
  for (const r of records) for (const n of r.addedNodes) {
    if (n.classList && n.classList.contains('flying-card')) window.__motion.flights++;
    if (n.classList && n.classList.contains('last-to')) window.__motion.marked++;
  }
}).observe(document, { childList: true, subtree: true });
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  if (this.classList.contains('marble') && frames.length > 2) window.__motion.walks++;
  return animate.call(this, frames, options);
};
"""


def test_a_live_table_moves_cards_and_marbles(browser: Any, open_page: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        context.add_init_script(WATCH_MOTION)
        page = open_page(context=context)
        start_with_bots(page, "jackaroo")
        end = time.monotonic() + 60
        while time.monotonic() < end:
            seen = page.evaluate("window.__motion")
            if seen["flights"] >= 3 and seen["walks"] >= 1 and seen["marked"] >= 1:
                break
            if page.evaluate(f"() => {JK_MY_TURN}"):
                jackaroo_turn(page)
            page.wait_for_timeout(100)
        # Cards flew to the pile, marbles walked, and the last move was drawn on the board.
        assert seen["flights"] >= 3 and seen["walks"] >= 1 and seen["marked"] >= 1, seen
        # The big countdown waits by the hand for the last seconds.
        assert page.locator(".hand-area .big-clock").count() == 1
    finally:
        context.close()


FEEL = """async ([deadlineIn]) => {
  const { TableFeel, setFeelClock } = await import('/static/table-feel.js');
  setFeelClock(() => Date.now() / 1000);
  const anchor = document.createElement('div');
  anchor.className = 'hand-area';
  document.getElementById('app').replaceChildren(anchor);
  const feel = new TableFeel();
  const msg = (legal, deadline) => ({ table: { status: 'playing' }, you: 0, to_move: legal ? 0 : 1,
    legal, deadline, moves: 3, last: [], view: { marbles: {} } });
  feel.update(msg(null, null), anchor);
  feel.update(msg(['2S discard'], Date.now() / 1000 + deadlineIn), anchor);
  window.__feel = feel;
  return document.documentElement.dataset.lastSound;
}"""

HIDE = """() => {
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
  document.dispatchEvent(new Event('visibilitychange'));
  return [document.title, document.querySelector('link[rel=icon]').getAttribute('href')];
}"""


def test_the_last_seconds_and_the_background_tab(open_page: Any) -> None:
    page = open_page("phone")
    # The turn starts: a sound (and a buzz where the device has one).
    assert page.evaluate(FEEL, [12]) == "turn"
    assert page.locator(".big-clock").is_hidden()
    page.evaluate(FEEL, [4.5])
    clock = page.locator(".big-clock")
    clock.wait_for()
    assert clock.get_attribute("data-left") in ("4", "5")
    assert page.evaluate("document.documentElement.dataset.lastSound") == "tick"
    box = clock.bounding_box()
    assert box and box["width"] >= 60
    # In a background tab: the title and the favicon say it is our turn.
    title, icon = page.evaluate(HIDE)
    assert title == "● دورك! · سهرات"
    assert icon.endswith("favicon-turn.svg")


def test_the_mute_switch_is_remembered(open_page: Any, server: Server) -> None:
    page = open_page("phone")
    page.click("[data-play-now=jackaroo]")
    page.wait_for_selector("#table .room")
    switch = page.locator(".table-head [data-action=mute]")
    assert switch.get_attribute("aria-pressed") == "false"
    switch.click()
    assert page.evaluate("localStorage.getItem('sahrat.mute')") == "1"
    page.reload()
    page.wait_for_selector(".link-status.open")
    assert page.locator(".table-head [data-action=mute]").get_attribute("aria-pressed") == "true"
    # Muted, nothing sounds.
    page.evaluate(
        "async () => { document.documentElement.dataset.lastSound = '';"
        " (await import('/static/sound.js')).play('win'); }"
    )
    assert page.evaluate("document.documentElement.dataset.lastSound") == ""
    for name in ("turn", "card", "capture", "canasta", "win", "tick"):
        assert page.request.get(f"{server.url}/static/sounds/{name}.wav").ok


PLURALS = """async () => {
  const { t, setLang } = await import('/static/i18n.js');
  const out = {};
  setLang('ar');
  out.ar = [0, 1, 2, 3, 11, 100].map((n) => t('seat.cards', { n }));
  out.copied = t('room.copied');
  out.ten = t('rank.T');
  setLang('en');
  out.en = [1, 2].map((n) => t('seat.cards', { n }));
  setLang('ar');
  return out;
}"""


def test_arabic_plurals_and_one_numeral_style(open_page: Any) -> None:
    page = open_page("phone")
    got = page.evaluate(PLURALS)
    assert got["ar"] == ["ولا ورقة", "ورقة وحدة", "ورقتين", "3 أوراق", "11 ورقة", "100 ورقة"]
    assert got["en"] == ["1 card", "2 cards"]
    assert got["copied"] == "تم نسخ الرابط ✓"
    assert got["ten"] == "10"
    page.locator(".rules-details summary").click()
    assert not ARABIC_INDIC.search(page.locator("body").inner_text())


def test_the_app_can_be_installed(open_page: Any, server: Server) -> None:
    page = open_page("phone")
    manifest = page.request.get(f"{server.url}/static/manifest.webmanifest").json()
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert page.request.get(server.url + icon["src"]).ok
    scope = page.evaluate("async () => (await navigator.serviceWorker.ready).scope")
    assert scope == server.url + "/"
    # Controlled after a reload: the static files are kept, the API never.
    page.reload()
    page.wait_for_selector(".link-status.open")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.evaluate("async () => { await fetch('/static/style.css'); await fetch('/api/health'); }")
    page.wait_for_timeout(300)
    kept = page.evaluate(
        "async () => [!!(await caches.match('/static/style.css')),"
        " !!(await caches.match('/api/health'))]"
    )
    assert kept == [True, False]


#: The person's turns read (a whole game in the browser has its own test, test_jackaroo).
TURNS_READ = 12


def test_a_game_reads_in_words(open_page: Any) -> None:
    page = open_page("desktop")
    start_with_bots(page, "jackaroo")
    end = time.monotonic() + 180
    seen: list[str] = []
    while page.evaluate(TABLE_STATUS) != "finished" and len(seen) < TURNS_READ:
        assert time.monotonic() < end, "the turns did not come in time"
        page.wait_for_function(
            f"() => {JK_MY_TURN} || {TABLE_STATUS} === 'finished'", timeout=60_000, polling=50
        )
        if page.evaluate(TABLE_STATUS) == "finished":
            break
        card = page.locator(".jk-hand button.card.playable")
        if card.count():
            tap(card.first)
            if page.locator(".move-list:not([hidden]) summary").count():
                page.click(".move-list summary")
        # What the Jackaroo table shows a player, hints and move list included.
        seen.append(page.locator(".jk-table").inner_text())
        if page.locator(".move-actions [data-action=cancel]").count():
            tap(page.locator(".move-actions [data-action=cancel]"))
        before = page.locator(".jk-table").get_attribute("data-moves")
        jackaroo_turn(page)
        page.wait_for_function(
            f"() => document.querySelector('.jk-table')?.dataset.moves !== '{before}'"
            f" || {TABLE_STATUS} === 'finished'",
            polling=50,
        )
    assert len(seen) >= 5
    assert [text for text in seen if NOTATION.search(text)] == []


def test_a_replay_has_a_list_and_a_speed(open_page: Any, server: Server) -> None:
    with BotGame(server, "jackaroo") as played:
        pass  # played to its end on leaving the block
    assert played.result is not None
    page = open_page("desktop")
    page.goto(page.url.split("#")[0] + f"#replay={played.table_id}")
    page.wait_for_selector("#replay .replay-moves button")
    icon = page.locator("[data-step=play] svg")
    # Play is the same sign in Arabic: never mirrored.
    assert icon.evaluate("e => getComputedStyle(e).transform") in (
        "none",
        "matrix(1, 0, 0, 1, 0, 0)",
    )
    items = page.locator(".replay-moves button")
    assert items.count() >= 10
    items.nth(3).click()
    assert page.locator(".frame-count").get_attribute("data-frame") == "3"
    assert page.locator(".replay-moves [aria-current=step]").get_attribute("data-frame") == "3"
    page.select_option(".replay-speed", "4")
    page.click("[data-step=play]")
    page.wait_for_function(
        "() => Number(document.querySelector('.frame-count').dataset.frame) >= 6", timeout=3000
    )
