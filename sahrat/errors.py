"""The small family of errors every layer raises and catches.

Each error carries the offending input, so a caller (the CLI, the server)
can report it in one line without guessing what went wrong.
"""

from __future__ import annotations


class SahratError(Exception):
    """Base of every error the project raises on purpose."""


class MalformedInput(SahratError, ValueError):
    """Text or JSON that does not parse: a bad card code, square, move or position."""

    def __init__(self, message: str, text: object = None) -> None:
        super().__init__(message)
        self.text = text


class IllegalMove(SahratError):
    """A well-formed action that the rules do not allow in this position."""

    def __init__(self, message: str, action: object = None) -> None:
        super().__init__(message)
        self.action = action


class GameOver(IllegalMove):
    """An action offered to a game that has already ended."""
