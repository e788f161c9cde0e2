"""Jackaroo moves in words, English and Arabic, for a table's list of last moves.

Only what every seat may know is said: the card a move plays, the squares,
whose marble moved or was captured. Never a card burnt at random from a hand
(the T's victim card is shown to nobody here), nor any other card of a hand.
"""

from __future__ import annotations

from collections.abc import Mapping

from sahrat.cards import RANK, card_label
from sahrat.games.jackaroo.actions import BURN, DISCARD, DISCARD_ALL, MOVE, SPLIT, SWAP, Move
from sahrat.games.jackaroo.board import BASE0, square_name
from sahrat.games.jackaroo.state import JackarooState

#: The names players give the cards that do something special (glossary).
AR_RANKS = {
    1: "الإكة",
    13: "الشايب",
    12: "البنت",
    11: "الولد",
    10: "العشرة",
    7: "السبعة",
    5: "الخمسة",
    4: "الأربعة",
}

Pair = tuple[str, str]


def _ar_card(card: int) -> str:
    word = AR_RANKS.get(RANK[card])
    return f"{word} {card_label(card)}" if word else card_label(card)


def _marble_of(state: JackarooState, seat: int, colour: int, names: Mapping[int, str]) -> Pair:
    if colour in names:
        return f"{names[colour]}'s marble", f"بلية {names[colour]}"
    if colour == seat:
        return "their own marble", "بليته"
    if colour == state.rules.partner[seat]:
        return "the partner's marble", "بلية الشريك"
    return "an opponent's marble", "بلية الخصم"


def move_words(before: JackarooState, seat: int, move: Move, names: Mapping[int, str]) -> Pair:
    """``move`` of ``seat`` in words (without the player's name), said of ``before``."""
    card, kind, a, b, c, d = move
    if kind == DISCARD_ALL:
        return "burns the whole hand", "يحرق كل أوراقه"
    label, sq = card_label(card), square_name
    if kind == DISCARD:
        return f"burns {label}", f"يحرق {_ar_card(card)}"
    if kind == BURN:
        nxt = before.rules.next_seat[seat]
        who = (names[nxt],) * 2 if nxt in names else ("the next player", "اللاعب التالي")
        return (
            f"plays {label} and burns a card from {who[0]}'s hand",
            f"يلعب {_ar_card(card)} ويحرق ورقة من يد {who[1]}",
        )
    if kind == SPLIT:
        en = f"plays {label}: split, {sq(a)}→{sq(b)} and {sq(c)}→{sq(d)}"
        ar = f"يقسم السبعة {label}: من {sq(a)} إلى {sq(b)} ومن {sq(c)} إلى {sq(d)}"
    elif kind == SWAP:
        whose = _marble_of(before, seat, before.occ[b] >> 2, names)
        en = f"swaps with {label}: {sq(a)} ↔ {sq(b)} ({whose[0]})"
        ar = f"يلعب {_ar_card(card)}: تبديل {sq(a)} ↔ {sq(b)} ({whose[1]})"
    elif kind == MOVE and a >= BASE0:
        en, ar = f"brings a marble out with {label}", f"يلعب {_ar_card(card)} ويطلّع بلية"
    else:
        colour = before.occ[a] >> 2
        other = colour != before.rules.controlled(before.loc, seat)
        whose = _marble_of(before, seat, colour, names)
        back = RANK[card] == 4
        en = f"plays {label}: " + (f"moves {whose[0]} " if other else "")
        en += f"{sq(a)}→{sq(b)}" + (" backwards" if back else "")
        ar = f"يلعب {_ar_card(card)}: " + (f"يحرك {whose[1]} " if other else "")
        ar += f"من {sq(a)} إلى {sq(b)}" + (" (ترجع لورا)" if back else "")
    after = before.clone()
    after.apply_action(move)
    caught = [m for m in range(16) if before.loc[m] < BASE0 <= after.loc[m]]
    if caught:
        parts = [(_marble_of(before, seat, m >> 2, names), sq(before.loc[m])) for m in caught]
        en += " and captures " + ", ".join(f"{w[0]} on {q}" for w, q in parts)
        ar += " وياكل " + " و".join(f"{w[1]} على {q}" for w, q in parts)
    return en, ar
