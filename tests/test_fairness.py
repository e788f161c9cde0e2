"""fairness.md: streams, uniform, shuffle, commitment, and the published vector."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from sahrat.cards import BURACO_DECK, JACKAROO_DECK, format_cards, parse_cards
from sahrat.cli.main import main
from sahrat.errors import MalformedInput
from sahrat.fairness import (
    DERIVED_PREFIX,
    FairSource,
    Seeds,
    Stream,
    check_id,
    commitment,
    derived_seed,
    parse_seed_hex,
)

SEED = bytes(range(32))
SEED_HEX = SEED.hex()
CLIENTS = ("alice", "bob", "carol", "dave")


def vector() -> dict[str, str]:
    """The test vector published with the spec (``fairness-vector.txt``)."""
    return {
        "commitment": "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
        "first eight": "5S JS KC KH 5H TC QH 7C",
    }


#: Derived seeds of the vector's commitment, as ``sha256sum`` prints the §1 digest.
DERIVED = {
    0: "bot-215d58afdf19abee0dc92d707ab31103",
    3: "bot-31c215007b9ace709cd4ed74169d71ce",
}


def test_published_vector_commitment() -> None:
    assert commitment(SEED) == vector()["commitment"]


def test_published_vector_first_eight_cards() -> None:
    deck = list(JACKAROO_DECK)
    Stream(Seeds(SEED, "demo-1", CLIENTS), "shuffle/0").shuffle(deck)
    assert format_cards(deck[:8]) == vector()["first eight"]


def test_cli_shuffle_matches_vector(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["fairness", "shuffle", "--server-seed", SEED_HEX, "--game-id", "demo-1"]
    args += ["--client-seeds", ",".join(CLIENTS), "--label", "shuffle/0", "--deck", "jackaroo"]
    assert main(args) == 0
    cards = capsys.readouterr().out.split()
    assert len(cards) == 52 and sorted(parse_cards(cards)) == list(range(52))
    assert " ".join(cards[:8]) == vector()["first eight"]


def test_cli_commit(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fairness", "commit", SEED_HEX]) == 0
    assert capsys.readouterr().out == vector()["commitment"] + "\n"


def test_cli_buraco_deck_has_108_cards(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["fairness", "shuffle", "--server-seed", SEED_HEX, "--game-id", "g"]
    args += ["--client-seeds", "a,b", "--label", "shuffle/3", "--deck", "buraco"]
    assert main(args) == 0
    cards = capsys.readouterr().out.split()
    assert sorted(cards) == sorted(format_cards(BURACO_DECK).split())


@pytest.mark.parametrize(
    "args",
    [
        ["fairness", "commit", "00ff"],
        ["fairness", "commit", "zz" * 32],
        ["fairness", "shuffle", "--server-seed", SEED_HEX, "--game-id", "bad id",
         "--client-seeds", "a", "--label", "x", "--deck", "jackaroo"],
        ["fairness", "shuffle", "--server-seed", SEED_HEX, "--game-id", "g",
         "--client-seeds", "a,,b", "--label", "x", "--deck", "jackaroo"],
        ["fairness", "shuffle", "--server-seed", SEED_HEX, "--game-id", "g",
         "--client-seeds", "a", "--label", "bad label!", "--deck", "jackaroo"],
    ],
)  # fmt: skip
def test_cli_rejects_malformed_input(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1


def test_stream_bytes_are_the_hmac_blocks_of_the_spec() -> None:
    seeds = Seeds(SEED, "g-1", ("x", "y"))
    stream = Stream(seeds, "pick/4")
    words = [stream.next_u32() for _ in range(16)]  # two 32-byte blocks
    expected = b"".join(
        hmac.new(SEED, f"sahrat-v1|g-1|x,y|pick/4|{c}".encode(), hashlib.sha256).digest()
        for c in (0, 1)
    )
    assert words == [int.from_bytes(expected[i : i + 4], "big") for i in range(0, 64, 4)]


def test_uniform_rejects_the_biased_tail() -> None:
    # n = 3 * 2^30: the limit is 2^32 - 2^30, so any word at or above it is redrawn.
    seeds = Seeds(SEED, "g", ("a",))
    n = 3 << 30
    limit = (1 << 32) - ((1 << 32) % n)
    raw = Stream(seeds, "t")
    expected = []
    while len(expected) < 50:
        x = raw.next_u32()
        if x < limit:
            expected.append(x % n)
    drawn = Stream(seeds, "t")
    assert [drawn.uniform(n) for _ in range(50)] == expected


def test_uniform_bounds() -> None:
    stream = Stream(Seeds(SEED, "g", ("a",)), "t")
    assert all(stream.uniform(1) == 0 for _ in range(10))
    assert all(0 <= stream.uniform(7) < 7 for _ in range(200))
    with pytest.raises(ValueError, match="uniform"):
        stream.uniform(0)
    with pytest.raises(ValueError, match="uniform"):
        stream.uniform((1 << 32) + 1)


def test_shuffle_is_fisher_yates_from_the_end() -> None:
    seeds = Seeds(SEED, "g", ("a", "b"))
    picks = Stream(seeds, "shuffle/9")
    expected = list(range(10))
    for i in range(9, 0, -1):
        j = picks.uniform(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    deck = list(range(10))
    Stream(seeds, "shuffle/9").shuffle(deck)
    assert deck == expected


def test_streams_differ_by_every_input() -> None:
    def first(seeds: Seeds, label: str) -> list[int]:
        stream = Stream(seeds, label)
        return [stream.next_u32() for _ in range(4)]

    base = first(Seeds(SEED, "g", ("a", "b")), "shuffle/0")
    assert base != first(Seeds(SEED, "g", ("a", "b")), "shuffle/1")
    assert base != first(Seeds(SEED, "h", ("a", "b")), "shuffle/0")
    assert base != first(Seeds(SEED, "g", ("a", "c")), "shuffle/0")
    assert base != first(Seeds(bytes(32), "g", ("a", "b")), "shuffle/0")


def test_fair_source_uses_a_fresh_stream_per_label() -> None:
    seeds = Seeds(SEED, "g", ("a",))
    source = FairSource(seeds)
    assert source.uniform("dealer", 4) == Stream(seeds, "dealer").uniform(4)
    assert source.uniform("dealer", 4) == source.uniform("dealer", 4)


@pytest.mark.parametrize(
    ("seed", "game_id", "clients"),
    [(bytes(31), "g", ("a",)), (SEED, "", ("a",)), (SEED, "g" * 65, ("a",)), (SEED, "g", ())],
)
def test_seeds_are_validated(seed: bytes, game_id: str, clients: tuple[str, ...]) -> None:
    with pytest.raises(MalformedInput):
        Seeds(seed, game_id, clients)


def test_parse_seed_hex() -> None:
    assert parse_seed_hex(SEED_HEX) == SEED
    with pytest.raises(MalformedInput):
        parse_seed_hex(SEED_HEX[:-1])


def test_derived_seed_of_the_vector_commitment() -> None:
    for seat, seed in DERIVED.items():
        assert derived_seed(vector()["commitment"], seat) == seed


def test_derived_seed_is_the_formula_of_section_one() -> None:
    c = vector()["commitment"]
    for seat in range(4):
        text = f"sahrat-v1|seat-seed|{c}|{seat}"
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        seed = derived_seed(c, seat)
        assert seed == DERIVED_PREFIX + digest[:32] and DERIVED_PREFIX == "bot-"
        # It is itself a valid client seed, so the streams take it like any other.
        assert check_id(seed, "client seed") == seed and len(seed) == 36
    assert len({derived_seed(c, seat) for seat in range(4)}) == 4
    assert derived_seed(commitment(bytes(32)), 0) != derived_seed(c, 0)
