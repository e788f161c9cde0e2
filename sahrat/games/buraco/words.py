"""Buraco moves in words, English and Arabic, for a table's list of last moves.

The Arabic is said as players say it, in the past ("مريم نزّلت سلسلة
5♥–8♥"), with a verb both ways, ``{masculine|feminine}``, for the player's name
to choose (:mod:`sahrat.speech`).

Only what every seat may know is said: the cards laid down or discarded, the
size of the discard pile taken, what became of the morto. Never a card drawn
from the stock, nor any other card of a hand.
"""

from __future__ import annotations

from sahrat.cards import SUIT_SIGNS, card_label
from sahrat.games.buraco import actions as act
from sahrat.games.buraco.actions import BuracoAction
from sahrat.games.buraco.melds import SEQUENCE, Meld
from sahrat.games.buraco.state import BuracoState
from sahrat.games.buraco.table import PENDING, STOCK, TAKEN, UNTAKEN

Pair = tuple[str, str]


def _labels(cards: tuple[int, ...]) -> str:
    return " ".join(card_label(card) for card in cards)


def _meld_name(meld: Meld) -> Pair:
    if meld.kind == SEQUENCE:
        return f"the {SUIT_SIGNS[meld.base]} sequence", f"سلسلة {SUIT_SIGNS[meld.base]}"
    rank = card_label(meld.base - 1)[:-1]
    return f"the set of {rank}s", f"مجموعة {rank}"


def _cards_word(n: int) -> str:
    """``n`` cards in Arabic, with the plural a count takes (Western digits, as the client).

    >>> [_cards_word(n) for n in (1, 2, 5, 12)]
    ['ورقة وحدة', 'ورقتين', '5 أوراق', '12 ورقة']
    """
    if n == 1:
        return "ورقة وحدة"
    if n == 2:
        return "ورقتين"
    return f"{n} أوراق" if 3 <= n <= 10 else f"{n} ورقة"


def _new_meld(meld: Meld) -> Pair:
    """A meld just laid: a sequence by its ends (5♥–8♥), a set by its cards."""
    if meld.kind == SEQUENCE and len(meld.cards) > 3:
        cards = f"{card_label(meld.cards[0])}–{card_label(meld.cards[-1])}"
    else:
        cards = _labels(meld.cards)
    if meld.kind == SEQUENCE:
        return f"a new sequence: {_labels(meld.cards)}", f"سلسلة {cards}"
    return f"a new set: {_labels(meld.cards)}", f"مجموعة {cards}"


def _canasta(old: Meld | None, new: Meld) -> Pair:
    """The canasta a meld became (or turned dirty), else nothing."""
    if new.canasta is None or (old is not None and old.canasta == new.canasta):
        return "", ""
    if new.clean:
        return " — a clean canasta", " — كاناسترا ليمبا (نظيفة)"
    return " — a dirty canasta", " — كاناسترا سوجا (متسخة)"


def move_words(before: BuracoState, seat: int, action: BuracoAction) -> Pair | None:
    """``action`` of ``seat`` in words (without the player's name), said of ``before``;
    None for an action that is not a seat's (a chance step)."""
    kind, number, cards = action
    if kind in act.CHANCE_KINDS:
        return None
    side = before.side_of(seat)
    after = before.clone()
    after.apply_action(action)
    pile = len(before.pile)
    take = (
        f"takes the discard pile ({pile} card{'' if pile == 1 else 's'})",
        f"{{أخذ|أخذت}} كومة الرمي ({_cards_word(pile)})",
    )
    if kind == act.DRAW:
        en, ar = "draws from the stock", "{سحب|سحبت} من الكومة"
    elif kind == act.TAKE:
        en, ar = take
    elif kind == act.DISCARD:
        en, ar = f"discards {card_label(cards[0])}", f"{{رمى|رمت}} {card_label(cards[0])}"
    elif kind in (act.MELD, act.ADD):
        en, ar = "", ""
    elif kind in (act.TAKE_MELD, act.TAKE_ADD):
        en, ar = take[0] + " and ", take[1] + " و"
        # The pile's top card is public, and it is the one melded from the pile.
        cards = (before.pile[-1], *cards)
    else:
        return None
    if kind in (act.MELD, act.TAKE_MELD):
        new = after.melds[side][-1]
        what, extra = _new_meld(new), _canasta(None, new)
        en += f"lays {what[0]}{extra[0]}"
        ar += f"{{نزّل|نزّلت}} {what[1]}{extra[1]}"
    elif kind in (act.ADD, act.TAKE_ADD):
        old, new = before.melds[side][number], after.melds[side][number]
        target, extra = _meld_name(old), _canasta(old, new)
        en += f"adds {_labels(cards)} to {target[0]}{extra[0]}"
        ar += f"{{أضاف|أضافت}} {_labels(cards)} على {target[1]}{extra[1]}"
    return _consequences(before, after, side, en, ar)


def _consequences(before: BuracoState, after: BuracoState, side: int, en: str, ar: str) -> Pair:
    """What the move set off: the morto, going out, the end of the hand."""
    was, now = before.morto_status[side], after.morto_status[side]
    if was == UNTAKEN and now == TAKEN:
        en, ar = en + " and takes the morto", ar + " و{أخذ|أخذت} المورتو"
    elif was == UNTAKEN and now == PENDING:
        en, ar = (
            en + " and will take the morto",
            ar + " و{بياخذ|بتاخذ} المورتو في {دوره|دورها} الجاي",
        )
    if after.morto_status.count(STOCK) > before.morto_status.count(STOCK):
        en, ar = en + "; a morto becomes the stock", ar + "؛ المورتو صار الكومة"
    if len(after.results) > len(before.results):
        if after.went_out == side:
            en, ar = en + " and goes out", ar + " و{خلّص|خلّصت} الجولة (باتيدا)"
        elif after.results[-1].went_out < 0 and after.stock:
            # Twelve turns in a row without a draw from the stock (buraco.md §4).
            en += "; the hand ends: twelve turns without a draw from the stock"
            ar += "؛ انتهت الجولة: 12 دور بدون سحب من الكومة"
        else:
            en, ar = en + "; the hand ends", ar + "؛ انتهت الجولة"
    return en, ar
