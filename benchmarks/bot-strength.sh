#!/usr/bin/env bash
# Bot strength, measured with the arena. SCALE divides the number of games
# (SCALE=10 for a quick look); every run prints one JSON object.
set -euo pipefail
cd "$(dirname "$0")/.."
scale=${1:-1}
# The search bot's budget: 100 ms a decision. A time budget makes the search weaker
# on a loaded machine (fewer iterations): run this with nothing else busy. The arena
# deals both games of a pair alike, so each team plays the other's hands.
search=${SEARCH:-ismcts:100ms}
arena() { .venv/bin/sahrat arena --json "$@"; }

for preset in sahrat complex; do
    arena --game jackaroo --preset "$preset" --seats 4 \
        --team-a heuristic --team-b random --games $((1000 / scale)) --seed 1
done
arena --game jackaroo --seats 2 --team-a heuristic --team-b random --games $((1000 / scale)) --seed 1
for preset in sahrat complex; do
    arena --game jackaroo --preset "$preset" --seats 4 \
        --team-a "$search" --team-b heuristic --games $((300 / scale)) --seed 1
done
arena --game jackaroo --seats 2 --team-a "$search" --team-b heuristic --games $((300 / scale)) --seed 1
arena --game buraco --seats 4 --option target=1000 \
    --team-a heuristic --team-b random --games $((200 / scale)) --seed 1
arena --game buraco --seats 4 --option target=1000 \
    --team-a "$search" --team-b heuristic --games $((100 / scale)) --seed 1
