"""Arabic that agrees with the player it speaks of.

An Arabic verb (and a possessive: بليته / بليتها) takes the gender of its
subject: "فهد طلّع بلية" but "نورة طلّعت بلية". The games write both forms
where they differ, as ``{masculine|feminine}``, and :func:`agree` keeps the one
the player's name calls for. Only the built-in names (the bots') are known to
be one or the other; any other name (a guest's "ضيف صقر 417", a name a player
typed) takes the masculine, Arabic's unmarked form for a person of unknown
gender, and the only one that agrees with the generated guests' "ضيف".

>>> agree("{طلّع|طلّعت} بلية", gender_of("نورة"))
'طلّعت بلية'
>>> agree("{طلّع|طلّعت} بلية", gender_of("ضيف صقر 417"))
'طلّع بلية'
"""

from __future__ import annotations

import re
from typing import Final

MASCULINE: Final = "m"
FEMININE: Final = "f"

#: The built-in players' names, each with its gender, in the order seats take them.
BUILT_IN_NAMES: Final[tuple[tuple[str, str], ...]] = (
    ("سالم", MASCULINE),
    ("مريم", FEMININE),
    ("فهد", MASCULINE),
    ("نورة", FEMININE),
    ("خالد", MASCULINE),
    ("هند", FEMININE),
    ("راشد", MASCULINE),
    ("عائشة", FEMININE),
)

_GENDERS: Final = dict(BUILT_IN_NAMES)
_CHOICE: Final = re.compile(r"\{([^{}|]*)\|([^{}|]*)\}")


def gender_of(name: str) -> str | None:
    """:data:`FEMININE` or :data:`MASCULINE` for a built-in name, else None (not known)."""
    return _GENDERS.get(name.strip())


def agree(text: str, gender: str | None) -> str:
    """``text`` with each ``{masculine|feminine}`` choice made for ``gender`` (None: the
    masculine, the unmarked form)."""
    index = 2 if gender == FEMININE else 1
    return _CHOICE.sub(lambda match: match.group(index), text)
