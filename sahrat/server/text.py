"""Text that people type (chat lines, display names), made safe to show to others.

A line is normalised to NFC, so the same word is always the same code points,
and loses every character that changes how *other* text looks rather than
being text itself:

- C0/C1 controls (NUL, BEL, escape sequences);
- bidirectional embeddings, overrides and isolates (U+202A–U+202E,
  U+2066–U+2069) and the direction marks (U+200E, U+200F, U+061C): in a page
  that mixes Arabic and English they let one line reorder a number or pose
  as another player's line;
- other invisible format characters (U+200B zero width space, U+2060 word
  joiner, U+FEFF, soft hyphen ...), private-use and unassigned code points.

Kept on purpose: U+200C ZERO WIDTH NON-JOINER and U+200D ZERO WIDTH JOINER,
which Arabic-script writing (Persian and Urdu names, Kashmiri, forced joining
forms) and emoji sequences (families, flags of professions) need, and the
emoji tag characters U+E0020–U+E007F of subdivision flags. Runs of combining
marks are cut to a few per letter (Arabic needs at most a shadda and a vowel;
dozens are only there to smear over other lines). Any run of whitespace,
line breaks included, becomes one space.
"""

from __future__ import annotations

import unicodedata

#: Combining marks kept on one base character.
MAX_MARKS = 4

_JOINERS = frozenset("\u200c\u200d")
_DROPPED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cn", "Cs"})


def _kept(char: str) -> bool:
    if char in _JOINERS or "\U000e0020" <= char <= "\U000e007f":
        return True
    return unicodedata.category(char) not in _DROPPED_CATEGORIES


def clean_line(text: str) -> str:
    """``text`` as one line safe to show beside other people's text (may be empty)."""
    # Whitespace first: controls such as TAB and LF become spaces, not nothing.
    words = unicodedata.normalize("NFC", text).split()
    out: list[str] = []
    marks = 0
    for char in " ".join(words):
        if not _kept(char):
            continue
        if unicodedata.combining(char):
            marks += 1
            if marks > MAX_MARKS:
                continue
        else:
            marks = 0
        out.append(char)
    return " ".join("".join(out).split())
