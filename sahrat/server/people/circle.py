"""The friends and blocks of the players online, kept in memory for the socket side.

Presence, invitations and the chat filter ask these questions on every message,
so they read memory rather than the database: a player's circle is loaded when
they come online (:meth:`Circle.load`) and dropped when they are gone; a change
made over REST (a friendship, a block) is applied here by
:class:`~sahrat.server.people.service.People` as it is stored. Only registered
players are loaded: a guest has no friends and blocks nobody.
"""

from __future__ import annotations


class Circle:
    """Friends and blocks of the loaded players, by player id."""

    def __init__(self) -> None:
        self.friends: dict[str, set[str]] = {}
        #: The players each loaded player has blocked.
        self.blocked: dict[str, set[str]] = {}
        #: The players who have blocked each loaded player.
        self.blockers: dict[str, set[str]] = {}

    def load(self, player: str, friends: set[str], blocked: set[str], blockers: set[str]) -> None:
        self.friends[player] = set(friends)
        self.blocked[player] = set(blocked)
        self.blockers[player] = set(blockers)

    def loaded(self, player: str) -> bool:
        return player in self.friends

    def forget(self, player: str) -> None:
        self.friends.pop(player, None)
        self.blocked.pop(player, None)
        self.blockers.pop(player, None)

    def friends_of(self, player: str) -> set[str]:
        return self.friends.get(player, set())

    def are_friends(self, a: str, b: str) -> bool:
        return b in self.friends.get(a, ()) or a in self.friends.get(b, ())

    def hides(self, recipient: str, sender: str) -> bool:
        """Whether ``recipient`` has blocked ``sender`` (then ``sender``'s chat lines,
        reactions and invitations do not reach ``recipient``).

        >>> circle = Circle()
        >>> circle.load("a", set(), {"b"}, set())
        >>> circle.hides("a", "b"), circle.hides("b", "a")
        (True, False)
        """
        return sender in self.blocked.get(recipient, ()) or recipient in self.blockers.get(
            sender, ()
        )

    def between(self, a: str, b: str) -> bool:
        """Whether either of the two has blocked the other."""
        return self.hides(a, b) or self.hides(b, a)

    # -- changes stored over REST ----------------------------------------------------------

    def befriended(self, a: str, b: str) -> None:
        for one, other in ((a, b), (b, a)):
            if one in self.friends:
                self.friends[one].add(other)

    def unfriended(self, a: str, b: str) -> None:
        for one, other in ((a, b), (b, a)):
            self.friends.get(one, set()).discard(other)

    def block(self, blocker: str, blocked: str) -> None:
        """``blocker`` blocked ``blocked``: it ends their friendship too."""
        self.unfriended(blocker, blocked)
        if blocker in self.blocked:
            self.blocked[blocker].add(blocked)
        if blocked in self.blockers:
            self.blockers[blocked].add(blocker)

    def unblock(self, blocker: str, blocked: str) -> None:
        self.blocked.get(blocker, set()).discard(blocked)
        self.blockers.get(blocked, set()).discard(blocker)


def circle_of_host(host: object) -> Circle | None:
    """The circle of the server a table runs in, if it keeps one (a table run alone in a
    test has a host without presence, and hides nothing)."""
    circle = getattr(getattr(host, "presence", None), "circle", None)
    return circle if isinstance(circle, Circle) else None
