// Jackaroo moves in the notation of jackaroo.md §6, and the click-by-click
// choice of one of the legal moves the server listed.
//
// The engine alone decides what is legal; the UI only offers what the
// server's `legal` list contains, so a click can never build a move that
// the server would refuse (except when the position moved on meanwhile).

/**
 * Parse one move: "KC b0-t0", "7C t5-t8 t20-t24", "JH t5~t40", "TD burn",
 * "9S discard", "discard-all".
 */
export function parseMove(text) {
  const parts = text.trim().split(/\s+/);
  if (parts[0] === "discard-all") return { text, kind: "discard-all", card: null };
  const [card, first, second] = parts;
  if (first === "burn") return { text, kind: "burn", card };
  if (first === "discard") return { text, kind: "discard", card };
  if (first.includes("~")) {
    const [from, to] = first.split("~");
    return { text, kind: "swap", card, from, to };
  }
  const [from, to] = first.split("-");
  if (second) {
    const [from2, to2] = second.split("-");
    return { text, kind: "split", card, from, to, from2, to2 };
  }
  return { text, kind: "move", card, from, to };
}

/** The seat whose base a location names ("b2" → 2), or null. */
export function baseSeat(loc) {
  return loc && loc[0] === "b" ? Number(loc.slice(1)) : null;
}

/**
 * The choice of a move in clicks: a card, then a marble, then a square
 * (and for a split 7, a second marble and maybe its square).
 */
export class MoveChooser {
  constructor(legal) {
    this.moves = (legal || []).map(parseMove);
    this.reset();
  }

  reset() {
    this.card = null;
    this.from = null;
    this.part1 = null; // {from, to} of a split 7's first part
    this.from2 = null;
  }

  /** Cards that have at least one legal move (burns and discards included). */
  playableCards() {
    return new Set(this.moves.filter((m) => m.card).map((m) => m.card));
  }

  /** "board" when the card moves a marble, "burn" when it can only be burnt or burn. */
  cardUse(card) {
    return this.moves.some((m) => m.card === card && m.from) ? "board" : "burn";
  }

  cardMoves() {
    return this.moves.filter((m) => m.card === this.card);
  }

  /** Moves needing no marble: a T's burn, a discard, the whole hand burnt. */
  buttons() {
    const out = this.moves.filter((m) => m.kind === "discard-all");
    if (this.card) out.push(...this.cardMoves().filter((m) => m.kind === "burn" || m.kind === "discard"));
    return out;
  }

  selectCard(card) {
    const same = this.card === card;
    this.reset();
    if (!same) this.card = card;
  }

  /** What to highlight: marbles that can be picked and squares that can be reached. */
  options() {
    const movable = new Set();
    const targets = new Set();
    if (!this.card) return { movable, targets };
    const moves = this.cardMoves();
    if (this.part1) {
      const rest = moves.filter(
        (m) => m.kind === "split" && m.from === this.part1.from && m.to === this.part1.to,
      );
      for (const m of rest) {
        if (this.from2 === null) movable.add(m.from2);
        else if (m.from2 === this.from2) targets.add(m.to2);
      }
      if (this.from2 !== null) for (const m of rest) movable.add(m.from2);
      return { movable, targets };
    }
    for (const m of moves) if (m.from) movable.add(m.from);
    if (this.from !== null) {
      for (const m of moves) if (m.from === this.from && m.to) targets.add(m.to);
    }
    return { movable, targets };
  }

  /**
   * A click on a location (a marble's square, "b<seat>" for a base, or an
   * empty square). Returns the move's text when the move is complete.
   */
  click(loc) {
    if (!this.card) return null;
    const { movable, targets } = this.options();
    const moves = this.cardMoves();
    if (targets.has(loc)) {
      if (this.part1) {
        const done = moves.find(
          (m) =>
            m.kind === "split" &&
            m.from === this.part1.from &&
            m.to === this.part1.to &&
            m.from2 === this.from2 &&
            m.to2 === loc,
        );
        return done ? done.text : null;
      }
      const whole = moves.find((m) => (m.kind === "move" || m.kind === "swap") && m.from === this.from && m.to === loc);
      if (whole) return whole.text;
      // Only a split's first part goes there: the 7 continues with another marble.
      this.part1 = { from: this.from, to: loc };
      this.from2 = null;
      return null;
    }
    if (movable.has(loc)) {
      if (this.part1) {
        this.from2 = loc;
        const ends = moves.filter(
          (m) => m.kind === "split" && m.from === this.part1.from && m.to === this.part1.to && m.from2 === loc,
        );
        // One way to finish the seven with this marble: no need for another click.
        return ends.length === 1 ? ends[0].text : null;
      }
      this.from = loc;
      return null;
    }
    // A click elsewhere steps back: the split's first part, then the marble.
    if (this.part1) {
      this.part1 = null;
      this.from2 = null;
    } else {
      this.from = null;
    }
    return null;
  }

  /** Where the selection stands, for the hint line under the hand. */
  stage() {
    if (!this.card) return "card";
    if (this.part1) return this.from2 === null ? "split-marble" : "split-square";
    const swap = this.cardMoves().some((m) => m.kind === "swap");
    if (this.from === null) return "marble";
    return swap ? "swap-target" : "square";
  }
}
