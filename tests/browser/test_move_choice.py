"""The click-by-click choice of a Jackaroo move (jackaroo-moves.js), run in Chromium.

The whole-game test clicks whatever is highlighted; these pin down the
special shapes: a split 7 and a swap in two clicks, burns, and that only
listed moves can ever be built.
"""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

RUN = """async ([legal, card, clicks]) => {
  const { MoveChooser, parseMove } = await import('/static/jackaroo-moves.js');
  const chooser = new MoveChooser(legal);
  chooser.selectCard(card);
  const steps = [];
  let sent = null;
  for (const loc of clicks) {
    const before = chooser.options();
    sent = chooser.click(loc);
    const after = chooser.options();
    steps.push({movable: [...before.movable].sort(), targets: [...after.targets].sort(),
                stage: chooser.stage(), sent});
  }
  return {steps, sent, buttons: chooser.buttons().map(m => m.text),
          parsed: legal.map(parseMove)};
}"""

SPLITS = [
    "7H t5-t12",
    "7H t5-t7 t40-t45",
    "7H t5-t8 t40-t44",
    "7H t40-t42 t5-t10",
    "7H t40-t47",
    "KS b0-t0",
]


@pytest.fixture(scope="module")
def run(browser: Any, server: Any) -> Any:
    page = browser.new_page()
    page.goto(server.url + "/")

    def go(legal: list[str], card: str, clicks: list[str]) -> Any:
        return page.evaluate(RUN, [legal, card, clicks])

    yield go
    page.close()


def test_a_whole_seven_is_marble_then_square(run: Any) -> None:
    out = run(SPLITS, "7H", ["t5", "t12"])
    assert out["steps"][0]["movable"] == ["t40", "t5"]
    assert out["steps"][0]["targets"] == ["t12", "t7", "t8"]
    assert out["sent"] == "7H t5-t12"


def test_a_split_seven_is_marble_square_then_the_other_marble(run: Any) -> None:
    out = run(SPLITS, "7H", ["t5", "t7", "t40"])
    assert out["steps"][1]["stage"] == "split-marble"
    assert out["steps"][1]["sent"] is None
    assert out["sent"] == "7H t5-t7 t40-t45"


def test_the_split_in_the_other_order_is_another_move(run: Any) -> None:
    out = run(SPLITS, "7H", ["t40", "t42", "t5"])
    assert out["sent"] == "7H t40-t42 t5-t10"


def test_a_click_beside_the_targets_steps_back(run: Any) -> None:
    out = run(SPLITS, "7H", ["t5", "t60", "t40", "t47"])
    assert out["steps"][1]["stage"] == "marble"
    assert out["sent"] == "7H t40-t47"


def test_a_swap_is_two_clicks(run: Any) -> None:
    legal = ["JD t3~t22", "JD t3~t50", "JD t60~t22"]
    out = run(legal, "JD", ["t3", "t50"])
    assert out["steps"][0]["stage"] == "swap-target"
    assert out["steps"][0]["targets"] == ["t22", "t50"]
    assert out["sent"] == "JD t3~t50"


def test_bringing_out_starts_from_the_base(run: Any) -> None:
    out = run(SPLITS, "KS", ["b0", "t0"])
    assert out["sent"] == "KS b0-t0"


def test_burns_are_buttons_not_board_clicks(run: Any) -> None:
    out = run(["TD t1-t11", "TD burn", "9S discard"], "TD", [])
    assert out["buttons"] == ["TD burn"]
    out = run(["discard-all"], "9S", [])
    assert out["buttons"] == ["discard-all"]
    parsed = run(["7C t5-t8 t20-t24", "JH t5~t40", "3S t74-h0.2"], "7C", [])["parsed"]
    assert parsed[0] == {"text": "7C t5-t8 t20-t24", "kind": "split", "card": "7C",
                         "from": "t5", "to": "t8", "from2": "t20", "to2": "t24"}  # fmt: skip
    assert parsed[1]["kind"] == "swap" and parsed[1]["to"] == "t40"
    assert parsed[2]["to"] == "h0.2"


def test_nothing_unlisted_can_be_built(run: Any) -> None:
    out = run(SPLITS, "7H", ["t40", "t5", "t12"])
    # t40 then t5: t5 is no target of t40, so it selects t5 instead; t12 completes.
    assert out["sent"] == "7H t5-t12"
    out = run(SPLITS, "QS", ["t5", "t12"])
    assert out["sent"] is None
