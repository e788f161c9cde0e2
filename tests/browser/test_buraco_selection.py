"""The Buraco hand's selection across a move (buraco-table.js), run in Chromium.

With two decks a hand may hold two identical cards. Laying one down must not
leave its twin selected: the next click would then select two cards, and a
one-card discard could not be chosen.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.ui import start_with_bots

pytestmark = pytest.mark.browser

#: A live table's message, re-dealt: our turn, after the draw, with two K♥.
RUN = """async ([hand, after, meld]) => {
  const { BuracoTable } = await import('/static/buraco-table.js');
  const live = window.sahrat.tableScreen.msg;
  const sent = [];
  const table = new BuracoTable({ send: (type, body) => { sent.push(body.action); return 1; } });
  document.body.append(table.el);
  const message = (cards, moves) => {
    const msg = structuredClone(live);
    msg.view.hand = cards;
    msg.moves = moves;
    msg.to_move = msg.you;
    msg.table.status = 'playing';
    msg.legal = [`meld ${meld.join(' ')}`, ...cards.map((c) => `discard ${c}`)];
    return msg;
  };
  const selected = () =>
    [...table.el.querySelectorAll('.bu-hand .card.selected')].map((c) => c.dataset.code);
  table.update(message(hand, 100));
  table.el.querySelector(`[data-suggest="meld ${meld.join(' ')}"]`).click();
  const chosen = selected();
  table.el.querySelector('[data-action=meld]').click();
  table.update(message(after, 101));
  const kept = selected();
  // One click on the remaining K♥ makes it the card to discard.
  table.el.querySelector('.bu-hand .card[data-code=KH]').click();
  const discard = table.el.querySelector('[data-action=discard]');
  const enabled = !discard.disabled;
  discard.click();
  table.el.remove();
  return { chosen: chosen.sort(), kept, enabled, sent };
}"""


def test_a_meld_leaves_no_twin_selected(open_page: Any) -> None:
    page = open_page("desktop")
    start_with_bots(page, "buraco")
    page.wait_for_function("() => window.sahrat.tableScreen.msg?.view?.hand")
    hand = ["QH", "KH", "KH", "JK", "5S", "9D"]
    after = ["KH", "5S", "9D"]
    out = page.evaluate(RUN, [hand, after, ["QH", "KH", "JK"]])
    assert out["chosen"] == ["JK", "KH", "QH"]
    assert out["kept"] == []
    assert out["enabled"] is True
    assert out["sent"] == ["meld QH KH JK", "discard KH"]


def test_a_draw_keeps_the_selection(open_page: Any) -> None:
    """Cards chosen while the draw is on its way stay chosen: none left the hand."""
    page = open_page("desktop")
    start_with_bots(page, "buraco")
    page.wait_for_function("() => window.sahrat.tableScreen.msg?.view?.hand")
    out = page.evaluate(
        """async () => {
      const { BuracoTable } = await import('/static/buraco-table.js');
      const live = window.sahrat.tableScreen.msg;
      const table = new BuracoTable({ send: () => 1 });
      document.body.append(table.el);
      const message = (cards, moves) => {
        const msg = structuredClone(live);
        Object.assign(msg, { moves, to_move: msg.you });
        msg.view.hand = cards;
        msg.table.status = 'playing';
        msg.legal = cards.map((c) => `discard ${c}`);
        return msg;
      };
      table.update(message(['KH', 'KH', '5S'], 10));
      table.el.querySelectorAll('.bu-hand .card[data-code=KH]')[1].click();
      table.update(message(['KH', 'KH', '5S', '7C'], 11));
      const kept = [...table.el.querySelectorAll('.bu-hand .card.selected')]
        .map((c) => c.dataset.code);
      table.el.remove();
      return kept;
    }"""
    )
    assert out == ["KH"]
