"""The small family of errors every layer raises and catches.

Each error carries the offending input, so a caller (the CLI, the server)
can report it in one line without guessing what went wrong.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Reason:
    """Why the rules refuse an action: a code the client words in its own language.

    ``params`` fill the words (``{"card": "7H"}``); they never hold more than
    the player who sent the action may know.

    >>> Reason.of("card_not_held", card="7H").to_json()
    {'code': 'card_not_held', 'params': {'card': '7H'}}
    """

    code: str
    params: tuple[tuple[str, str | int], ...] = ()

    @classmethod
    def of(cls, code: str, **params: str | int) -> Reason:
        return cls(code, tuple(sorted(params.items())))

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params)}


class SahratError(Exception):
    """Base of every error the project raises on purpose."""


class MalformedInput(SahratError, ValueError):
    """Text or JSON that does not parse: a bad card code, square, move or position."""

    def __init__(self, message: str, text: object = None) -> None:
        super().__init__(message)
        self.text = text


class IllegalMove(SahratError):
    """A well-formed action that the rules do not allow in this position.

    The message is for developers and the command line; ``reason`` is what a
    player is told, in their language.
    """

    def __init__(self, message: str, action: object = None, reason: Reason | None = None) -> None:
        super().__init__(message)
        self.action = action
        self.reason = reason or Reason("illegal")


class GameOver(IllegalMove):
    """An action offered to a game that has already ended."""
