"""The names accounts register: which are allowed, and when two are the same name.

A name is 2 to 20 characters of Arabic or Latin letters and digits, with
single spaces inside. Two names are the same if they look alike: compared
after NFKC (which folds presentation forms, full-width letters and such),
case folding, digits of any script as ASCII, and the Arabic letters people
write interchangeably (hamza on alef, Persian yeh and kaf, alef maksura).

>>> account_name("نورة 7")
'نورة 7'
>>> name_key("أحمد") == name_key("احمد") and name_key("Nora") == name_key("NORA")
True
>>> name_key("لاعب٣") == name_key("لاعب3")
True
>>> account_name(" Nora")
Traceback (most recent call last):
...
sahrat.server.accounts.names.NameRefused: name_spaces
"""

from __future__ import annotations

import unicodedata

MIN_LENGTH, MAX_LENGTH = 2, 20

_ARABIC_BLOCKS = ((0x0600, 0x06FF), (0x0750, 0x077F), (0x08A0, 0x08FF))
_LATIN_BLOCKS = ((0x0041, 0x007A), (0x00C0, 0x024F), (0x1E00, 0x1EFF))
#: Tatweel only stretches a word: it would make "نورة" and "نــورة" two names.
_TATWEEL = "\u0640"
_FOLD = str.maketrans(
    {
        "أ": "ا",
        "إ": "ا",
        "آ": "ا",
        "ٱ": "ا",
        "ى": "ي",
        "ی": "ي",
        "ک": "ك",
        "ە": "ه",
        "ة": "ه",
    }
)


class NameRefused(ValueError):
    """A name that may not be registered; ``code`` says why (``docs/protocol.md`` §6)."""

    def __init__(self, code: str, **params: str) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


def _in(blocks: tuple[tuple[int, int], ...], char: str) -> bool:
    return any(low <= ord(char) <= high for low, high in blocks)


def _allowed(char: str) -> bool:
    category = unicodedata.category(char)
    if category == "Nd":
        return char.isascii() or _in(_ARABIC_BLOCKS, char)
    if not category.startswith("L") or char == _TATWEEL:
        return False
    return _in(_LATIN_BLOCKS, char) or _in(_ARABIC_BLOCKS, char)


def account_name(text: object) -> str:
    """``text`` as a name to register (NFKC), or :class:`NameRefused`."""
    if not isinstance(text, str):
        raise NameRefused("bad_field")
    name = unicodedata.normalize("NFKC", text)
    if name != name.strip(" ") or "  " in name:
        raise NameRefused("name_spaces")
    if len(name) < MIN_LENGTH:
        raise NameRefused("name_too_short")
    if len(name) > MAX_LENGTH:
        raise NameRefused("name_too_long")
    for char in name:
        if char != " " and not _allowed(char):
            raise NameRefused("name_bad_character", character=char)
    return name


def name_key(name: str) -> str:
    """What two names that look alike have in common (the unique column)."""
    folded = unicodedata.normalize("NFKC", name).casefold().translate(_FOLD)
    return "".join(
        str(unicodedata.digit(c)) if unicodedata.category(c) == "Nd" else c for c in folded
    )
