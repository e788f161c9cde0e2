"""Jackaroo moves in words, English and Arabic, for a table's list of last moves.

A move is said as players say it: the card, how many steps, whose marble,
what it captured, that it entered home ("نورة طلّعت بلية"، "فهد أكل بلية
مريم"، "دخلت البيت"); never a square's name or the engine's notation, which no
player reads. The Arabic gives a verb both ways, ``{masculine|feminine}``, for
the player's name to choose (:mod:`sahrat.speech`).

Only what every seat may know is said: the card a move plays, whose marble
moved or was captured. Never a card burnt at random from a hand (the T's
victim card is shown to nobody here), nor any other card of a hand.
"""

from __future__ import annotations

from collections.abc import Mapping

from sahrat.cards import RANK, card_label
from sahrat.games.jackaroo.actions import BURN, DISCARD, DISCARD_ALL, MOVE, SPLIT, SWAP, Move
from sahrat.games.jackaroo.board import BASE0, HOME0, progress
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

#: The mover's own marble, Arabic both ways (his / her marble).
OWN: Pair = ("their own marble", "{بليته|بليتها}")


def _ar_card(card: int) -> str:
    word = AR_RANKS.get(RANK[card])
    return f"{word} {card_label(card)}" if word else card_label(card)


def steps_words(n: int) -> Pair:
    """``n`` steps, with the Arabic plural a count takes (Western digits, as the client).

    >>> [steps_words(n)[1] for n in (1, 2, 4, 11)]
    ['خطوة وحدة', 'خطوتين', '4 خطوات', '11 خطوة']
    """
    en = f"{n} step" if n == 1 else f"{n} steps"
    if n == 1:
        return en, "خطوة وحدة"
    if n == 2:
        return en, "خطوتين"
    return en, f"{n} خطوات" if 3 <= n <= 10 else f"{n} خطوة"


def _marble_of(state: JackarooState, seat: int, colour: int, names: Mapping[int, str]) -> Pair:
    if colour == seat:
        return OWN
    partner = colour == state.rules.partner[seat]
    if colour in names:
        name = names[colour]
        if partner:
            return f"their partner {name}'s marble", f"بلية الشريك {name}"
        return f"{name}'s marble", f"بلية {name}"
    if partner:
        return "the partner's marble", "بلية الشريك"
    return "an opponent's marble", "بلية الخصم"


def _steps(colour: int, frm: int, to: int) -> int:
    return progress(colour, to) - progress(colour, frm)


def _enters_home(frm: int, to: int) -> bool:
    return frm < HOME0 <= to < BASE0


def move_words(before: JackarooState, seat: int, move: Move, names: Mapping[int, str]) -> Pair:
    """``move`` of ``seat`` in words (without the player's name), said of ``before``."""
    card, kind, a, b, c, d = move
    if kind == DISCARD_ALL:
        return "burns the whole hand", "{حرق|حرقت} كل {أوراقه|أوراقها}"
    label = card_label(card)
    if kind == DISCARD:
        return f"burns {label}", f"{{حرق|حرقت}} {_ar_card(card)}"
    if kind == BURN:
        nxt = before.rules.next_seat[seat]
        who = (names[nxt],) * 2 if nxt in names else ("the next player", "اللي {بعده|بعدها}")
        return (
            f"plays {label} and burns a card from {who[0]}'s hand",
            f"{{لعب|لعبت}} {_ar_card(card)} و{{حرق|حرقت}} ورقة من يد {who[1]}",
        )
    home = False
    if kind == SPLIT:
        first, second = before.occ[a] >> 2, before.occ[c] >> 2
        x, y = _steps(first, a, b), _steps(second, c, d)
        en = f"splits the seven ({label}) as {x} + {y}"
        ar = f"{{قسم|قسمت}} السبعة ({label}): {x} + {y}"
        others = [_marble_of(before, seat, m, names) for m in dict.fromkeys((first, second))]
        others = [w for w in others if w != OWN]
        if others:
            en += ", moving " + " and ".join(w[0] for w in others)
            ar += "، {ومشّى|ومشّت} " + " و".join(w[1] for w in others)
        home = _enters_home(a, b) or _enters_home(c, d)
    elif kind == SWAP:
        whose = _marble_of(before, seat, before.occ[b] >> 2, names)
        en = f"plays {label} and swaps places with {whose[0]}"
        ar = f"{{لعب|لعبت}} {_ar_card(card)} و{{بدّل|بدّلت}} {{بليته|بليتها}} مع {whose[1]}"
    elif kind == MOVE and a >= BASE0:
        en, ar = f"brings a marble out with {label}", f"{{طلّع|طلّعت}} بلية ({_ar_card(card)})"
    else:
        colour = before.occ[a] >> 2
        whose = _marble_of(before, seat, colour, names)
        moved = "" if whose == OWN else f"{whose[0]} "
        if RANK[card] == 4:
            # A four only ever moves back (jackaroo.md), and never into a home lane.
            count = steps_words(4)
            en = f"moves {moved}back {count[0]} with {label}"
            ar = f"{{رجّع|رجّعت}} {whose[1]} لورا {count[1]} ({_ar_card(card)})"
        else:
            count = steps_words(_steps(colour, a, b))
            en = f"moves {moved}{count[0]} with {label}"
            ar = f"{{مشّى|مشّت}} {whose[1]} {count[1]} ({_ar_card(card)})"
        home = _enters_home(a, b)
    effects: list[Pair] = []
    if home:
        # The marble is the subject here (بلية is feminine), whoever moved it.
        effects.append(("enters home", "ودخلت البيت"))
    after = before.clone()
    after.apply_action(move)
    caught = [m >> 2 for m in range(16) if before.loc[m] < BASE0 <= after.loc[m]]
    if caught:
        parts = [
            _counted(_marble_of(before, seat, colour, names), caught.count(colour))
            for colour in dict.fromkeys(caught)
        ]
        effects.append(
            (
                "captures " + " and ".join(w[0] for w in parts),
                "و{أكل|أكلت} " + " و".join(w[1] for w in parts),
            )
        )
    if effects:
        en += "".join(f", {e[0]}" for e in effects[:-1]) + f" and {effects[-1][0]}"
        ar += "".join(f" {e[1]}" for e in effects)
    return en, ar


_HOW_MANY = {2: ("two", "ثنتين"), 3: ("three", "ثلاث"), 4: ("four", "أربع")}


def _counted(whose: Pair, n: int) -> Pair:
    """``n`` marbles of one colour, as a king sweeping the track may capture."""
    if n == 1:
        return whose
    en, ar = _HOW_MANY[n]
    plural = whose[1].replace("بليته|بليتها", "بلياته|بلياتها").replace("بلية ", "بليات ")
    return f"{en} of {whose[0]}s", f"{ar} من {plural}"
