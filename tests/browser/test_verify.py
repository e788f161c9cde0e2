"""The Verify page recomputes a record's shuffles and derived seeds in the browser.

Steps 1–3 of fairness.md §4 and step 5: the seed of every seat that sent none
is the derived seed of §1.

Real Chromium (Debian's, through Playwright's sync API) against a real server
that serves ``/static/verify.html``. The records are made here, by the engines
through :class:`sahrat.records.Recorder`, never kept as fixtures; one finished
Buraco game is stored in the server's database so that the page can fetch it
by its address, as a player arriving from a finished table does.
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import insert

from sahrat.bots.buraco.greedy import GreedyBuracoBot
from sahrat.bots.jackaroo.greedy import GreedyJackarooBot
from sahrat.cards import BURACO_DECK, CODES
from sahrat.fairness import Seeds, Stream, commitment, derived_seed
from sahrat.games.buraco.deal import deal_cards
from sahrat.games.jackaroo import JackarooState, Options
from sahrat.records import Recorder, verify
from sahrat.server.schema import records
from sahrat.server.store import Store
from tests.browser.conftest import need_chromium, shot
from tests.server.harness import Server, running

pytestmark = pytest.mark.browser

#: The published test vector (``fairness-vector.txt`` beside the spec).
VECTOR = {
    "server_seed": bytes(range(32)).hex(),
    "commitment": "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
    "game_id": "demo-1",
    "client_seeds": "alice,bob,carol,dave",
    "label": "shuffle/0",
    "deck": "jackaroo",
    "first eight": "5S JS KC KH 5H TC QH 7C",
}
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}

BURACO_TABLE = "tverifybur01"


# -- records, made by the engines ----------------------------------------------------------


def _finish(recorder: Recorder, bots: dict[int, Any], limit: int = 5000) -> Recorder:
    recorder.run_chance()
    state: Any = recorder.state
    for _ in range(limit):
        if state.is_terminal():
            return recorder
        seat = state.current_player()
        recorder.play(seat, bots[seat].choose(state))
    raise AssertionError("the bots did not finish the game")


@functools.cache
def jackaroo_record(preset: str, seats: int, client_seeds: tuple[str, ...] = ()) -> str:
    """A finished Jackaroo game between greedy bots, as JSON text; seat 0 is the one person.

    The bots have their derived seeds unless ``client_seeds`` says otherwise.
    """
    options = Options.preset(preset, seats)
    order = JackarooState(options).seats
    server_seed = hashlib.sha256(f"verify-{preset}-{seats}".encode()).digest()
    derived = [derived_seed(commitment(server_seed), i) for i in range(len(order))]
    own = ("seat0x", *derived[1:])
    seeds = Seeds(server_seed, f"vj-{preset}-{seats}", client_seeds or own)
    players = [{"seat": s, "name": f"لاعب {s}", "bot": s != 0} for s in order]
    recorder = Recorder("jackaroo", options.to_json(), seeds, players, clock=lambda: 0.0)
    bots = {s: GreedyJackarooBot(random.Random(f"{preset}/{seats}/{s}")) for s in order}
    return json.dumps(_finish(recorder, bots).to_json())


@functools.cache
def buraco_record(players: int, game_id: str) -> str:
    """A finished Buraco match between greedy bots, as JSON text (seat 0 sent its own seed)."""
    server_seed = hashlib.sha256(f"verify-buraco-{players}".encode()).digest()
    derived = [derived_seed(commitment(server_seed), s) for s in range(players)]
    seeds = Seeds(server_seed, game_id, ("c0", *derived[1:]))
    names = ["مريم", "فهد", "نورة", "سالم"]
    seats = [{"seat": s, "name": names[s], "bot": s != 0} for s in range(players)]
    recorder = Recorder("buraco", {"players": players, "target": 2000}, seeds, seats,
                        clock=lambda: 0.0)  # fmt: skip
    bots = {s: GreedyBuracoBot(random.Random(s + 7)) for s in range(players)}
    record = _finish(recorder, bots).to_json()
    # More than one hand, so that the deal passes on (and a 2-player match's mortos are used).
    assert len(record["shuffles"]) >= 2
    return json.dumps(record)


def running_record() -> str:
    """A Jackaroo game a few moves in: its record has no seed, shuffles or deals yet."""
    options = Options.preset("sahrat", 4)
    seeds = Seeds(bytes(range(32)), "vj-running", ("a1", "b2", "c3", "d4"))
    players = [{"seat": s, "name": f"p{s}", "bot": True} for s in range(4)]
    recorder = Recorder("jackaroo", options.to_json(), seeds, players, clock=lambda: 0.0)
    bots = {s: GreedyJackarooBot(random.Random(s)) for s in range(4)}
    recorder.run_chance()
    for _ in range(6):
        seat = recorder.state.current_player()
        recorder.play(seat, bots[seat].choose(recorder.state))
    return json.dumps(recorder.to_json())


#: Buraco's "no endless hands" (buraco.md §4): turns in a row without a draw that end a hand.
IDLE_TURNS = 12


def idle_buraco_record(first_hand_turns: int) -> dict[str, Any]:
    """A four-player Buraco record written by hand, from the fair streams.

    In the first hand every seat takes the discard pile and throws a card back,
    ``first_hand_turns`` times; after twelve such turns the hand is over, and the
    next dealer's shuffle follows. In the second hand eleven such turns, one draw
    from the stock (which starts the count again) and eleven more keep it going.
    """
    server_seed = hashlib.sha256(b"verify-buraco-idle").digest()
    seeds = Seeds(server_seed, "vb-idle",
                  tuple(derived_seed(commitment(server_seed), s) for s in range(4)))  # fmt: skip
    log: list[dict[str, Any]] = []
    shuffles: list[dict[str, Any]] = []
    deals: list[dict[str, Any]] = []

    def chance(action: str) -> None:
        log.append({"seat": None, "action": action, "time": 0.0})

    def play_hand(k: int, dealer: int, turns: list[str]) -> None:
        order = list(BURACO_DECK)
        Stream(seeds, f"shuffle/{k}").shuffle(order)
        shuffles.append({"label": f"shuffle/{k}", "input": [CODES[c] for c in BURACO_DECK],
                         "output": [CODES[c] for c in order]})  # fmt: skip
        chance("shuffle " + " ".join(CODES[c] for c in order))
        deal = deal_cards(order, players=4, dealer=dealer)
        deals.append({"after": len(log) - 1,
                      "hands": {str(s): [CODES[c] for c in sorted(deal.hands[s])]
                                for s in range(4)}})  # fmt: skip
        hands = [[CODES[c] for c in hand] for hand in deal.hands]
        stock = [CODES[c] for c in deal.stock]
        pile = [CODES[deal.discard]]
        seat = (dealer + 1) % 4
        for kind in turns:
            if kind == "take":
                hands[seat] += pile
                pile = []
            else:
                hands[seat].append(stock.pop(0))
            card = hands[seat].pop(0)
            pile.append(card)
            log.append({"seat": seat, "action": kind, "time": 0.0})
            log.append({"seat": seat, "action": f"discard {card}", "time": 0.0})
            seat = (seat + 1) % 4

    dealer = Stream(seeds, "dealer").uniform(4)
    chance(f"dealer {dealer}")
    play_hand(0, dealer, ["take"] * first_hand_turns)
    if first_hand_turns == IDLE_TURNS:
        play_hand(1, (dealer + 1) % 4, ["take"] * (IDLE_TURNS - 1) + ["draw"]
                  + ["take"] * (IDLE_TURNS - 1))  # fmt: skip
    return {
        "version": 1,
        "game": "buraco",
        "game_id": seeds.game_id,
        "options": {"players": 4, "target": 2000, "sets": False, "closed": False},
        "players": [{"seat": s, "name": f"bot {s}", "bot": True} for s in range(4)],
        "commitment": seeds.commitment,
        "client_seeds": list(seeds.client_seeds),
        "shuffles": shuffles,
        "picks": [{"label": "dealer", "n": 4, "value": dealer}],
        "deals": deals,
        "log": log,
        "result": None,
        "server_seed": server_seed.hex(),
    }


# -- fixtures -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def verify_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A real server whose database already holds one finished Buraco game's record."""
    need_chromium()
    data_dir = tmp_path_factory.mktemp("verify-server")
    # Stored exactly where a finished table's record goes, so /api/records/ID and its
    # replay serve it; playing a whole match through the server would take half a minute.
    store = Store(f"sqlite:///{data_dir / 'sahrat.db'}")
    try:
        store.migrate()
        row = {
            "table_id": BURACO_TABLE,
            "record": buraco_record(4, BURACO_TABLE),
            "finished_at": 0.0,
        }
        with store.engine.begin() as connection:
            connection.execute(insert(records).values(**row))
    finally:
        store.close()
    with running(data_dir, bot_delay=0.0) as server:
        yield server


@pytest.fixture(scope="module")
def verify_tab(browser: Any, verify_server: Server) -> Iterator[Any]:
    """One tab on the Verify page for the whole module: each test pastes its own record."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{verify_server.url}/static/verify.html")
    page.wait_for_selector("body[data-ready]")
    # A first visit is in Arabic, right to left.
    assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == [
        "ar", "rtl"]  # fmt: skip
    yield page, errors
    context.close()
    assert not errors, errors


@pytest.fixture
def verify_page(verify_tab: tuple[Any, list[str]], verify_server: Server) -> Iterator[Any]:
    """``verify_page(size="desktop", hash="")``: the shared tab, in Arabic, cleared."""
    page, errors = verify_tab

    def make(size: str = "desktop", hash: str = "") -> Any:
        page.set_viewport_size(PHONE if size == "phone" else DESKTOP)
        if page.evaluate("document.documentElement.lang") != "ar":
            page.click("#lang")
        clear(page)
        if hash:
            page.goto(f"{verify_server.url}/static/verify.html#{hash}")
        return page

    yield make
    assert not errors, errors


def clear(page: Any) -> None:
    # A verdict left by an earlier test must not be taken for the next one.
    page.evaluate("document.getElementById('result').replaceChildren()")


def run_verify(page: Any, record_text: str) -> str:
    """Paste a record, press Verify, wait for the verdict; its data-status."""
    clear(page)
    page.fill("#record", record_text)
    page.click("#verify")
    return wait_verdict(page)


def wait_verdict(page: Any) -> str:
    page.wait_for_selector("#summary[data-status]:not([data-status=busy])")
    status: str = page.get_attribute("#summary", "data-status")
    return status


def step_states(page: Any) -> dict[int, str]:
    states = page.eval_on_selector_all(
        ".step[data-step]", "els => els.map(e => [e.dataset.step, e.dataset.state])"
    )
    return {int(n): state for n, state in states}


def failures(page: Any, step: int) -> list[str]:
    texts: list[str] = page.eval_on_selector_all(
        f'.step[data-step="{step}"] li[data-ok="false"]', "els => els.map(e => e.textContent)"
    )
    return texts


def fits_width(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


# -- the test vector ------------------------------------------------------------------------


def test_the_pages_streams_give_the_test_vector(verify_page: Any) -> None:
    vector = VECTOR
    page = verify_page()
    got = page.evaluate(
        """async (v) => {
            const m = await import('/static/verify/streams.js');
            const args = {serverSeed: v.server_seed, gameId: v.game_id,
                          clientSeeds: v.client_seeds.split(','), label: v.label, deck: v.deck};
            return {commitment: await m.commitmentOf(v.server_seed),
                    deck: await m.shuffleDeck(args),
                    buraco: await m.shuffleDeck({...args, label: 'shuffle/7', deck: 'buraco'}),
                    derived: await Promise.all([0, 1, 2, 3].map(
                        (seat) => m.derivedSeed(v.commitment, seat))),
                    picks: await Promise.all([2, 3, 7, 52, 4294967295].map(async (n) => {
                        const seeds = await m.Seeds.create(v.server_seed, v.game_id,
                                                           v.client_seeds.split(','));
                        return new m.Stream(seeds, 'pick/' + n).uniform(n);
                    }))};
        }""",
        vector,
    )
    assert got["commitment"] == vector["commitment"]
    assert got["derived"] == [derived_seed(vector["commitment"], s) for s in range(4)]
    assert got["derived"][0] == "bot-215d58afdf19abee0dc92d707ab31103"
    assert got["deck"][:8] == vector["first eight"].split()
    # Beyond the published eight: every card, a Buraco deck and a few picks agree with
    # the Python implementation too.
    seeds = Seeds(bytes.fromhex(vector["server_seed"]), vector["game_id"],
                  tuple(vector["client_seeds"].split(",")))  # fmt: skip
    deck = list(range(52))
    Stream(seeds, "shuffle/0").shuffle(deck)
    assert got["deck"] == [CODES[c] for c in deck]
    buraco = list(BURACO_DECK)
    Stream(seeds, "shuffle/7").shuffle(buraco)
    assert got["buraco"] == [CODES[c] for c in buraco]
    ns = [2, 3, 7, 52, 4294967295]
    assert got["picks"] == [Stream(seeds, f"pick/{n}").uniform(n) for n in ns]


# -- genuine records pass -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "seats"),
    [("sahrat", 4), ("sahrat", 2), ("classic", 4), ("classic", 2)],
    ids=["5-4-4-four", "5-4-4-two", "4-each-four", "4-each-two"],
)
def test_a_genuine_jackaroo_record_passes(verify_page: Any, preset: str, seats: int) -> None:
    text = jackaroo_record(preset, seats)
    record = json.loads(text)
    assert all(check.ok for check in verify(record))
    page = verify_page()
    start = time.monotonic()
    assert run_verify(page, text) == "ok"
    # Steps 1–3 and 5 of a whole game, rendered, take well under a second on a quiet machine.
    assert time.monotonic() - start < 10
    assert step_states(page) == {1: "ok", 2: "ok", 3: "ok", 4: "server", 5: "ok"}
    bots = "1، 2، 3" if seats == 4 else "2"
    assert bots in page.text_content('.step[data-step="5"] .summary')
    assert fits_width(page)
    # Every shuffle is shown with what each seat was dealt.
    assert page.locator("#deals details.deal").count() == len(record["shuffles"])
    if preset == "classic":
        # A 4-each game reshuffles the discard pile under the rest of the stock.
        assert any(len(s["input"]) < 52 for s in record["shuffles"])


def test_a_genuine_buraco_record_from_the_server_passes_on_a_phone(
    verify_page: Any, verify_server: Server
) -> None:
    page = verify_page("phone", hash=f"record=/api/records/{BURACO_TABLE}")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert wait_verdict(page) == "ok"
    assert step_states(page) == {1: "ok", 2: "ok", 3: "ok", 4: "server", 5: "ok"}
    assert "تحقق" in page.text_content("h1")
    # Step 4 is the server's replay of the same table.
    link = page.get_attribute("#replay-link", "href")
    assert link == f"/api/records/{BURACO_TABLE}/replay"
    with urllib.request.urlopen(verify_server.url + link, timeout=10) as response:
        assert json.loads(response.read())["game"] == "buraco"
    page.click("#deals details.deal >> nth=0 >> summary")
    assert "مورتو" in page.text_content("#deals")
    assert fits_width(page)
    shot(page, "verify-ok-ar-phone")


def test_a_genuine_two_player_buraco_record_opened_from_a_file_passes(verify_page: Any) -> None:
    page = verify_page()
    clear(page)
    text = buraco_record(2, "vb-two")
    page.set_input_files(
        "#file", files=[{"name": "vb-two.json", "mimeType": "application/json",
                         "buffer": text.encode()}]
    )  # fmt: skip
    assert wait_verdict(page) == "ok"
    assert step_states(page) == {1: "ok", 2: "ok", 3: "ok", 4: "server", 5: "ok"}
    assert page.input_value("#record") == text


def test_a_running_game_has_nothing_to_verify_yet(verify_page: Any) -> None:
    page = verify_page("phone")
    assert run_verify(page, running_record()) == "running"
    assert page.locator(".step").count() == 0
    page.click("#lang")
    assert "still running" in page.text_content("#summary")


def test_a_missing_record_and_bad_json_are_reported(verify_page: Any) -> None:
    page = verify_page(hash="record=/api/records/no-such-table")
    assert wait_verdict(page) == "error"
    assert "404" in page.text_content("#summary")
    assert run_verify(page, "{not json") == "error"


# -- tampered records fail at the right step -------------------------------------------------


def _tamper_seed(record: dict[str, Any]) -> str:
    seed = record["server_seed"]
    record["server_seed"] = ("1" if seed[0] == "0" else "0") + seed[1:]
    return record["commitment"]


def _tamper_shuffle(record: dict[str, Any]) -> str:
    output = record["shuffles"][1]["output"]
    output[3], output[10] = output[10], output[3]
    return "shuffle/1): at position 3"


def _tamper_pick(record: dict[str, Any]) -> str:
    index, pick = next((i, p) for i, p in enumerate(record["picks"]) if p["label"] == "pick/0")
    pick["value"] = (pick["value"] + 1) % pick["n"]
    return f"pick #{index} (pick/0)"


def _tamper_deal(record: dict[str, Any]) -> str:
    deal = record["deals"][1]
    hands = deal["hands"]
    hands["2"][0], hands["3"][0] = hands["3"][0], hands["2"][0]
    return f"after log entry {deal['after']} (shuffle/1): seat 2"


def _tamper_log_pick(record: dict[str, Any]) -> str:
    index = next(i for i, e in enumerate(record["log"]) if e["action"].startswith("pick "))
    value = int(record["log"][index]["action"].split()[1])
    record["log"][index]["action"] = f"pick {value + 1}"
    return f"Log entry {index} says {value + 1}"


def _tamper_played_card(record: dict[str, Any]) -> str:
    entry = record["log"][2]
    held = record["deals"][0]["hands"][str(entry["seat"])]
    other = next(c for hand in record["deals"][0]["hands"].values() for c in hand if c not in held)
    words = entry["action"].split()
    entry["action"] = " ".join([other, *words[1:]])
    return f"Log entry 2: seat {entry['seat']} plays {other}"


@pytest.mark.parametrize(
    ("tamper", "step"),
    [(_tamper_seed, 1), (_tamper_shuffle, 2), (_tamper_pick, 2), (_tamper_deal, 3),
     (_tamper_log_pick, 3), (_tamper_played_card, 3)],
    ids=["server-seed", "shuffle-output", "pick-value", "dealt-hand", "log-pick", "played-card"],
)  # fmt: skip
def test_a_tampered_record_fails_at_the_right_step(
    verify_page: Any, tamper: Any, step: int
) -> None:
    record = json.loads(jackaroo_record("sahrat", 4))
    expected = tamper(record)
    # The Python verifier agrees on the step.
    assert next(check for check in verify(record) if not check.ok).step == step
    page = verify_page()
    page.click("#lang")
    assert page.evaluate("document.documentElement.dir") == "ltr"
    assert run_verify(page, json.dumps(record)) == "fail"
    states = step_states(page)
    expected_states = {**dict.fromkeys(range(1, step), "ok"), step: "fail",
                       **dict.fromkeys(range(step + 1, 4), "skipped"), 4: "server",
                       5: "skipped"}  # fmt: skip
    assert states == expected_states
    assert f"Step {step} failed" in page.text_content("#summary")
    bad = failures(page, step)
    assert any(expected in text for text in bad), bad
    if tamper is _tamper_deal:
        page.set_viewport_size(DESKTOP)
        shot(page, "verify-tampered-en-desktop")
        # Switching back to Arabic re-renders the same verdict.
        page.click("#lang")
        assert "فشلت الخطوة 3" in page.text_content("#summary")


def test_a_tampered_buraco_hand_fails_step_3(verify_page: Any) -> None:
    record = json.loads(buraco_record(2, "vb-two"))
    deal = record["deals"][1]
    hands = deal["hands"]
    # Two different cards trade places between the hands: each hand keeps its size.
    mine = hands["0"][0]
    theirs = next(c for c in hands["1"] if c != mine)
    hands["0"][0] = theirs
    hands["1"][hands["1"].index(theirs)] = mine
    hands["0"].sort(key=CODES.index)
    hands["1"].sort(key=CODES.index)
    assert next(check for check in verify(record) if not check.ok).step == 3
    page = verify_page()
    assert run_verify(page, json.dumps(record)) == "fail"
    assert step_states(page) == {1: "ok", 2: "ok", 3: "fail", 4: "server", 5: "skipped"}
    assert any("shuffle/1" in text and "الكرسي 0" in text for text in failures(page, 3))
    assert page.locator("#deals details.deal.failed[open]").count() == 1


def test_record_text_is_never_parsed_as_html(verify_page: Any) -> None:
    record = json.loads(jackaroo_record("sahrat", 2))
    record["players"][0]["name"] = '<img src=x onerror="window.pwned=1">'
    page = verify_page()
    assert run_verify(page, json.dumps(record)) == "ok"
    assert page.evaluate("window.pwned") is None
    assert page.locator("#info img").count() == 0
    assert "<img" in page.text_content("#info")


# -- step 5: the seeds of the seats that sent none -------------------------------------------


def _seeds(seats: int) -> list[str]:
    return list(json.loads(jackaroo_record("sahrat", seats))["client_seeds"])


def test_a_bot_whose_seed_the_server_chose_fails_step_5(verify_page: Any) -> None:
    seeds = _seeds(4)
    seeds[1] = "seat1x"  # a valid id, and every shuffle recomputes from it
    record = json.loads(jackaroo_record("sahrat", 4, tuple(seeds)))
    assert [c.ok for c in verify(record)] == [True, True, True, True, False]
    page = verify_page("phone")
    assert run_verify(page, json.dumps(record)) == "fail"
    assert step_states(page) == {1: "ok", 2: "ok", 3: "ok", 4: "server", 5: "fail"}
    assert "فشلت الخطوة 5" in page.text_content("#summary")
    derived = derived_seed(record["commitment"], 1)
    bad = failures(page, 5)
    assert len(bad) == 1 and "الكرسي 1 لاعب آلي" in bad[0] and derived in bad[0], bad
    assert fits_width(page)
    page.click("#lang")
    assert "Step 5 failed" in page.text_content("#summary")
    assert failures(page, 5) == [
        f"✗ seat 1 is a bot, but its client seed seat1x is not its derived seed {derived}."
    ]


def test_a_bot_prefixed_seed_that_is_not_derived_fails_step_5(verify_page: Any) -> None:
    seeds = _seeds(2)
    forged = "bot-" + "0" * 32
    seeds[0] = forged  # seat 0 is a person: only the prefix gives the seed away
    record = json.loads(jackaroo_record("sahrat", 2, tuple(seeds)))
    assert next(check for check in verify(record) if not check.ok).step == 5
    page = verify_page()
    page.click("#lang")
    assert run_verify(page, json.dumps(record)) == "fail"
    assert step_states(page)[5] == "fail"
    assert failures(page, 5) == [
        f"✗ seat 0 has the client seed {forged}, which starts with bot- but is not its "
        f"derived seed {derived_seed(record['commitment'], 0)}."
    ]


def test_a_two_seat_table_derives_seat_2_from_its_place_in_the_list(verify_page: Any) -> None:
    seeds = _seeds(2)
    # Seat 2's seed is the derived seed of index 2, not of its place (index 1): wrong.
    seeds[1] = derived_seed(json.loads(jackaroo_record("sahrat", 2))["commitment"], 2)
    record = json.loads(jackaroo_record("sahrat", 2, tuple(seeds)))
    assert next(check for check in verify(record) if not check.ok).step == 5
    page = verify_page()
    page.click("#lang")
    assert run_verify(page, json.dumps(record)) == "fail"
    bad = failures(page, 5)
    assert len(bad) == 1 and "seat 2 (client seed 1) is a bot" in bad[0], bad


# -- Buraco: no endless hands ------------------------------------------------------------------


def test_twelve_turns_without_a_draw_end_a_buraco_hand(verify_page: Any) -> None:
    record = idle_buraco_record(IDLE_TURNS)
    dealer = record["picks"][0]["value"]
    # The engine agrees on steps 1-3 (the record stops mid-match: there is no result to reach).
    assert [check.ok for check in verify(record)][:4] == [True, True, True, False]
    page = verify_page()
    page.click("#lang")
    assert run_verify(page, json.dumps(record)) == "ok"
    assert step_states(page) == {1: "ok", 2: "ok", 3: "ok", 4: "server", 5: "ok"}
    # The second hand is dealt right after the twelfth discard, by the next seat.
    heads = page.locator("#deals details.deal > summary").all_text_contents()
    assert len(heads) == 2
    assert f"log entry {2 + 2 * IDLE_TURNS} · dealer: seat {(dealer + 1) % 4}" in heads[1]


def test_a_turn_after_twelve_without_a_draw_fails_step_3(verify_page: Any) -> None:
    # The pure replay, without the page: a thirteenth turn where the next shuffle is due.
    record = idle_buraco_record(IDLE_TURNS + 1)
    assert next(check for check in verify(record) if not check.ok).step == 3
    page = verify_page()
    report = page.evaluate(
        """async (record) => {
            const { verifyRecord } = await import('/static/verify/checks.js');
            return verifyRecord(record);
        }""",
        record,
    )
    assert report["status"] == "fail" and report["failedStep"] == 3
    step = next(s for s in report["steps"] if s["n"] == 3)
    thirteenth = 2 + 2 * IDLE_TURNS
    seat = record["log"][thirteenth]["seat"]
    # Seat `seat` acts, but a chance step (the next hand's shuffle) is due.
    expected = {"k": "f_turn", "p": {"i": thirteenth, "seat": str(seat), "exp": "—"}}
    assert step["items"] == [{"ok": False, "msg": expected}]
    assert len(report["deals"]) == 1
