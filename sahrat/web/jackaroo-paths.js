// The squares a Jackaroo marble passes on its way, in the board notation
// (jackaroo.md §6): "t0".."t75" on the track, "h<seat>.<k>" in a home lane,
// "b<seat>" for a base. The server says where a move starts and ends; the
// way between is drawn here (square by square motion, step counts, and the
// preview of what a King sweeps), so it follows the engine's geometry:
// seat s starts on t(19s), and its home lane opens after t(19s - 1).

const TRACK = 76;
const QUARTER = 19;

/** How far a marble of `colour` standing on `loc` has come (0 on its start square, 76.. in its lane). */
export function progress(colour, loc) {
  if (loc[0] === "t") return (((Number(loc.slice(1)) - QUARTER * colour) % TRACK) + TRACK) % TRACK;
  if (loc[0] === "h") return TRACK - 1 + Number(loc.split(".")[1]);
  return -1;
}

/** The square at `prog` on `colour`'s way round (the inverse of progress). */
export function squareAt(colour, prog) {
  if (prog < TRACK) return `t${(prog + QUARTER * colour) % TRACK}`;
  return `h${colour}.${prog - TRACK + 1}`;
}

function trackIndex(loc) {
  return Number(loc.slice(1));
}

/**
 * The squares after `from` up to `to` (both board locations) for a marble of
 * `colour`; `backwards` for a 4. From a base the way is the start square alone.
 * An unexpected pair (a position we cannot follow) gives just [to].
 */
export function pathBetween(from, to, colour, backwards = false) {
  if (!from || !to || from === to) return [to];
  if (from[0] === "b") return [to];
  if (to[0] === "b") return [to];
  if (backwards && from[0] === "t" && to[0] === "t") {
    const out = [];
    for (let i = trackIndex(from), n = 0; n < TRACK; n++) {
      i = (i + TRACK - 1) % TRACK;
      out.push(`t${i}`);
      if (`t${i}` === to) return out;
    }
    return [to];
  }
  const a = progress(colour, from);
  const b = progress(colour, to);
  if (to[0] === "h" && Number(to[1]) !== colour) return [to];
  if (b > a) {
    const out = [];
    for (let p = a + 1; p <= b; p++) out.push(squareAt(colour, p));
    return out;
  }
  // Another colour's marble moved forward by a 5 past our reckoning: plain track steps.
  if (from[0] === "t" && to[0] === "t") {
    const out = [];
    for (let i = trackIndex(from), n = 0; n < TRACK; n++) {
      i = (i + 1) % TRACK;
      out.push(`t${i}`);
      if (`t${i}` === to) return out;
    }
  }
  return [to];
}

/** Steps from `from` to `to` for a marble of `colour` (a split 7's parts), or null. */
export function stepsBetween(from, to, colour) {
  if (!from || !to || from[0] === "b") return null;
  const a = progress(colour, from);
  const b = progress(colour, to);
  return b > a ? b - a : null;
}

/** The colour of a marble standing on `loc`, given every seat's marbles ({seat: [loc…]}). */
export function colourAt(marbles, loc) {
  if (!loc) return null;
  if (loc[0] === "b") return Number(loc.slice(1));
  for (const [seat, locs] of Object.entries(marbles || {})) if (locs.includes(loc)) return Number(seat);
  return null;
}

/** The King's mode at a table: its option, or its preset's (options.py PRESETS). */
export function kingMode(options) {
  if (!options) return "sweep";
  if (options.king) return options.king;
  return { classic: "plain", complex: "breaker" }[options.preset] || "sweep";
}
