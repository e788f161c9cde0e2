"""Moves in words, English and Arabic, for a table's "last moves" list.

Only what every player at the table may know is said: the card a move plays,
the squares, the cards laid down or discarded, the size of the discard pile.
Never a drawn card, a burnt card picked at random, or any other card of a hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sahrat.cards import JOKER, RANK, RANKS, SUIT
from sahrat.games.buraco import actions as bact
from sahrat.games.buraco.actions import BuracoAction
from sahrat.games.buraco.melds import SEQUENCE, Meld
from sahrat.games.buraco.state import PENDING, STOCK, TAKEN, UNTAKEN
from sahrat.games.jackaroo import actions as jact
from sahrat.games.jackaroo.actions import Move
from sahrat.games.jackaroo.board import BASE0, square_name

SYMBOLS = "♠♥♦♣"
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

Words = tuple[str, str]


def card_label(card: int) -> str:
    """A card as players read it: ``7♥``, ``10♦``, ``★`` for the joker.

    Not 🃏: fonts without emoji, common on phones and Linux, draw it as a box.
    """
    if card == JOKER:
        return "★"
    rank = RANKS[RANK[card] - 1]
    return ("10" if rank == "T" else rank) + SYMBOLS[SUIT[card]]


def describe(
    game: str,
    before: Any,
    seat: int,
    action: Any,
    name: str,
    *,
    names: Mapping[int, str] | None = None,
) -> dict[str, str]:
    """The move in words, {"en": ..., "ar": ...}, for the table's "last moves" list.

    ``names`` (engine seat to display name) lets other players be named; without
    it they are called partner, opponent or next player.
    """
    try:
        words: Words | None = None
        if game == "jackaroo" and isinstance(action, Move):
            words = _jackaroo(before, seat, action, names or {})
        elif game == "buraco" and isinstance(action, BuracoAction):
            words = _buraco(before, seat, action)
    except Exception:
        # A line in a list of moves must never stop a table.
        words = None
    if words is None:
        # A shuffle's text is the whole deck order: never show it.
        text = "shuffle" if str(action).startswith("shuffle") else str(action)
        return {"en": f"{name}: {text}", "ar": f"{name}: {text}"}
    return {"en": f"{name} {words[0]}", "ar": f"{name} {words[1]}"}


# -- Jackaroo --------------------------------------------------------------------------


def _ar_card(card: int) -> str:
    word = AR_RANKS.get(RANK[card])
    return f"{word} {card_label(card)}" if word else card_label(card)


def _marble_of(state: Any, seat: int, colour: int, names: Mapping[int, str]) -> Words:
    if colour in names:
        return f"{names[colour]}'s marble", f"بلية {names[colour]}"
    if colour == seat:
        return "their own marble", "بليته"
    if colour == state.rules.partner[seat]:
        return "the partner's marble", "بلية الشريك"
    return "an opponent's marble", "بلية الخصم"


def _jackaroo(before: Any, seat: int, move: Move, names: Mapping[int, str]) -> Words | None:
    card, kind, a, b, c, d = move
    if kind == jact.DISCARD_ALL:
        return "burns the whole hand", "يحرق كل أوراقه"
    label, sq = card_label(card), square_name
    if kind == jact.DISCARD:
        return f"burns {label}", f"يحرق {_ar_card(card)}"
    if kind == jact.BURN:
        nxt = before.rules.next_seat[seat]
        who = (names[nxt],) * 2 if nxt in names else ("the next player", "اللاعب التالي")
        return (
            f"plays {label} and burns a card from {who[0]}'s hand",
            f"يلعب {_ar_card(card)} ويحرق ورقة من يد {who[1]}",
        )
    if kind == jact.SPLIT:
        en = f"plays {label}: split, {sq(a)}→{sq(b)} and {sq(c)}→{sq(d)}"
        ar = f"يقسم السبعة {label}: من {sq(a)} إلى {sq(b)} ومن {sq(c)} إلى {sq(d)}"
    elif kind == jact.SWAP:
        whose = _marble_of(before, seat, before.occ[b] >> 2, names)
        en = f"swaps with {label}: {sq(a)} ↔ {sq(b)} ({whose[0]})"
        ar = f"يلعب {_ar_card(card)}: تبديل {sq(a)} ↔ {sq(b)} ({whose[1]})"
    elif kind == jact.MOVE and a >= BASE0:
        en, ar = f"brings a marble out with {label}", f"يلعب {_ar_card(card)} ويطلّع بلية"
    elif kind == jact.MOVE:
        colour = before.occ[a] >> 2
        other = colour != before.rules.controlled(before.loc, seat)
        whose = _marble_of(before, seat, colour, names)
        back = RANK[card] == 4
        en = f"plays {label}: " + (f"moves {whose[0]} " if other else "")
        en += f"{sq(a)}→{sq(b)}" + (" backwards" if back else "")
        ar = f"يلعب {_ar_card(card)}: " + (f"يحرك {whose[1]} " if other else "")
        ar += f"من {sq(a)} إلى {sq(b)}" + (" (ترجع لورا)" if back else "")
    else:
        return None
    after = before.clone()
    after.apply_action(move)
    caught = [m for m in range(16) if before.loc[m] < BASE0 <= after.loc[m]]
    if caught:
        parts = [(_marble_of(before, seat, m >> 2, names), sq(before.loc[m])) for m in caught]
        en += " and captures " + ", ".join(f"{w[0]} on {q}" for w, q in parts)
        ar += " وياكل " + " و".join(f"{w[1]} على {q}" for w, q in parts)
    return en, ar


# -- Buraco ----------------------------------------------------------------------------


def _labels(cards: tuple[int, ...]) -> str:
    return " ".join(card_label(card) for card in cards)


def _meld_name(meld: Meld) -> Words:
    if meld.kind == SEQUENCE:
        return f"the {SYMBOLS[meld.base]} sequence", f"سلسلة {SYMBOLS[meld.base]}"
    rank = card_label(meld.base - 1)[:-1]
    return f"the set of {rank}s", f"مجموعة {rank}"


def _canasta(old: Meld | None, new: Meld) -> Words:
    """The canasta a meld became (or turned dirty), else nothing."""
    if new.canasta is None or (old is not None and old.canasta == new.canasta):
        return "", ""
    if new.clean:
        return " — a clean canasta", " — كاناسترا ليمبا (نظيفة)"
    return " — a dirty canasta", " — كاناسترا سوجا (متسخة)"


def _buraco(before: Any, seat: int, action: BuracoAction) -> Words | None:
    kind, number, cards = action
    side = before.side_of(seat)
    after = before.clone()
    after.apply_action(action)
    pile = len(before.pile)
    take = (
        f"takes the discard pile ({pile} card{'' if pile == 1 else 's'})",
        f"ياخذ كومة الرمي (عدد الأوراق: {pile})",
    )
    if kind == bact.DRAW:
        en, ar = "draws from the stock", "يسحب من الكومة"
    elif kind == bact.TAKE:
        en, ar = take
    elif kind == bact.DISCARD:
        en, ar = f"discards {card_label(cards[0])}", f"يرمي {card_label(cards[0])}"
    elif kind in (bact.MELD, bact.ADD):
        en, ar = "", ""
    elif kind in (bact.TAKE_MELD, bact.TAKE_ADD):
        en, ar = take[0] + " and ", take[1] + " و"
        # The pile's top card is public, and it is the one melded from the pile.
        cards = (before.pile[-1], *cards)
    else:
        return None
    if kind in (bact.MELD, bact.TAKE_MELD):
        new = after.melds[side][-1]
        what = ("sequence", "سلسلة") if new.kind == SEQUENCE else ("set", "مجموعة")
        extra = _canasta(None, new)
        en += f"lays a new {what[0]}: {_labels(new.cards)}{extra[0]}"
        ar += f"ينزل {what[1]} جديدة: {_labels(new.cards)}{extra[1]}"
    elif kind in (bact.ADD, bact.TAKE_ADD):
        old, new = before.melds[side][number], after.melds[side][number]
        target, extra = _meld_name(old), _canasta(old, new)
        en += f"adds {_labels(cards)} to {target[0]}{extra[0]}"
        ar += f"يضيف {_labels(cards)} إلى {target[1]}{extra[1]}"
    return _consequences(before, after, side, en, ar)


def _consequences(before: Any, after: Any, side: int, en: str, ar: str) -> Words:
    """What the move set off: the morto, going out, the end of the hand."""
    was, now = before.morto_status[side], after.morto_status[side]
    if was == UNTAKEN and now == TAKEN:
        en, ar = en + " and takes the morto", ar + " وياخذ المورتو"
    elif was == UNTAKEN and now == PENDING:
        en, ar = en + " and will take the morto", ar + " وياخذ المورتو في دوره الجاي"
    if after.morto_status.count(STOCK) > before.morto_status.count(STOCK):
        en, ar = en + "; a morto becomes the stock", ar + "؛ المورتو صار الكومة"
    if len(after.results) > len(before.results):
        if after.went_out == side:
            en, ar = en + " and goes out", ar + " وينهي (باتيدا)"
        else:
            en, ar = en + "; the hand ends", ar + "؛ انتهت الجولة"
    return en, ar
