// Buraco's deals, recomputed from the record (buraco.md §3–4; deal.py deal_cards,
// state.py _apply_chance, _begin_turn, …): the log is replayed only as far as the
// cards go — hands, stock, discard pile, mortos, whose turn, when a hand ends —
// so that every shuffle's deal and every card laid down can be checked.

import { BURACO_DECK, byCardOrder, isCode } from "./streams.js";
import { Failed, cardsText, isObject, readAction, readIndex, show } from "./draws.js";

const HAND_SIZE = 11;
const MORTO_SIZE = 11;
/** "No endless hands" (buraco.md §4): this many turns in a row without a draw end the hand. */
export const TURNS_WITHOUT_DRAW = 12;
// A side's morto: not taken, taken by discarding (picked up next turn), taken, the stock.
const UNTAKEN = 0;
const PENDING = 1;
const TAKEN = 2;
const STOCK = 3;

/** What the replay needs of a table's options. */
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

/** Replays the log's deals into `report.deals`; returns the counts step 3's summary names. */
export function buracoDeals(record, draws, report) {
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
  let idle = 0; // turns in a row that ended without a draw from the stock
  let drew = false; // whether the turn under way drew from the stock
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
    drew = false;
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
  // A discard that passes the turn on: the next turn begins, unless this was the
  // last of too many turns without a draw, which ends the hand as an empty stock would.
  const passTurn = (seat) => {
    if (!drew) idle += 1;
    if (idle >= TURNS_WITHOUT_DRAW) endHand();
    else beginTurn((seat + 1) % players);
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
      idle = 0;
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
        drew = true;
        idle = 0;
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
      passTurn(seat);
    } else {
      throw new Failed("f_bad_action", { i, action });
    }
  }
  return { d: report.deals.length, m: played };
}
