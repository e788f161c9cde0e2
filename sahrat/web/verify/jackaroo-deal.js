// Jackaroo's deals, recomputed from the record (jackaroo.md §5; state.py _deal,
// _end_round, _apply_chance): the log is replayed only as far as the cards go —
// who holds what, whose turn it is, which chance step is due — so that every
// shuffle's deal and every card played can be checked against the shuffles.

import { JACKAROO_DECK, isCode } from "./streams.js";
import { Failed, cardsText, isObject, readAction, readIndex, show } from "./draws.js";

/** The deal each preset implies (options.py PRESETS); a record names the preset and what differs. */
const JACKAROO_PRESET_DEAL = { sahrat: "5-4-4", classic: "4-each", complex: "4-each" };
/** Cards dealt per round in one 5-4-4 deck cycle, by seat count. */
const SCHEDULES = { 4: [5, 4, 4], 2: [5, 4, 4, 4, 4, 5] };
const FOUR_EACH = 4;

/** What the replay needs of a table's options: preset, seat count, deal, seats in play order. */
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

/** Replays the log's deals into `report.deals`; returns the counts step 3's summary names. */
export function jackarooDeals(record, draws, report) {
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
