"""Generated display names for guests and bots, Arabic first."""

from __future__ import annotations

import secrets

from sahrat.server.text import clean_line
from sahrat.speech import BUILT_IN_NAMES

_GUEST_WORDS = ("صقر", "نجم", "قمر", "غيمة", "نخلة", "لؤلؤة", "ريح", "بحر", "سهم", "شهاب")
#: The bots' names: each carries a gender (:mod:`sahrat.speech`), so that the moves
#: said of them agree ("نورة طلّعت بلية", "فهد طلّع بلية").
_BOT_NAMES = tuple(name for name, _gender in BUILT_IN_NAMES)


def guest_name() -> str:
    """A name such as ``ضيف صقر 417``: "guest", a word, a number."""
    return f"ضيف {secrets.choice(_GUEST_WORDS)} {secrets.randbelow(900) + 100}"


def bot_name(seat: int) -> str:
    return _BOT_NAMES[seat % len(_BOT_NAMES)]


def clean_name(text: object, limit: int = 24) -> str | None:
    """A display name a player chose, cleaned (:func:`clean_line`), 1..limit characters."""
    if not isinstance(text, str):
        return None
    name = clean_line(text)
    if not 1 <= len(name) <= limit:
        return None
    return name
