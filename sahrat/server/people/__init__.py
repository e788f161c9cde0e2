"""People: ratings, leaderboards, profiles and friends (``docs/people.md``)."""
