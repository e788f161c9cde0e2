// What the games' replays share: the record's draws consumed in the order the
// game made them, the failure that stops step 3, and small readers of the log.

/** A message for the page: a key of words.js and its parameters. */
export const msg = (k, p = {}) => ({ k, p });

/** A failed check that ends its step (in step 3 the replay's state has diverged). */
export class Failed extends Error {
  constructor(key, params = {}) {
    super(key);
    this.msg = msg(key, params);
  }
}

export function firstDifference(a, b) {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return -1;
}

export const show = (v) => (v === undefined ? "—" : String(v));
export const cardsText = (cards) => (cards.length ? cards.join(" ") : "—");

export function isObject(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** A log entry's action, split into words. */
export function readAction(entry, i) {
  if (!isObject(entry) || typeof entry.action !== "string") throw new Failed("f_entry_shape", { i });
  return entry.action.trim().split(/\s+/);
}

/** A non-negative integer word of log entry i. */
export function readIndex(word, i, action) {
  if (!/^\d+$/.test(word ?? "")) throw new Failed("f_bad_action", { i, action });
  return Number(word);
}

/**
 * The draws of the record, consumed in the order the game made them, exactly as the
 * engines' RecordingSource appended them; the log's chance entries must name them.
 */
export class Draws {
  constructor(record) {
    if (!Array.isArray(record.shuffles) || !Array.isArray(record.picks)) throw new Failed("no_lists");
    if (!Array.isArray(record.deals)) throw new Failed("no_deals");
    this.shuffles = record.shuffles;
    this.picks = record.picks;
    this.si = 0;
    this.pi = 0;
    this.deals = new Map();
    for (const deal of record.deals) {
      if (!isObject(deal) || !Number.isInteger(deal.after) || !isObject(deal.hands)) {
        throw new Failed("f_deal_shape");
      }
      if (this.deals.has(deal.after)) throw new Failed("f_deal_twice", { after: deal.after });
      this.deals.set(deal.after, deal.hands);
    }
    this.usedDeals = new Set();
  }

  /** The next recorded pick, checked against what the game was drawing and the log. */
  pick(i, label, n, logValue) {
    const k = this.pi;
    const entry = this.picks[this.pi++];
    if (entry === undefined) throw new Failed("f_pick_missing", { i });
    if (entry.label !== label) throw new Failed("f_pick_label", { i, k, label: show(entry.label), exp: label });
    if (entry.n !== n) throw new Failed("f_pick_n", { i, k, label, n: show(entry.n), exp: n });
    if (entry.value !== logValue) {
      throw new Failed("f_pick_value", { i, k, label, logv: logValue, v: show(entry.value) });
    }
    if (!(logValue >= 0 && logValue < n)) throw new Failed("f_pick_range", { i, k, label, v: logValue, n });
    return logValue;
  }

  /** The next recorded shuffle: its label, its input (what the game shuffled) and the log. */
  shuffle(i, label, expectedInput, inputKind, logCards) {
    const k = this.si;
    const entry = this.shuffles[this.si++];
    if (entry === undefined) throw new Failed("f_shuffle_missing", { i });
    if (entry.label !== label) {
      throw new Failed("f_shuffle_label", { k, label: show(entry.label), exp: label });
    }
    const inPos = firstDifference(entry.input, expectedInput);
    if (inPos >= 0) {
      throw new Failed("f_shuffle_input", {
        label, what: inputKind, pos: inPos, rec: show(entry.input[inPos]), exp: show(expectedInput[inPos]),
      });
    }
    const outPos = firstDifference(logCards, entry.output);
    if (outPos >= 0) {
      throw new Failed("f_log_shuffle", {
        i, label, pos: outPos, log: show(logCards[outPos]), rec: show(entry.output[outPos]),
      });
    }
    return entry.output.slice();
  }

  /** Compare the record's deal after log entry i with the hands the shuffle dealt. */
  compareDeal(i, label, seats, handsOf) {
    const recorded = this.deals.get(i);
    if (recorded === undefined) throw new Failed("f_deal_missing", { after: i, label });
    this.usedDeals.add(i);
    const recSeats = Object.keys(recorded).sort();
    const ourSeats = seats.map(String).sort();
    if (firstDifference(recSeats, ourSeats) >= 0) {
      throw new Failed("f_deal_seats", { after: i, label, rec: recSeats.join(","), calc: ourSeats.join(",") });
    }
    for (const seat of seats) {
      const rec = recorded[String(seat)];
      const calc = handsOf(seat);
      if (!Array.isArray(rec) || firstDifference(rec, calc) >= 0) {
        throw new Failed("f_deal_hand", {
          after: i, label, seat, rec: Array.isArray(rec) ? cardsText(rec) : show(rec), calc: cardsText(calc),
        });
      }
    }
  }

  /** Every recorded deal, shuffle and pick was used by the log. */
  finish() {
    for (const after of this.deals.keys()) {
      if (!this.usedDeals.has(after)) throw new Failed("f_deal_extra", { after });
    }
    if (this.si !== this.shuffles.length) {
      throw new Failed("f_unused", { what: "shuffles", used: this.si, total: this.shuffles.length });
    }
    if (this.pi !== this.picks.length) {
      throw new Failed("f_unused", { what: "picks", used: this.pi, total: this.picks.length });
    }
  }
}
