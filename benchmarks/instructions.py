"""Instructions per random game on the compiled and the pure build, counted by Valgrind.

A CPU-time ratio moves by a third between two runs of the same code on a machine
whose speed varies from minute to minute (a shared virtual machine); the number of
instructions a game takes does not. Each build plays the same seeded random games
under ``valgrind --tool=callgrind`` twice, ``N`` and ``2N`` of them, and the
difference is what games ``N+1 .. 2N`` cost, start-up and imports left out.
Instructions are not time (the compiled build's run faster per instruction, so the
time ratio is usually the higher), but they compare two versions of the code exactly.

    PYTHONPATH=. python benchmarks/instructions.py [--game jackaroo|buraco] [--games N]

Needs ``valgrind`` (Debian's package); takes about a minute for the default 20 games.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: What each build plays: ``bench_games``/``bench_hands`` of ``sahrat bench``, for a
#: number of games (or Buraco hands) instead of a time.
PLAY = {
    "jackaroo": (
        "from sahrat.bench.jackaroo import bench_games, options_for\n"
        "bench_games(options_for('sahrat', 4, {{}}), 0, {count}, 7)\n"
    ),
    "buraco": (
        "from sahrat.bench.buraco import bench_hands\n"
        "from sahrat.games import GAMES\n"
        "bench_hands(GAMES['buraco'].options_from_json({{}}, 4), 0, {count}, 7)\n"
    ),
}


def instructions(game: str, count: int, *, pure: bool) -> int:
    """Instructions of a whole process that plays ``count`` games on one build."""
    env = {k: v for k, v in os.environ.items() if k != "SAHRAT_PURE_PYTHON"}
    env["PYTHONPATH"] = str(ROOT)
    if pure:
        env["SAHRAT_PURE_PYTHON"] = "1"
    done = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            "-c",
            PLAY[game].format(count=count),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count from valgrind:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def per_game(game: str, count: int, *, pure: bool) -> float:
    return (instructions(game, 2 * count, pure=pure) - instructions(game, count, pure=pure)) / count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(PLAY), default="jackaroo")
    parser.add_argument("--games", type=int, default=20, help="N: games N+1..2N are counted")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 1
    from sahrat.compiled import COMPILED

    if not COMPILED:
        print("no compiled build to compare (./scripts/setup builds it)", file=sys.stderr)
        return 1
    what = "games" if args.game == "jackaroo" else "hands"
    compiled = per_game(args.game, args.games, pure=False)
    pure = per_game(args.game, args.games, pure=True)
    counted = f"{what} {args.games + 1}..{2 * args.games}"
    print(f"{args.game}: instructions per random {what[:-1]} ({counted})")
    print(f"compiled (mypyc)  {compiled / 1e6:8.2f} M")
    print(f"pure Python       {pure / 1e6:8.2f} M")
    print(f"ratio             {pure / compiled:8.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
