// The Verify page: steps 1–3 of fairness.md §4, computed in the browser, and
// step 5: every seed the server filled in (a bot, a missed window) is the
// derived seed of fairness.md §1, fixed by the commitment.
//
// Everything here runs on the record alone, with the Web Crypto API, so a
// player does not have to trust the server that dealt the cards to tell
// them the cards were fair. Step 4 (replaying the moves under the rules)
// needs the game engines; the page points to the server's replay and to
// `sahrat verify FILE` for it.
//
// The exported functions (Stream, shuffleDeck, verifyRecord, …) carry no
// DOM and are what the tests import; the page itself starts only when
// verify.html's root element is present.

// -- cards ---------------------------------------------------------------------------

const RANKS = "A23456789TJQK";
const SUITS = "SHDC";
export const JOKER = "JK";
/** Card codes in the engines' order (suit * 13 + rank, then the joker). */
export const CODES = Object.freeze([
  ...[...SUITS].flatMap((s) => [...RANKS].map((r) => r + s)),
  JOKER,
]);
const INDEX = new Map(CODES.map((code, i) => [code, i]));
/** The unshuffled decks of fairness.md §3. */
export const JACKAROO_DECK = Object.freeze(CODES.slice(0, 52));
export const BURACO_DECK = Object.freeze([
  ...JACKAROO_DECK, ...JACKAROO_DECK, JOKER, JOKER, JOKER, JOKER,
]);
export const DECKS = Object.freeze({ jackaroo: JACKAROO_DECK, buraco: BURACO_DECK });

function isCode(code, joker) {
  return INDEX.has(code) && (joker || code !== JOKER);
}

// -- the streams of fairness.md §2 ------------------------------------------------------

const VERSION = "sahrat-v1";
const TWO32 = 2 ** 32;
const ID_RE = /^[A-Za-z0-9_-]{1,64}$/;
const LABEL_RE = /^[A-Za-z0-9_/-]{1,64}$/;
const HEX64_RE = /^[0-9a-fA-F]{64}$/;
const ENCODER = new TextEncoder();

/** Thrown for a record (or vector) that cannot even be read; carries a message key. */
export class Malformed extends Error {
  constructor(key, params = {}) {
    super(`${key} ${JSON.stringify(params)}`);
    this.msg = { k: key, p: params };
  }
}

export function hexToBytes(hex) {
  if (typeof hex !== "string" || !HEX64_RE.test(hex)) throw new Malformed("bad_seed");
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function toHex(buffer) {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function sha256Hex(bytes) {
  return toHex(await crypto.subtle.digest("SHA-256", bytes));
}

/** The lowercase hex SHA-256 of a seed given in hex: what the commitment must be. */
export async function commitmentOf(seedHex) {
  return sha256Hex(hexToBytes(seedHex));
}

/** What every derived seed starts with; a seed a player sends may not. */
export const DERIVED_PREFIX = "bot-";

/** The client seed of a seat that sent none (fairness.md §1); `seat` is its index in the list. */
export async function derivedSeed(commitmentHex, seat) {
  const digest = await sha256Hex(ENCODER.encode(`${VERSION}|seat-seed|${commitmentHex}|${seat}`));
  return DERIVED_PREFIX + digest.slice(0, 32);
}

/** Everything that keys a game's streams (fairness.md §1), with its HMAC key imported once. */
export class Seeds {
  static async create(seedHex, gameId, clientSeeds) {
    const seed = hexToBytes(seedHex);
    if (typeof gameId !== "string" || !ID_RE.test(gameId)) {
      throw new Malformed("bad_game_id", { v: String(gameId) });
    }
    if (!Array.isArray(clientSeeds) || clientSeeds.length === 0) {
      throw new Malformed("bad_client_seeds");
    }
    for (const s of clientSeeds) {
      if (typeof s !== "string" || !ID_RE.test(s)) throw new Malformed("bad_client_seed", { v: String(s) });
    }
    const key = await crypto.subtle.importKey(
      "raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"],
    );
    const seeds = new Seeds();
    seeds.key = key;
    seeds.gameId = gameId;
    seeds.clientSeeds = clientSeeds.slice();
    return seeds;
  }
}

/** One label's byte stream: HMAC-SHA256 blocks, read four bytes at a time. */
export class Stream {
  constructor(seeds, label) {
    if (typeof label !== "string" || !LABEL_RE.test(label)) {
      throw new Malformed("bad_label", { v: String(label) });
    }
    this.key = seeds.key;
    this.prefix = `${VERSION}|${seeds.gameId}|${seeds.clientSeeds.join(",")}|${label}|`;
    this.counter = 0;
    this.block = null;
    this.pos = 32;
  }

  async nextU32() {
    // A 32-byte block splits evenly into 4-byte words, so a word never straddles blocks.
    if (this.pos >= 32) {
      const mac = await crypto.subtle.sign("HMAC", this.key, ENCODER.encode(this.prefix + this.counter));
      this.counter += 1;
      this.block = new DataView(mac);
      this.pos = 0;
    }
    const x = this.block.getUint32(this.pos, false);
    this.pos += 4;
    return x;
  }

  /** An unbiased integer in 0..n-1 by rejection sampling (fairness.md §2). */
  async uniform(n) {
    if (!Number.isInteger(n) || n < 1 || n > TWO32) throw new Malformed("bad_n", { v: String(n) });
    const limit = TWO32 - (TWO32 % n);
    for (;;) {
      const x = await this.nextU32();
      if (x < limit) return x % n;
    }
  }

  /** Fisher–Yates from the end, in place; index 0 is then the top of the deck. */
  async shuffle(items) {
    for (let i = items.length - 1; i > 0; i--) {
      const j = await this.uniform(i + 1);
      const t = items[i];
      items[i] = items[j];
      items[j] = t;
    }
    return items;
  }
}

/** `sahrat fairness shuffle` in the browser: the deck's codes, top first. */
export async function shuffleDeck({ serverSeed, gameId, clientSeeds, label, deck = "jackaroo" }) {
  const seeds = await Seeds.create(serverSeed, gameId, clientSeeds);
  const items = (Array.isArray(deck) ? deck : DECKS[deck]).slice();
  return new Stream(seeds, label).shuffle(items);
}

// -- verification ------------------------------------------------------------------------

const msg = (k, p = {}) => ({ k, p });

/** A failed check that ends its step (in step 3 the simulation's state has diverged). */
class Failed extends Error {
  constructor(key, params = {}) {
    super(key);
    this.msg = msg(key, params);
  }
}

function firstDifference(a, b) {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return -1;
}

const show = (v) => (v === undefined ? "—" : String(v));
const cardsText = (cards) => (cards.length ? cards.join(" ") : "—");

function isObject(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/**
 * Steps 1–3 of fairness.md §4 and step 5 (the derived seeds) on a parsed record.
 *
 * Returns `{status, info, steps, deals}`: status is "ok", "fail", "running" (no seed
 * yet) or "error" (not a record); each step has `state` ("ok", "fail", "skipped"),
 * a `summary` and `items`, all as message objects `{k, p}` so that the page can
 * show them in either language.
 */
export async function verifyRecord(record) {
  const report = { status: "ok", info: null, steps: [], deals: [] };
  if (!isObject(record) || typeof record.game !== "string" || !("commitment" in record)
      || !Array.isArray(record.log)) {
    report.status = "error";
    report.error = msg("not_record");
    return report;
  }
  report.info = {
    game: record.game,
    gameId: show(record.game_id),
    options: record.options,
    players: Array.isArray(record.players) ? record.players : [],
    commitment: show(record.commitment),
    serverSeed: typeof record.server_seed === "string" ? record.server_seed : null,
    clientSeeds: Array.isArray(record.client_seeds) ? record.client_seeds.map(String) : [],
    winners: isObject(record.result) && Array.isArray(record.result.winners)
      ? record.result.winners : null,
    moves: record.log.length,
  };
  if (typeof record.server_seed !== "string") {
    // A running game's record hides the seed, the shuffles and the deals (records.py).
    report.status = "running";
    return report;
  }

  let seeds = null;
  const steps = [
    [1, async (step) => { seeds = await stepCommitment(record, step); }],
    [2, async (step) => stepRecompute(record, seeds, step)],
    [3, async (step) => stepDeals(record, step, report)],
    [5, async (step) => stepDerived(record, step)],
  ];
  let failed = false;
  for (const [n, run] of steps) {
    const step = { n, state: "ok", summary: null, items: [] };
    report.steps.push(step);
    if (failed) {
      step.state = "skipped";
      step.summary = msg("skipped");
      continue;
    }
    try {
      await run(step);
    } catch (error) {
      step.state = "fail";
      if (error instanceof Failed || error instanceof Malformed) {
        step.items.push({ ok: false, msg: error.msg });
        step.summary = msg(error instanceof Malformed ? "malformed_step" : `s${n}_failed`);
      } else {
        step.items.push({ ok: false, msg: msg("malformed", { why: String(error && error.message) }) });
        step.summary = msg("malformed_step");
      }
    }
    if (step.state === "fail") failed = true;
  }
  if (failed) {
    report.status = "fail";
    report.failedStep = report.steps.find((s) => s.state === "fail").n;
  }
  return report;
}

async function stepCommitment(record, step) {
  const seedHex = record.server_seed;
  if (!HEX64_RE.test(seedHex)) throw new Failed("s1_bad_seed");
  const digest = await commitmentOf(seedHex);
  const commitment = String(record.commitment);
  if (digest !== commitment) {
    throw new Failed("s1_fail", { d: digest, c: commitment });
  }
  step.items.push({ ok: true, msg: msg("s1_ok", { d: digest }) });
  step.summary = msg("s1_summary");
  // The streams need a valid game id and client seeds: a bad one is a malformed record.
  return Seeds.create(seedHex, record.game_id, record.client_seeds);
}

async function stepRecompute(record, seeds, step) {
  const shuffles = record.shuffles;
  const picks = record.picks;
  if (!Array.isArray(shuffles) || !Array.isArray(picks)) throw new Failed("no_lists");
  let bad = 0;
  // Every draw is checked (not only up to the first failure) so that all tampering shows.
  for (const [i, entry] of shuffles.entries()) {
    const label = show(entry && entry.label);
    const fail = (key, p) => {
      bad += 1;
      step.items.push({ ok: false, msg: msg(key, { i, label, ...p }) });
    };
    if (!isObject(entry) || !Array.isArray(entry.input) || !Array.isArray(entry.output)) {
      fail("s2_shuffle_shape");
      continue;
    }
    const badCard = [...entry.input, ...entry.output].find((c) => !isCode(c, true));
    if (badCard !== undefined) {
      fail("s2_bad_card", { c: String(badCard) });
      continue;
    }
    let recomputed;
    try {
      recomputed = await new Stream(seeds, entry.label).shuffle(entry.input.slice());
    } catch (error) {
      if (!(error instanceof Malformed)) throw error;
      fail("s2_bad_label");
      continue;
    }
    const pos = firstDifference(entry.output, recomputed);
    if (pos >= 0) {
      fail("s2_shuffle_diff", { pos, rec: show(entry.output[pos]), calc: show(recomputed[pos]) });
    } else {
      step.items.push({ ok: true, msg: msg("s2_shuffle_ok", { i, label, n: recomputed.length }) });
    }
  }
  for (const [i, entry] of picks.entries()) {
    const label = show(entry && entry.label);
    const fail = (key, p) => {
      bad += 1;
      step.items.push({ ok: false, msg: msg(key, { i, label, ...p }) });
    };
    if (!isObject(entry)) {
      fail("s2_pick_shape");
      continue;
    }
    let value;
    try {
      value = await new Stream(seeds, entry.label).uniform(entry.n);
    } catch (error) {
      if (!(error instanceof Malformed)) throw error;
      fail(error.msg.k === "bad_n" ? "s2_bad_n" : "s2_bad_label", { n: show(entry.n) });
      continue;
    }
    if (value !== entry.value) {
      fail("s2_pick_diff", { n: entry.n, v: show(entry.value), calc: value });
    } else {
      step.items.push({ ok: true, msg: msg("s2_pick_ok", { i, label, n: entry.n, v: value }) });
    }
  }
  const total = shuffles.length + picks.length;
  if (bad) {
    step.state = "fail";
    step.summary = msg("s2_summary_fail", { bad, total });
  } else {
    step.summary = msg("s2_summary_ok", { s: shuffles.length, p: picks.length });
  }
}

// -- step 5: the derived seeds ---------------------------------------------------------------

/** The engine seats in play order: the order of the record's client seeds. */
function seatOrder(record) {
  if (record.game === "jackaroo") return jackarooSetup(record.options).order;
  if (record.game === "buraco") return Array.from({ length: buracoSetup(record.options).players }, (_, s) => s);
  throw new Failed("f_unknown_game", { game: record.game });
}

async function stepDerived(record, step) {
  // Step 1 has tied the commitment to the server seed and checked every client seed's form.
  const commitment = String(record.commitment);
  const clientSeeds = record.client_seeds;
  const seats = seatOrder(record);
  if (clientSeeds.length !== seats.length) {
    throw new Failed("s5_count", { n: clientSeeds.length, m: seats.length });
  }
  const bots = new Set();
  const players = Array.isArray(record.players) ? record.players : [];
  for (const [i, player] of players.entries()) {
    if (!isObject(player) || !("seat" in player) || !("bot" in player)) throw new Malformed("s5_player_shape", { i });
    if (player.bot !== true) continue;
    const index = seats.indexOf(player.seat);
    if (index < 0) throw new Failed("s5_no_seat", { seat: show(player.seat) });
    bots.add(index);
  }
  const matched = [];
  let bad = 0;
  for (const [i, seed] of clientSeeds.entries()) {
    const exp = await derivedSeed(commitment, i);
    const p = { seat: seats[i], i, seed, exp };
    if (seed === exp) {
      matched.push(seats[i]);
      step.items.push({ ok: true, msg: msg("s5_ok", p) });
    } else if (bots.has(i) || seed.startsWith(DERIVED_PREFIX)) {
      bad += 1;
      step.items.push({ ok: false, msg: msg(bots.has(i) ? "s5_bot" : "s5_prefix", p) });
    } else {
      step.items.push({ ok: true, msg: msg("s5_own", p) });
    }
  }
  if (bad) {
    step.state = "fail";
    step.summary = msg("s5_summary_fail", { bad });
  } else if (matched.length) {
    step.summary = msg("s5_summary_ok", { n: matched.length, seats: matched });
  } else {
    step.summary = msg("s5_summary_none");
  }
}

// -- step 3: the deals -------------------------------------------------------------------

/**
 * The draws of the record, consumed in the order the game made them, exactly as the
 * engines' RecordingSource appended them; the log's chance entries must name them.
 */
class Draws {
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

function readAction(entry, i) {
  if (!isObject(entry) || typeof entry.action !== "string") throw new Failed("f_entry_shape", { i });
  return entry.action.trim().split(/\s+/);
}

function readIndex(word, i, action) {
  if (!/^\d+$/.test(word ?? "")) throw new Failed("f_bad_action", { i, action });
  return Number(word);
}

async function stepDeals(record, step, report) {
  const draws = new Draws(record);
  let outcome;
  try {
    if (record.game === "jackaroo") outcome = jackarooDeals(record, draws, report);
    else if (record.game === "buraco") outcome = buracoDeals(record, draws, report);
    else throw new Failed("f_unknown_game", { game: record.game });
  } catch (error) {
    // A hand that differs is shown opened, beside the hands that the shuffle dealt.
    if (error instanceof Failed && error.msg.k.startsWith("f_deal_") && report.deals.length) {
      report.deals.at(-1).failed = true;
    }
    throw error;
  }
  draws.finish();
  for (const deal of report.deals.filter((d) => d.recorded)) {
    step.items.push({ ok: true, msg: msg("s3_deal_ok", { after: deal.after, label: deal.label, dealer: deal.dealer }) });
  }
  step.summary = msg(record.game === "jackaroo" ? "s3_summary_j" : "s3_summary_b", outcome);
}

// Jackaroo (jackaroo.md §5; state.py _deal, _end_round, _apply_chance).

const JACKAROO_PRESET_DEAL = { sahrat: "5-4-4", classic: "4-each", complex: "4-each" };
/** Cards dealt per round in one 5-4-4 deck cycle, by seat count. */
const SCHEDULES = { 4: [5, 4, 4], 2: [5, 4, 4, 4, 4, 5] };
const FOUR_EACH = 4;

export function jackarooSetup(options) {
  const o = options ?? {};
  if (!isObject(o)) throw new Failed("f_options", { why: "options" });
  const preset = o.preset ?? "sahrat";
  if (!(preset in JACKAROO_PRESET_DEAL)) throw new Failed("f_options", { why: `preset ${preset}` });
  let seats = o.seats ?? 4;
  if (typeof seats === "string" && /^\d+$/.test(seats)) seats = Number(seats);
  if (seats !== 2 && seats !== 4) throw new Failed("f_options", { why: `seats ${seats}` });
  const deal = o.deal ?? JACKAROO_PRESET_DEAL[preset];
  if (deal !== "5-4-4" && deal !== "4-each") throw new Failed("f_options", { why: `deal ${deal}` });
  // Two-seat tables use seats 0 and 2 (rules.py).
  return { preset, seats, deal, order: seats === 4 ? [0, 1, 2, 3] : [0, 2] };
}

function jackarooDeals(record, draws, report) {
  const { deal: mode, seats, order } = jackarooSetup(record.options);
  const next = (seat) => order[(order.indexOf(seat) + 1) % order.length];
  const hands = new Map(order.map((s) => [s, []]));
  let stock = []; // top first
  let discard = []; // oldest first
  let dealer = -1;
  let turn = null; // the seat to move, or null at a chance step
  let pending = "dealer"; // the chance step due: dealer, deck, reshuffle, pick, or null
  let shuffles = 0;
  let picks = 0;
  let round = 0;
  let actor = -1;
  let rounds = 0;
  let played = 0;
  let current = null; // the deal view of the latest shuffle, whose rounds are appended

  const deal = (perSeat, at, recorded) => {
    const first = next(dealer);
    const seq = [first];
    while (seq.length < order.length) seq.push(next(seq.at(-1)));
    for (let r = 0; r < perSeat; r++) {
      for (const seat of seq) {
        if (!stock.length) throw new Failed("f_stock_empty", { i: at });
        hands.get(seat).push(stock.shift());
      }
    }
    rounds += 1;
    current.rounds.push({
      at, dealer, recorded, hands: order.map((s) => [s, hands.get(s).slice()]),
    });
    pending = null;
    turn = first;
  };

  const endRound = (at) => {
    if (mode === "5-4-4") {
      round += 1;
      const schedule = SCHEDULES[seats];
      if (round < schedule.length) {
        deal(schedule[round], at, false);
        return;
      }
      // A new deck cycle: every card comes back and the deal passes on.
      round = 0;
      dealer = next(dealer);
      pending = "deck";
      turn = null;
      return;
    }
    dealer = next(dealer);
    if (stock.length >= FOUR_EACH * order.length) deal(FOUR_EACH, at, false);
    else {
      pending = "reshuffle";
      turn = null;
    }
  };

  // Give the turn to the next seat holding cards (the mover last), else end the round.
  const passTurn = (seat, at) => {
    let nxt = seat;
    for (let k = 0; k < order.length; k++) {
      nxt = next(nxt);
      if (hands.get(nxt).length) {
        turn = nxt;
        return;
      }
    }
    endRound(at);
  };

  for (const [i, entry] of record.log.entries()) {
    const words = readAction(entry, i);
    const action = entry.action;
    if (entry.seat === null) {
      if (pending === null) throw new Failed("f_chance_unexpected", { i, action: action.slice(0, 40) });
      if (pending === "dealer") {
        if (words[0] !== "dealer" || words.length !== 2) throw new Failed("f_chance_kind", { i, action: action.slice(0, 40), exp: "dealer" });
        const v = draws.pick(i, "dealer", order.length, readIndex(words[1], i, action));
        dealer = order[v];
        pending = "deck";
      } else if (pending === "pick") {
        if (words[0] !== "pick" || words.length !== 2) throw new Failed("f_chance_kind", { i, action: action.slice(0, 40), exp: "pick" });
        const victim = next(actor);
        const hand = hands.get(victim);
        const v = draws.pick(i, `pick/${picks}`, hand.length, readIndex(words[1], i, action));
        discard.push(hand.splice(v, 1)[0]);
        picks += 1;
        pending = null;
        passTurn(actor, i);
      } else {
        if (words[0] !== "shuffle") throw new Failed("f_chance_kind", { i, action: action.slice(0, 40), exp: "shuffle" });
        const fresh = pending === "deck";
        const label = `shuffle/${shuffles}`;
        const cards = draws.shuffle(
          i, label, fresh ? JACKAROO_DECK : discard, fresh ? "deck" : "discard", words.slice(1),
        );
        // A 4-each reshuffle puts the shuffled pile under what is left of the stock.
        stock = fresh ? cards : stock.concat(cards);
        discard = [];
        shuffles += 1;
        current = { label, after: i, dealer, recorded: true, rounds: [], extra: null };
        report.deals.push(current);
        deal(mode === "5-4-4" ? SCHEDULES[seats][0] : FOUR_EACH, i, true);
        draws.compareDeal(i, label, order, (s) => hands.get(s));
      }
      continue;
    }
    const seat = entry.seat;
    if (pending !== null || turn !== seat) {
      throw new Failed("f_turn", { i, seat: show(seat), exp: pending !== null ? "—" : show(turn) });
    }
    const hand = hands.get(seat);
    if (words.length === 1 && words[0] === "discard-all") {
      played += hand.length;
      discard.push(...hand);
      hand.length = 0;
      passTurn(seat, i);
      continue;
    }
    const card = words[0];
    if (!isCode(card, false) || words.length < 2) throw new Failed("f_bad_action", { i, action });
    const at = hand.indexOf(card);
    if (at < 0) throw new Failed("f_not_held", { i, seat, card, hand: cardsText(hand) });
    hand.splice(at, 1);
    discard.push(card);
    played += 1;
    if (words[1] === "burn") {
      // The burnt card of the next seat is a chance step (a pick) before the turn passes.
      actor = seat;
      pending = "pick";
      turn = null;
    } else {
      passTurn(seat, i);
    }
  }
  return { d: report.deals.length, r: rounds, m: played };
}

// Buraco (buraco.md §3; deal.py deal_cards, state.py _apply_chance, _begin_turn, …).

const HAND_SIZE = 11;
const MORTO_SIZE = 11;
const UNTAKEN = 0;
const PENDING = 1;
const TAKEN = 2;
const STOCK = 3;

export function buracoSetup(options) {
  const o = options ?? {};
  if (!isObject(o)) throw new Failed("f_options", { why: "options" });
  const players = o.players ?? 4;
  if (players !== 2 && players !== 4) throw new Failed("f_options", { why: `players ${players}` });
  return { players, closed: o.closed === true };
}

/** deal.py's deal_cards: hands one at a time from the seat after the dealer, two mortos, one up. */
export function buracoDeal(order, players, dealer) {
  const hands = Array.from({ length: players }, () => []);
  const first = (dealer + 1) % players;
  const dealt = HAND_SIZE * players;
  for (let i = 0; i < dealt; i++) hands[(first + i) % players].push(order[i]);
  const mortos = [order.slice(dealt, dealt + MORTO_SIZE), order.slice(dealt + MORTO_SIZE, dealt + 2 * MORTO_SIZE)];
  const up = dealt + 2 * MORTO_SIZE;
  return { hands, mortos, discard: order[up], stock: order.slice(up + 1) };
}

const byCardOrder = (a, b) => INDEX.get(a) - INDEX.get(b);

function buracoDeals(record, draws, report) {
  const { players, closed } = buracoSetup(record.options);
  const seats = Array.from({ length: players }, (_, s) => s);
  const side = (seat) => seat & 1;
  let dealer = -1;
  let pending = "dealer"; // dealer, shuffle, or null while seats play
  let hand = 0; // hands dealt so far
  let toMove = -1;
  let phase = null; // draw or play
  let hands = seats.map(() => []); // each seat's cards (order does not matter)
  let stock = []; // top first
  let pile = []; // top last
  let mortos = [[], []];
  let status = [UNTAKEN, UNTAKEN];
  let holder = [-1, -1];
  let played = 0;

  const remove = (i, seat, cards) => {
    const held = hands[seat];
    const left = held.slice();
    for (const card of cards) {
      const at = left.indexOf(card);
      if (!isCode(card, true) || at < 0) {
        throw new Failed("f_not_held", { i, seat, card, hand: cardsText(held.slice().sort(byCardOrder)) });
      }
      left.splice(at, 1);
    }
    hands[seat] = left;
    played += cards.length;
  };
  const pickUp = (seat, s) => {
    hands[seat].push(...mortos[s]);
    mortos[s] = [];
    status[s] = TAKEN;
    holder[s] = -1;
  };
  const endHand = () => {
    // Who won the hand or the match needs the scoring: step 4's business. The next
    // chance step, if any, is the next hand's shuffle, dealt by the next seat.
    pending = "shuffle";
    toMove = -1;
    phase = null;
    dealer = (dealer + 1) % players;
  };
  const beginTurn = (seat) => {
    toMove = seat;
    phase = "draw";
    for (const s of [0, 1]) if (holder[s] === seat) pickUp(seat, s);
    if (stock.length) return;
    for (const s of [0, 1]) {
      if (status[s] === UNTAKEN) {
        stock = mortos[s];
        mortos[s] = [];
        status[s] = STOCK;
        return;
      }
    }
    endHand();
  };
  const afterMelding = (seat) => {
    if (hands[seat].length) return;
    const s = side(seat);
    if (status[s] === UNTAKEN) pickUp(seat, s);
    else endHand();
  };

  for (const [i, entry] of record.log.entries()) {
    const words = readAction(entry, i);
    const action = entry.action;
    const word = words[0].toLowerCase();
    if (entry.seat === null) {
      if (pending === null) throw new Failed("f_chance_unexpected", { i, action: action.slice(0, 40) });
      if (pending === "dealer") {
        if (word !== "dealer" || words.length !== 2) throw new Failed("f_chance_kind", { i, action: action.slice(0, 40), exp: "dealer" });
        dealer = draws.pick(i, "dealer", players, readIndex(words[1], i, action));
        pending = "shuffle";
        continue;
      }
      if (word !== "shuffle") throw new Failed("f_chance_kind", { i, action: action.slice(0, 40), exp: "shuffle" });
      const label = `shuffle/${hand}`;
      const order = draws.shuffle(i, label, BURACO_DECK, "deck", words.slice(1).map((w) => w.toUpperCase()));
      const dealt = buracoDeal(order, players, dealer);
      hand += 1;
      hands = dealt.hands.map((h) => h.slice());
      mortos = dealt.mortos.map((m) => m.slice());
      status = [UNTAKEN, UNTAKEN];
      holder = [-1, -1];
      pile = [dealt.discard];
      stock = dealt.stock.slice();
      report.deals.push({
        label, after: i, dealer, recorded: true,
        rounds: [{ at: i, dealer, recorded: true, hands: seats.map((s) => [s, dealt.hands[s].slice().sort(byCardOrder)]) }],
        extra: { mortos: dealt.mortos, up: dealt.discard, stock: dealt.stock.length },
      });
      // The record lists a Buraco hand in card order (records.py: sorted(state.hand(seat))).
      draws.compareDeal(i, label, seats, (s) => dealt.hands[s].slice().sort(byCardOrder));
      pending = null;
      beginTurn((dealer + 1) % players);
      continue;
    }
    const seat = entry.seat;
    if (pending !== null || toMove !== seat) {
      throw new Failed("f_turn", { i, seat: show(seat), exp: pending !== null ? "—" : show(toMove) });
    }
    const cards = (w) => w.map((c) => c.toUpperCase());
    if (phase === "draw") {
      if (word === "draw" && words.length === 1) {
        hands[seat].push(stock.shift());
        phase = "play";
      } else if (word === "take" && words.length === 1 && !closed) {
        if (!pile.length) throw new Failed("f_pile_empty", { i });
        hands[seat].push(...pile);
        pile = [];
        phase = "play";
      } else if (word === "take" && closed && (words[1] === "meld" || words[1] === "add")) {
        if (!pile.length) throw new Failed("f_pile_empty", { i });
        // The pile's top card goes straight to the meld; the rest joins the hand.
        const own = words[1] === "meld" ? cards(words.slice(2)) : cards(words.slice(3));
        remove(i, seat, own);
        hands[seat].push(...pile.slice(0, -1));
        pile = [];
        phase = "play";
        afterMelding(seat);
      } else {
        throw new Failed("f_bad_action", { i, action });
      }
      continue;
    }
    if (word === "meld" || word === "add") {
      remove(i, seat, word === "meld" ? cards(words.slice(1)) : cards(words.slice(2)));
      afterMelding(seat);
    } else if (word === "discard" && words.length === 2) {
      const card = words[1].toUpperCase();
      remove(i, seat, [card]);
      pile.push(card);
      if (!hands[seat].length) {
        const s = side(seat);
        if (status[s] === UNTAKEN) {
          // The morto is picked up at the start of this seat's next turn.
          status[s] = PENDING;
          holder[s] = seat;
        } else {
          endHand();
          continue;
        }
      }
      beginTurn((seat + 1) % players);
    } else {
      throw new Failed("f_bad_action", { i, action });
    }
  }
  return { d: report.deals.length, m: played };
}

// -- the page ------------------------------------------------------------------------------

/** "1 shuffle", "2 shuffles": English counts. */
const count = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

// A two-seat Jackaroo table plays seats 0 and 2: a seed's place in the list is named too.
const seatEn = (seat, i) => (seat === i ? `seat ${seat}` : `seat ${seat} (client seed ${i})`);
const seatAr = (seat, i) => (seat === i ? `الكرسي ${seat}` : `الكرسي ${seat} (البذرة رقم ${i} في القائمة)`);
// A seed stays one left-to-right run inside an Arabic sentence (Unicode isolates, as <bdi> does).
const isolated = (text) => `\u2066${text}\u2069`;

const T = {
  en: {
    doc_title: "Verify a game · Sahrat",
    title: "Verify a game",
    intro: "Paste a finished game's record or open its file. Your browser recomputes every shuffle itself with the Web Crypto API; the server is not asked.",
    paste_label: "The game's record (JSON)",
    paste_hint: "{\"version\": 1, \"game\": …}",
    open_file: "Open a file…",
    verify: "Verify",
    lang_switch: "عربي",
    lang_switch_label: "اقرأ الصفحة بالعربية",
    loading: ({ url }) => `Fetching the record ${url}…`,
    working: "Checking…",
    fetch_failed: ({ url, why }) => `Could not fetch the record ${url}: ${why}`,
    foreign_url: "Only a record of this site can be opened from the address (#record=/api/records/…).",
    bad_json: ({ why }) => `This is not JSON: ${why}`,
    not_record: "This JSON is not a game record (it needs game, commitment and log).",
    no_crypto: "This browser offers no Web Crypto here (crypto.subtle): open the page over https or from localhost.",
    empty: "Paste a record first.",
    summary_ok: "Steps 1–3 and 5 pass: the cards came from the committed seed, every shuffle recomputes, the deals follow from them and every seed the server filled in is the one the commitment fixes.",
    summary_fail: ({ n }) => `Step ${n} failed: this record does not prove a fair shuffle.`,
    summary_running: "This game is still running. The server seed is revealed only when the game ends, and with it the shuffles and the deals: come back after the end to verify them.",
    info_game: "Game",
    info_id: "Game id",
    info_options: "Options",
    info_players: "Players",
    info_commitment: "Commitment",
    info_seed: "Server seed",
    info_seed_hidden: "not revealed yet",
    info_clients: "Client seeds",
    info_result: "Winners",
    info_moves: "Log entries",
    game_jackaroo: "Jackaroo",
    game_buraco: "Buraco",
    preset_sahrat: "Sahrat rules",
    preset_classic: "Classic Jackaroo",
    preset_complex: "Complex Jackaroo",
    opt_seats: ({ n }) => `${n} seats`,
    opt_deal: ({ d }) => `deal ${d}`,
    opt_players: ({ n }) => `${n} players`,
    opt_target: ({ n }) => `to ${n} points`,
    opt_sets: "sets allowed",
    opt_closed: "closed variant",
    seat: ({ n }) => `seat ${n}`,
    bot: "bot",
    comma: ", ",
    step_title_1: "Step 1 · SHA-256 of the server seed equals the commitment",
    step_title_2: "Step 2 · every shuffle and pick recomputes",
    step_title_3: "Step 3 · the deals follow from the shuffles",
    step_title_4: "Step 4 · the moves replay to the result",
    step_title_5: "Step 5 · every seat that sent no seed has its derived seed",
    state_ok: "passed",
    state_fail: "failed",
    state_skipped: "not run",
    details: ({ n }) => `Every check (${n})`,
    skipped: "Not run: an earlier step failed.",
    malformed: ({ why }) => `The record is malformed: ${why}`,
    malformed_step: "The record is malformed here:",
    s2_failed: "The draws cannot be recomputed:",
    s1_failed: "The server seed is not the one committed to before the first card:",
    s3_failed: "The deals do not follow from the shuffles; checking stopped at the first difference:",
    s5_failed: "The seeds cannot be checked against the seats:",
    s5_summary_ok: ({ n, seats }) => `${n === 1 ? "1 derived seed matches" : `${n} derived seeds match`} the commitment (${n === 1 ? "seat" : "seats"} ${seats.join(", ")}); no seat has a seed the server could choose.`,
    s5_summary_none: "No seat has a derived seed: every client seed was sent by its player.",
    s5_summary_fail: ({ bad }) => `${bad === 1 ? "1 seat has" : `${bad} seats have`} a seed the commitment does not fix:`,
    s5_ok: ({ seat, i, seed }) => `${seatEn(seat, i)}: ${seed} is its derived seed`,
    s5_own: ({ seat, i, seed }) => `${seatEn(seat, i)}: ${seed}, sent by its player`,
    s5_bot: ({ seat, i, seed, exp }) => `${seatEn(seat, i)} is a bot, but its client seed ${seed} is not its derived seed ${exp}.`,
    s5_prefix: ({ seat, i, seed, exp }) => `${seatEn(seat, i)} has the client seed ${seed}, which starts with bot- but is not its derived seed ${exp}.`,
    s5_count: ({ n, m }) => `The record has ${count(n, "client seed")} for ${count(m, "seat")}.`,
    s5_no_seat: ({ seat }) => `The record marks seat ${seat} as a bot; the table has no such seat.`,
    s5_player_shape: ({ i }) => `player #${i} of the record is not {seat, name, bot}`,
    bad_seed: "the server seed is not 64 hex digits (32 bytes)",
    bad_game_id: ({ v }) => `the game id ${v} is not 1–64 characters of A–Z a–z 0–9 _ -`,
    bad_client_seeds: "the record has no client seeds",
    bad_client_seed: ({ v }) => `the client seed ${v} is not 1–64 characters of A–Z a–z 0–9 _ -`,
    bad_label: ({ v }) => `the label ${v} is not valid`,
    bad_n: ({ v }) => `${v} is not a count from 1 to 2^32`,
    s1_summary: "The server seed is the one committed to before the first card.",
    s1_ok: ({ d }) => `SHA-256(server seed) = ${d} = the commitment`,
    s1_fail: ({ d, c }) => `SHA-256(server seed) is ${d}, but the commitment is ${c}.`,
    s1_bad_seed: "The server seed is not 64 hex digits (32 bytes).",
    no_lists: "The record has no list of shuffles and picks.",
    s2_summary_ok: ({ s, p }) => `${count(s, "shuffle")} and ${count(p, "pick")} recompute from their labels.`,
    s2_summary_fail: ({ bad, total }) => `${bad} of ${count(total, "draw")} ${bad === 1 ? "does" : "do"} not recompute:`,
    s2_shuffle_ok: ({ i, label, n }) => `shuffle #${i} (${label}): ${n} cards, the same order`,
    s2_shuffle_diff: ({ i, label, pos, rec, calc }) => `shuffle #${i} (${label}): at position ${pos} (0 = top) the record has ${rec}, the recomputed shuffle has ${calc}.`,
    s2_shuffle_shape: ({ i, label }) => `shuffle #${i} (${label}) has no input or output list.`,
    s2_bad_card: ({ i, label, c }) => `shuffle #${i} (${label}): ${c} is not a card.`,
    s2_bad_label: ({ i, label }) => `draw #${i}: the label ${label} is not valid.`,
    s2_bad_n: ({ i, label, n }) => `pick #${i} (${label}): n = ${n} is not a count from 1 to 2^32.`,
    s2_pick_shape: ({ i }) => `pick #${i} is not an object.`,
    s2_pick_ok: ({ i, label, n, v }) => `pick #${i} (${label}): uniform(${n}) = ${v}`,
    s2_pick_diff: ({ i, label, n, v, calc }) => `pick #${i} (${label}): uniform(${n}) gives ${calc}, the record says ${v}.`,
    s3_summary_j: ({ d, r, m }) => `${count(d, "shuffle")} deal what the record shows; ${count(r, "round")} were dealt in all, and each of the ${count(m, "card")} played was in the hand that played it.`,
    s3_summary_b: ({ d, m }) => `${count(d, "shuffle")} deal what the record shows (the hands; the mortos and the stock follow), and each of the ${count(m, "card")} laid down or discarded was in the hand that played it.`,
    s3_deal_ok: ({ after, label, dealer }) => `the deal after log entry ${after} (${label}, dealer seat ${dealer}): every hand matches the record`,
    f_deal_shape: "An entry of the record's deals is not {after, hands}.",
    f_deal_twice: ({ after }) => `The record has two deals after log entry ${after}.`,
    f_deal_missing: ({ after, label }) => `The record has no deal after log entry ${after} (${label}).`,
    f_deal_extra: ({ after }) => `The record has a deal after log entry ${after}, which is not a shuffle.`,
    f_deal_seats: ({ after, label, rec, calc }) => `The deal after log entry ${after} (${label}) lists seats ${rec}; the table has seats ${calc}.`,
    f_deal_hand: ({ after, label, seat, rec, calc }) => `The deal after log entry ${after} (${label}): seat ${seat} was dealt ${calc} by the shuffle, but the record says ${rec}.`,
    f_pick_missing: ({ i }) => `Log entry ${i} is a random pick, but the record's list of picks has ended.`,
    f_pick_label: ({ i, k, label, exp }) => `Log entry ${i}: pick #${k} is labelled ${label}; the game was drawing ${exp}.`,
    f_pick_n: ({ i, k, label, n, exp }) => `Log entry ${i}: pick #${k} (${label}) chooses among ${n}, but there were ${exp} candidates.`,
    f_pick_value: ({ i, k, label, logv, v }) => `Log entry ${i} says ${logv}, but pick #${k} (${label}) is ${v}.`,
    f_pick_range: ({ i, k, label, v, n }) => `Log entry ${i}: pick #${k} (${label}) = ${v} is not below ${n}.`,
    f_shuffle_missing: ({ i }) => `Log entry ${i} is a shuffle, but the record's list of shuffles has ended.`,
    f_shuffle_label: ({ k, label, exp }) => `Shuffle #${k} is labelled ${label}; the game was drawing ${exp}.`,
    f_shuffle_input: ({ label, what, pos, rec, exp }) => `${label} should shuffle ${what === "deck" ? "the unshuffled deck" : "the discard pile in the order it was played"}; at position ${pos} its input has ${rec} where ${exp} was expected.`,
    f_log_shuffle: ({ i, label, pos, log, rec }) => `Log entry ${i}: the shuffle in the log differs from ${label}'s output at position ${pos} (the log has ${log}, the shuffle ${rec}).`,
    f_unused: ({ what, used, total }) => `The log uses ${used} of the record's ${total} ${what === "picks" ? "picks" : "shuffles"}.`,
    f_chance_unexpected: ({ i, action }) => `Log entry ${i} (${action}) is a chance step where a seat must act.`,
    f_chance_kind: ({ i, action, exp }) => `Log entry ${i} is "${action}"; the game was due a ${exp} step.`,
    f_turn: ({ i, seat, exp }) => `Log entry ${i}: seat ${seat} acts, but ${exp === "—" ? "a chance step is due" : `seat ${exp} is to move`}.`,
    f_not_held: ({ i, seat, card, hand }) => `Log entry ${i}: seat ${seat} plays ${card}, which the deals did not put in its hand (it holds ${hand}).`,
    f_bad_action: ({ i, action }) => `Log entry ${i}: cannot read "${action}".`,
    f_entry_shape: ({ i }) => `Log entry ${i} has no action text.`,
    f_stock_empty: ({ i }) => `After log entry ${i} the stock ran out while dealing.`,
    f_pile_empty: ({ i }) => `Log entry ${i} takes the discard pile, which is empty.`,
    f_options: ({ why }) => `The options cannot be read (${why}).`,
    f_unknown_game: ({ game }) => `Unknown game ${game}.`,
    no_deals: "The record has no list of deals.",
    s4_text: "Replaying the moves needs the rules of the game: the server's replay does it, frame by frame, and so does the command line:",
    s4_link: "Open the server's replay of this game",
    s4_cli: "sahrat verify FILE",
    deals_title: ({ n }) => `What each seat was dealt (${count(n, "shuffle")})`,
    deal_head: ({ after, dealer }) => `log entry ${after} · dealer: seat ${dealer}`,
    round_head: ({ r, at, dealer }) => `round ${r}: dealt by seat ${dealer} after log entry ${at}`,
    in_record: "in the record's deals",
    differs: "what the shuffle deals; the record says otherwise (step 3)",
    morto: ({ s }) => `morto of side ${s}`,
    up_card: "first card of the discard pile",
    stock_left: ({ n }) => `the stock: ${n} cards`,
    mortos_note: "The record's deals list the hands only; the mortos, the first discard and the stock shown here are read from the same shuffle.",
  },
  ar: {
    doc_title: "تحقق من لعبة · سهرات",
    title: "تحقق من عدالة اللعبة",
    intro: "الصق سجل لعبة منتهية أو افتح ملفه. متصفحك يعيد حساب كل خلطة بنفسه عبر Web Crypto، من غير ما يسأل الخادم.",
    paste_label: "سجل اللعبة (JSON)",
    paste_hint: "{\"version\": 1, \"game\": …}",
    open_file: "افتح ملفاً…",
    verify: "تحقق",
    lang_switch: "English",
    lang_switch_label: "Read this page in English",
    loading: ({ url }) => `جارٍ جلب السجل ${url}…`,
    working: "جارٍ التحقق…",
    fetch_failed: ({ url, why }) => `تعذّر جلب السجل ${url}: ${why}`,
    foreign_url: "يمكن فتح سجل من هذا الموقع فقط عبر العنوان (#record=/api/records/…).",
    bad_json: ({ why }) => `هذا ليس JSON صالحاً: ${why}`,
    not_record: "هذا الـ JSON ليس سجل لعبة (يلزم game و commitment و log).",
    no_crypto: "المتصفح لا يتيح Web Crypto هنا (crypto.subtle): افتح الصفحة عبر https أو من localhost.",
    empty: "الصق سجلاً أولاً.",
    summary_ok: "الخطوات 1–3 و5 ناجحة: الأوراق جاءت من البذرة المُلتزَم بها، وكل خلطة يُعاد حسابها، والتوزيع ناتج عنها، وكل بذرة ملأها الخادم هي التي يحدّدها التعهّد.",
    summary_fail: ({ n }) => `فشلت الخطوة ${n}: هذا السجل لا يثبت أن الخلط كان عادلاً.`,
    summary_running: "هذه اللعبة ما زالت جارية. بذرة الخادم تُكشف عند نهاية اللعبة فقط، ومعها الخلطات والتوزيع: ارجع بعد النهاية للتحقق منها.",
    info_game: "اللعبة",
    info_id: "رقم اللعبة",
    info_options: "الخيارات",
    info_players: "اللاعبون",
    info_commitment: "التعهّد",
    info_seed: "بذرة الخادم",
    info_seed_hidden: "لم تُكشف بعد",
    info_clients: "بذور اللاعبين",
    info_result: "الفائزون",
    info_moves: "عدد قيود السجل",
    game_jackaroo: "جاكارو",
    game_buraco: "بوراكو",
    preset_sahrat: "قوانين سهرات",
    preset_classic: "جاكارو الكلاسيكية",
    preset_complex: "جاكارو كمبلكس",
    opt_seats: ({ n }) => `الكراسي: ${n}`,
    opt_deal: ({ d }) => `التوزيع ${d}`,
    opt_players: ({ n }) => `اللاعبون: ${n}`,
    opt_target: ({ n }) => `حتى ${n} نقطة`,
    opt_sets: "المجموعات مسموحة",
    opt_closed: "بوراكو مغلق (fechado)",
    seat: ({ n }) => `الكرسي ${n}`,
    bot: "لاعب آلي",
    comma: "، ",
    step_title_1: "الخطوة 1 · بصمة SHA-256 لبذرة الخادم تساوي التعهّد",
    step_title_2: "الخطوة 2 · كل خلطة وكل سحبة عشوائية يُعاد حسابها",
    step_title_3: "الخطوة 3 · التوزيع ناتج عن الخلطات",
    step_title_4: "الخطوة 4 · إعادة الحركات تصل إلى النتيجة",
    step_title_5: "الخطوة 5 · كل كرسي لم يرسل بذرة أخذ بذرته المشتقّة من التعهّد",
    state_ok: "ناجحة",
    state_fail: "فاشلة",
    state_skipped: "لم تُجرَ",
    details: ({ n }) => `كل الفحوص (${n})`,
    skipped: "لم تُجرَ: فشلت خطوة سابقة.",
    malformed: ({ why }) => `السجل غير سليم: ${why}`,
    malformed_step: "السجل غير سليم هنا:",
    s2_failed: "تعذّرت إعادة حساب السحبات:",
    s1_failed: "بذرة الخادم ليست التي التُزم بها قبل أول ورقة:",
    s3_failed: "التوزيع لا ينتج عن الخلطات؛ توقّف الفحص عند أول اختلاف:",
    s5_failed: "تعذّرت مطابقة البذور مع الكراسي:",
    s5_summary_ok: ({ n, seats }) => `البذور المشتقّة (${n}) تطابق التعهّد (${seats.length === 1 ? "الكرسي" : "الكراسي"} ${seats.join("، ")})؛ لا كرسي ببذرة يختارها الخادم.`,
    s5_summary_none: "لا كرسي ببذرة مشتقّة: كل بذرة أرسلها لاعب كرسيها.",
    s5_summary_fail: ({ bad }) => (bad === 1 ? "كرسي واحد بذرته لا يحدّدها التعهّد:" : `كراسي بذورها لا يحدّدها التعهّد (${bad}):`),
    s5_ok: ({ seat, i, seed }) => `${seatAr(seat, i)}: ${isolated(seed)} هي بذرته المشتقّة`,
    s5_own: ({ seat, i, seed }) => `${seatAr(seat, i)}: ${isolated(seed)}، أرسلها لاعبه`,
    s5_bot: ({ seat, i, seed, exp }) => `${seatAr(seat, i)} لاعب آلي، لكن بذرته ${isolated(seed)} ليست بذرته المشتقّة ${isolated(exp)}.`,
    s5_prefix: ({ seat, i, seed, exp }) => `بذرة ${seatAr(seat, i)} هي ${isolated(seed)}: تبدأ بـ ${isolated("bot-")} لكنها ليست بذرته المشتقّة ${isolated(exp)}.`,
    s5_count: ({ n, m }) => `في السجل ${n} من بذور اللاعبين، والطاولة كراسيها ${m}.`,
    s5_no_seat: ({ seat }) => `السجل يجعل الكرسي ${seat} لاعباً آلياً، والطاولة ليس فيها هذا الكرسي.`,
    s5_player_shape: ({ i }) => `اللاعب رقم ${i} في السجل ليس {seat, name, bot}`,
    bad_seed: "بذرة الخادم ليست 64 رقماً ست عشرياً (32 بايت)",
    bad_game_id: ({ v }) => `رقم اللعبة ${v} ليس من 1 إلى 64 حرفاً من A–Z a–z 0–9 _ -`,
    bad_client_seeds: "السجل بلا بذور لاعبين",
    bad_client_seed: ({ v }) => `بذرة اللاعب ${v} ليست من 1 إلى 64 حرفاً من A–Z a–z 0–9 _ -`,
    bad_label: ({ v }) => `الوسم ${v} غير صالح`,
    bad_n: ({ v }) => `${v} ليس عدداً من 1 إلى 2^32`,
    s1_summary: "بذرة الخادم هي نفسها التي التُزم بها قبل أول ورقة.",
    s1_ok: ({ d }) => `SHA-256(بذرة الخادم) = ${d} = التعهّد`,
    s1_fail: ({ d, c }) => `SHA-256(بذرة الخادم) هو ${d}، لكن التعهّد ${c}.`,
    s1_bad_seed: "بذرة الخادم ليست 64 رقماً ست عشرياً (32 بايت).",
    no_lists: "السجل بلا قائمة خلطات وسحبات.",
    s2_summary_ok: ({ s, p }) => `أُعيد حساب كل الخلطات (${s}) وكل السحبات (${p}) من وسومها، والنتيجة مطابقة.`,
    s2_summary_fail: ({ bad, total }) => `سحبات لا يُعاد حسابها: ${bad} من ${total}:`,
    s2_shuffle_ok: ({ i, label, n }) => `الخلطة رقم ${i} (${label}): ${n} ورقة بالترتيب نفسه`,
    s2_shuffle_diff: ({ i, label, pos, rec, calc }) => `الخلطة رقم ${i} (${label}): في الموضع ${pos} (0 = أعلى الورق) يذكر السجل ${rec}، والخلطة المُعاد حسابها ${calc}.`,
    s2_shuffle_shape: ({ i, label }) => `الخلطة رقم ${i} (${label}) بلا قائمة مدخلات أو مخرجات.`,
    s2_bad_card: ({ i, label, c }) => `الخلطة رقم ${i} (${label}): ${c} ليست ورقة.`,
    s2_bad_label: ({ i, label }) => `السحبة رقم ${i}: الوسم ${label} غير صالح.`,
    s2_bad_n: ({ i, label, n }) => `السحبة رقم ${i} (${label}): n = ${n} ليس عدداً من 1 إلى 2^32.`,
    s2_pick_shape: ({ i }) => `السحبة رقم ${i} ليست كائناً.`,
    s2_pick_ok: ({ i, label, n, v }) => `السحبة رقم ${i} (${label}): uniform(${n}) = ${v}`,
    s2_pick_diff: ({ i, label, n, v, calc }) => `السحبة رقم ${i} (${label}): uniform(${n}) يعطي ${calc}، والسجل يذكر ${v}.`,
    s3_summary_j: ({ d, r, m }) => `كل الخلطات (${d}) توزّع ما يذكره السجل؛ عدد الجولات الموزّعة ${r}، وكل ورقة ملعوبة (${m}) كانت في يد من لعبها.`,
    s3_summary_b: ({ d, m }) => `كل التوزيعات (${d}) تطابق ما يذكره السجل، ومنها يُقرأ المورتو والكومة؛ وكل ورقة منزّلة أو مرمية (${m}) كانت في يد من لعبها.`,
    s3_deal_ok: ({ after, label, dealer }) => `التوزيع بعد القيد ${after} (${label}، الموزّع الكرسي ${dealer}): كل يد تطابق السجل`,
    f_deal_shape: "أحد عناصر قائمة التوزيع في السجل ليس {after, hands}.",
    f_deal_twice: ({ after }) => `في السجل توزيعان بعد القيد ${after}.`,
    f_deal_missing: ({ after, label }) => `لا يوجد في السجل توزيع بعد القيد ${after} (${label}).`,
    f_deal_extra: ({ after }) => `في السجل توزيع بعد القيد ${after}، وهو ليس خلطة.`,
    f_deal_seats: ({ after, label, rec, calc }) => `التوزيع بعد القيد ${after} (${label}) يذكر الكراسي ${rec}؛ والطاولة كراسيها ${calc}.`,
    f_deal_hand: ({ after, label, seat, rec, calc }) => `التوزيع بعد القيد ${after} (${label}): الخلطة أعطت الكرسي ${seat} الأوراق ${calc}، لكن السجل يذكر ${rec}.`,
    f_pick_missing: ({ i }) => `القيد ${i} سحبة عشوائية، لكن قائمة السحبات في السجل انتهت.`,
    f_pick_label: ({ i, k, label, exp }) => `القيد ${i}: السحبة رقم ${k} وسمها ${label}؛ واللعبة كانت تسحب ${exp}.`,
    f_pick_n: ({ i, k, label, n, exp }) => `القيد ${i}: السحبة رقم ${k} (${label}) تختار من ${n}، لكن الخيارات كانت ${exp}.`,
    f_pick_value: ({ i, k, label, logv, v }) => `القيد ${i} يذكر ${logv}، لكن السحبة رقم ${k} (${label}) قيمتها ${v}.`,
    f_pick_range: ({ i, k, label, v, n }) => `القيد ${i}: السحبة رقم ${k} (${label}) = ${v} ليست أقل من ${n}.`,
    f_shuffle_missing: ({ i }) => `القيد ${i} خلطة، لكن قائمة الخلطات في السجل انتهت.`,
    f_shuffle_label: ({ k, label, exp }) => `الخلطة رقم ${k} وسمها ${label}؛ واللعبة كانت تسحب ${exp}.`,
    f_shuffle_input: ({ label, what, pos, rec, exp }) => `${label} يجب أن تخلط ${what === "deck" ? "الورق بترتيبه الأصلي" : "كومة الرمي بترتيب لعب أوراقها"}؛ في الموضع ${pos} مدخلاتها ${rec} والمتوقع ${exp}.`,
    f_log_shuffle: ({ i, label, pos, log, rec }) => `القيد ${i}: الخلطة في سجل الحركات تختلف عن مخرجات ${label} في الموضع ${pos} (السجل ${log}، الخلطة ${rec}).`,
    f_unused: ({ what, used, total }) => `سجل الحركات يستعمل ${used} من ${total} ${what === "picks" ? "سحبات" : "خلطات"} في السجل.`,
    f_chance_unexpected: ({ i, action }) => `القيد ${i} (${action}) خطوة حظ في وقت يجب أن يلعب فيه كرسي.`,
    f_chance_kind: ({ i, action, exp }) => `القيد ${i} هو "${action}"؛ واللعبة كانت تنتظر خطوة ${exp}.`,
    f_turn: ({ i, seat, exp }) => `القيد ${i}: الكرسي ${seat} يلعب، لكن ${exp === "—" ? "خطوة حظ مستحقة" : `الدور على الكرسي ${exp}`}.`,
    f_not_held: ({ i, seat, card, hand }) => `القيد ${i}: الكرسي ${seat} يلعب ${card}، وهي ليست في يده حسب التوزيع (في يده ${hand}).`,
    f_bad_action: ({ i, action }) => `القيد ${i}: تعذّرت قراءة "${action}".`,
    f_entry_shape: ({ i }) => `القيد ${i} بلا نص حركة.`,
    f_stock_empty: ({ i }) => `بعد القيد ${i} نفدت الكومة أثناء التوزيع.`,
    f_pile_empty: ({ i }) => `القيد ${i} يأخذ كومة الرمي وهي فارغة.`,
    f_options: ({ why }) => `تعذّرت قراءة الخيارات (${why}).`,
    f_unknown_game: ({ game }) => `لعبة غير معروفة: ${game}.`,
    no_deals: "السجل بلا قائمة توزيع.",
    s4_text: "إعادة الحركات تحتاج قوانين اللعبة: تقوم بها إعادة الخادم، حركة بحركة، وكذلك سطر الأوامر:",
    s4_link: "افتح إعادة هذه اللعبة على الخادم",
    s4_cli: "sahrat verify FILE",
    deals_title: ({ n }) => `ماذا وُزّع على كل كرسي (الخلطات: ${n})`,
    deal_head: ({ after, dealer }) => `القيد ${after} · الموزّع: الكرسي ${dealer}`,
    round_head: ({ r, at, dealer }) => `الجولة ${r}: وزّعها الكرسي ${dealer} بعد القيد ${at}`,
    in_record: "مذكورة في توزيع السجل",
    differs: "هذا ما توزّعه الخلطة؛ والسجل يذكر غيره (الخطوة 3)",
    morto: ({ s }) => `مورتو الفريق ${s}`,
    up_card: "أول ورقة في كومة الرمي",
    stock_left: ({ n }) => `الكومة (${n})`,
    mortos_note: "توزيع السجل يذكر الأيادي فقط؛ المورتو وأول ورقة مرمية والكومة المعروضة هنا مقروءة من الخلطة نفسها.",
  },
};

// Words of chance steps named inside messages ("a dealer step").
const CHANCE_WORDS = {
  en: { dealer: "first-dealer", pick: "random-pick", shuffle: "shuffle" },
  ar: { dealer: "اختيار الموزّع", pick: "سحبة عشوائية", shuffle: "خلط" },
};

// Shared with the rest of the client (i18n.js), so the chosen language carries over.
const LANG_KEY = "sahrat.lang";
const ui = { lang: "ar", report: null, source: null, notice: null, busy: false };

/** A message object (or key) in the current language. */
export function t(m, lang = ui.lang) {
  const { k, p } = typeof m === "string" ? { k: m, p: {} } : m;
  const table = T[lang] ?? T.en;
  const entry = table[k] ?? T.en[k];
  if (entry === undefined) return k;
  const params = { ...p };
  if (k === "f_chance_kind") params.exp = CHANCE_WORDS[lang][params.exp] ?? params.exp;
  return typeof entry === "function" ? entry(params) : entry;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    // Strings become text nodes: nothing from a record is ever parsed as HTML.
    node.append(typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child);
  }
  return node;
}

// Codes stay left-to-right inside Arabic sentences.
const ltr = (text, cls = "code") => el("bdi", { class: cls, dir: "ltr" }, text);

const SUIT_SIGNS = { S: "♠", H: "♥", D: "♦", C: "♣" };

function cardChip(code) {
  if (code === JOKER) return el("span", { class: "card joker", title: code, dir: "ltr" }, "JK");
  const rank = code[0] === "T" ? "10" : code[0];
  const suit = code[1];
  const red = suit === "H" || suit === "D";
  return el("span", { class: `card${red ? " red" : ""}`, title: code, dir: "ltr" }, rank + SUIT_SIGNS[suit]);
}

const cardRow = (cards) => el("span", { class: "cards" }, cards.map(cardChip));

/** "seat 2 (Maryam, bot)": the name isolated, since it may be in either script. */
function playerName(seat) {
  const players = ui.report?.info?.players ?? [];
  const found = players.find((p) => isObject(p) && p.seat === seat);
  const label = t(msg("seat", { n: seat }));
  if (!found || typeof found.name !== "string" || !found.name) return el("span", { class: "seat" }, label);
  return el("span", { class: "seat" }, label, " (", el("bdi", {}, found.name), found.bot ? t("comma") + t("bot") : "", ")");
}

function optionsText(info) {
  const o = isObject(info.options) ? info.options : {};
  const parts = [];
  if (info.game === "jackaroo") {
    let setup;
    try {
      setup = jackarooSetup(o);
    } catch {
      return JSON.stringify(o);
    }
    parts.push(t(`preset_${setup.preset}`), t(msg("opt_seats", { n: setup.seats })), t(msg("opt_deal", { d: setup.deal })));
    for (const [key, value] of Object.entries(o)) {
      if (!["preset", "seats", "deal"].includes(key)) parts.push(`${key}=${String(value)}`);
    }
  } else if (info.game === "buraco") {
    parts.push(t(msg("opt_players", { n: o.players ?? 4 })), t(msg("opt_target", { n: o.target ?? 2000 })));
    if (o.sets === true) parts.push(t("opt_sets"));
    if (o.closed === true) parts.push(t("opt_closed"));
  } else {
    return JSON.stringify(o);
  }
  return parts.join(" · ");
}

function renderInfo(info) {
  const rows = [
    ["info_game", info.game === "jackaroo" || info.game === "buraco" ? t(`game_${info.game}`) : info.game],
    ["info_id", ltr(info.gameId)],
    ["info_options", optionsText(info)],
    ["info_players", el("span", { class: "players" }, info.players.filter(isObject).map((p) => el("span", { class: "player" }, playerName(p.seat))))],
    ["info_commitment", ltr(info.commitment, "code hex")],
    ["info_seed", info.serverSeed === null ? t("info_seed_hidden") : ltr(info.serverSeed, "code hex")],
    ["info_clients", ltr(info.clientSeeds.join(","), "code hex")],
    ["info_moves", String(info.moves)],
  ];
  if (info.winners) rows.push(["info_result", el("span", { class: "players" }, info.winners.map((s) => playerName(s)))]);
  return el("dl", { class: "info", id: "info" }, rows.map(([key, value]) => el("div", { class: "row" }, el("dt", {}, t(key)), el("dd", {}, value))));
}

const ICONS = { ok: "✓", fail: "✗", skipped: "–" };

function renderStep(step) {
  const failures = step.items.filter((item) => !item.ok);
  const passes = step.items.filter((item) => item.ok);
  const item = (it) => el("li", { class: it.ok ? "ok" : "fail", "data-ok": String(it.ok) }, el("span", { class: "mark", "aria-hidden": "true" }, it.ok ? "✓" : "✗"), " ", t(it.msg));
  return el("section", { class: `step ${step.state}`, "data-step": step.n, "data-state": step.state },
    el("h3", {}, el("span", { class: "mark", "aria-hidden": "true" }, ICONS[step.state]), el("span", { class: "title" }, t(`step_title_${step.n}`)),
      el("span", { class: "state" }, t(`state_${step.state}`))),
    step.summary ? el("p", { class: "summary" }, t(step.summary)) : null,
    failures.length ? el("ul", { class: "failures" }, failures.map(item)) : null,
    passes.length
      ? el("details", { class: "checks" }, el("summary", {}, t(msg("details", { n: passes.length }))), el("ul", {}, passes.map(item)))
      : null);
}

function renderStep4() {
  const section = el("section", { class: "step info4", "data-step": 4, "data-state": "server" },
    el("h3", {}, el("span", { class: "mark", "aria-hidden": "true" }, "↻"), el("span", { class: "title" }, t("step_title_4"))),
    el("p", {}, t("s4_text"), " ", ltr(t("s4_cli"))));
  const replay = replayUrl(ui.source);
  if (replay) {
    const link = el("a", { id: "replay-link", target: "_blank", rel: "noopener" }, t("s4_link"));
    link.href = replay;
    section.append(el("p", {}, link, " ", ltr(replay)));
  }
  return section;
}

function recordedTag(deal, round) {
  if (!round.recorded) return null;
  // The round of a failed deal is the one the record contradicts: these are the shuffle's hands.
  if (deal.failed) return el("span", { class: "tag bad" }, "✗ ", t("differs"));
  return el("span", { class: "tag" }, "✓ ", t("in_record"));
}

function renderDeals(report) {
  if (!report.deals.length) return null;
  const blocks = report.deals.map((deal) => {
    const rounds = deal.rounds.map((round, r) => el("div", { class: "round" },
      deal.rounds.length > 1 || report.info.game === "jackaroo"
        ? el("h5", {}, t(msg("round_head", { r: r + 1, at: round.at, dealer: round.dealer })), recordedTag(deal, round))
        : null,
      el("table", { class: "hands" }, el("tbody", {}, round.hands.map(([seat, cards]) => el("tr", {}, el("th", { scope: "row" }, playerName(seat)), el("td", {}, cardRow(cards))))))));
    const extra = deal.extra
      ? el("table", { class: "hands extra" }, el("tbody", {},
        deal.extra.mortos.map((cards, s) => el("tr", {}, el("th", { scope: "row" }, t(msg("morto", { s }))), el("td", {}, cardRow(cards)))),
        el("tr", {}, el("th", { scope: "row" }, t("up_card")), el("td", {}, cardRow([deal.extra.up]))),
        el("tr", {}, el("th", { scope: "row" }, t(msg("stock_left", { n: deal.extra.stock }))), el("td", {}))))
      : null;
    return el("details", { class: deal.failed ? "deal failed" : "deal", open: deal.failed ?? false },
      el("summary", {}, deal.failed ? "✗ " : "", ltr(deal.label), " · ", t(msg("deal_head", { after: deal.after, dealer: deal.dealer }))),
      rounds, extra, deal.extra ? el("p", { class: "note" }, t("mortos_note")) : null);
  });
  return el("section", { class: "deals", id: "deals" }, el("h3", {}, t(msg("deals_title", { n: report.deals.length }))), blocks);
}

function render() {
  const root = document.getElementById("result");
  root.replaceChildren();
  if (ui.busy) {
    root.append(el("p", { id: "summary", class: "banner busy", "data-status": "busy" }, t(ui.notice ?? "working")));
    return;
  }
  if (ui.notice) {
    root.append(el("p", { id: "summary", class: "banner error", "data-status": "error", role: "alert" }, "⚠ ", t(ui.notice)));
    return;
  }
  const report = ui.report;
  if (!report) return;
  if (report.status === "error") {
    root.append(el("p", { id: "summary", class: "banner error", "data-status": "error", role: "alert" }, "⚠ ", t(report.error)));
    return;
  }
  if (report.status === "running") {
    root.append(el("p", { id: "summary", class: "banner running", "data-status": "running", role: "status" }, "⏳ ", t("summary_running")));
    root.append(renderInfo(report.info));
    return;
  }
  const ok = report.status === "ok";
  root.append(el("p", { id: "summary", class: `banner ${ok ? "ok" : "fail"}`, "data-status": report.status, role: "status" },
    ok ? "✓ " : "✗ ", ok ? t("summary_ok") : t(msg("summary_fail", { n: report.failedStep }))));
  // In number order: the server's step 4 sits between the page's steps 3 and 5.
  root.append(el("div", { class: "steps" }, report.steps.filter((s) => s.n < 4).map(renderStep), renderStep4(),
    report.steps.filter((s) => s.n > 4).map(renderStep)));
  root.append(renderInfo(report.info));
  const deals = renderDeals(report);
  if (deals) root.append(deals);
}

function replayUrl(source) {
  if (!source) return null;
  const match = /^\/api\/records\/([^/?#]+)\/?$/.exec(source.pathname);
  return match ? `/api/records/${match[1]}/replay` : null;
}

function setLang(lang) {
  ui.lang = lang === "en" ? "en" : "ar";
  const html = document.documentElement;
  html.lang = ui.lang;
  html.dir = ui.lang === "ar" ? "rtl" : "ltr";
  document.title = t("doc_title");
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
  const button = document.getElementById("lang");
  button.textContent = t("lang_switch");
  button.setAttribute("aria-label", t("lang_switch_label"));
  button.lang = ui.lang === "ar" ? "en" : "ar";
  document.getElementById("record").placeholder = t("paste_hint");
  try {
    localStorage.setItem(LANG_KEY, ui.lang);
  } catch {
    // Storage may be unavailable (private mode); the switch still works for this visit.
  }
  render();
}

function initialLang() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked === "ar" || asked === "en") return asked;
  try {
    const stored = localStorage.getItem(LANG_KEY);
    if (stored === "ar" || stored === "en") return stored;
  } catch {
    // No storage: Arabic, the default.
  }
  return "ar";
}

async function verifyText(text, source = null) {
  ui.source = source;
  ui.report = null;
  if (!text.trim()) {
    ui.notice = "empty";
    render();
    return;
  }
  let record;
  try {
    record = JSON.parse(text);
  } catch (error) {
    ui.notice = msg("bad_json", { why: error.message });
    render();
    return;
  }
  if (!globalThis.crypto?.subtle) {
    ui.notice = "no_crypto";
    render();
    return;
  }
  ui.busy = true;
  ui.notice = "working";
  render();
  try {
    ui.report = await verifyRecord(record);
    ui.notice = null;
  } catch (error) {
    ui.notice = msg("malformed", { why: String(error?.message ?? error) });
  } finally {
    ui.busy = false;
  }
  render();
}

async function loadFromHash() {
  const value = new URLSearchParams(location.hash.slice(1)).get("record");
  if (!value) return;
  let url;
  try {
    url = new URL(value, location.href);
  } catch {
    url = null;
  }
  // A record is fetched only from this site: the address must not send the page elsewhere.
  if (!url || url.origin !== location.origin) {
    ui.report = null;
    ui.notice = "foreign_url";
    render();
    return;
  }
  ui.busy = true;
  ui.notice = msg("loading", { url: url.pathname });
  render();
  let text;
  try {
    const response = await fetch(url, { headers: { Accept: "application/json" } });
    text = await response.text();
    if (!response.ok) {
      let why = `HTTP ${response.status}`;
      try {
        why += ` — ${JSON.parse(text).error}`;
      } catch {
        // Not a JSON error body: the status alone says it.
      }
      throw new Error(why);
    }
  } catch (error) {
    ui.busy = false;
    ui.notice = msg("fetch_failed", { url: url.pathname, why: error.message });
    render();
    return;
  }
  ui.busy = false;
  const textarea = document.getElementById("record");
  textarea.value = text;
  textarea.scrollTop = 0;
  await verifyText(text, url);
}

function start() {
  const form = document.getElementById("form");
  const textarea = document.getElementById("record");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    verifyText(textarea.value);
  });
  document.getElementById("file").addEventListener("change", async (event) => {
    const file = event.target.files?.[0];
    if (!file) return;
    const text = await file.text();
    textarea.value = text;
    await verifyText(text);
    event.target.value = "";
  });
  document.getElementById("lang").addEventListener("click", () => setLang(ui.lang === "ar" ? "en" : "ar"));
  window.addEventListener("hashchange", loadFromHash);
  setLang(initialLang());
  document.body.dataset.ready = "true";
  loadFromHash();
}

if (typeof document !== "undefined" && document.getElementById("verify-app")) start();
