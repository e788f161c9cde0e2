// The random streams of fairness.md §1–3, with the Web Crypto API: the
// commitment, the derived seeds, HMAC-SHA256 streams, uniform picks and
// shuffles, and the unshuffled decks. No DOM: the tests import these.

// -- cards and decks (fairness.md §3) ----------------------------------------------------

const RANKS = "A23456789TJQK";
const SUITS = "SHDC";
export const JOKER = "JK";
/** Card codes in the engines' order (suit * 13 + rank, then the joker). */
export const CODES = Object.freeze([
  ...[...SUITS].flatMap((s) => [...RANKS].map((r) => r + s)),
  JOKER,
]);
const INDEX = new Map(CODES.map((code, i) => [code, i]));
/** The unshuffled decks. */
export const JACKAROO_DECK = Object.freeze(CODES.slice(0, 52));
export const BURACO_DECK = Object.freeze([
  ...JACKAROO_DECK, ...JACKAROO_DECK, JOKER, JOKER, JOKER, JOKER,
]);
export const DECKS = Object.freeze({ jackaroo: JACKAROO_DECK, buraco: BURACO_DECK });

/** Whether `code` names a card (a joker only where `joker` allows it). */
export function isCode(code, joker) {
  return INDEX.has(code) && (joker || code !== JOKER);
}

/** Sorts codes in the engines' card order, as the records list a Buraco hand. */
export const byCardOrder = (a, b) => INDEX.get(a) - INDEX.get(b);

// -- inputs (fairness.md §1) ---------------------------------------------------------------

const VERSION = "sahrat-v1";
const TWO32 = 2 ** 32;
const ID_RE = /^[A-Za-z0-9_-]{1,64}$/;
const LABEL_RE = /^[A-Za-z0-9_/-]{1,64}$/;
export const HEX64_RE = /^[0-9a-fA-F]{64}$/;
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

/** Everything that keys a game's streams, with its HMAC key imported once. */
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

// -- streams (fairness.md §2) --------------------------------------------------------------

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

  /** An unbiased integer in 0..n-1 by rejection sampling. */
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
