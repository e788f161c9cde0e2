// The checks of fairness.md §4 that the browser makes itself, on a parsed record:
// 1. SHA-256(server seed) is the commitment; 2. every shuffle and pick recomputes;
// 3. the deals follow from the shuffles (each game's replay of the log); and 5.
// every seed the server filled in is the derived seed of §1. Step 4, replaying
// the moves under the rules, needs the engines: the page points to the server's
// replay and to `sahrat verify FILE`. No DOM: the result is a report object.

import { DERIVED_PREFIX, HEX64_RE, Malformed, Seeds, Stream, commitmentOf, derivedSeed, isCode } from "./streams.js";
import { Draws, Failed, firstDifference, isObject, msg, show } from "./draws.js";
import { verifyParts } from "./games.js";

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

/** The record's game's parts (games.js); a game this page does not know fails the step. */
function gameOf(record) {
  const game = verifyParts(record.game);
  if (!game) throw new Failed("f_unknown_game", { game: record.game });
  return game;
}

// -- step 5 ------------------------------------------------------------------------------

/** The engine seats in play order: the order of the record's client seeds. */
function seatOrder(record) {
  return gameOf(record).seats(record.options);
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

// -- step 3 ------------------------------------------------------------------------------

async function stepDeals(record, step, report) {
  const draws = new Draws(record);
  let outcome;
  try {
    outcome = gameOf(record).deals(record, draws, report);
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
  step.summary = msg(gameOf(record).summary, outcome);
}
