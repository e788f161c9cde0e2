// What the Jackaroo table says before a move is played, in words: what a
// target square will do (a capture, of whose marble, partner included; the
// way into home; a seven's steps), every listed move in words instead of the
// engine's notation, and why a card cannot be played now.
//
// Everything is read from the server's `legal` list and the position it
// sent; nothing here decides what is legal.

import { t } from "./i18n.js";
import { cardText } from "./cards.js";
import { iso } from "./bidi.js";
import { colourAt, kingMode, pathBetween, progress, stepsBetween } from "./jackaroo-paths.js";

/** The facts the hints need from a table message: {marbles, you, partner, next, names, options}. */
export function context(msg) {
  const seats = msg.seats.map((seat) => seat.seat);
  const i = seats.indexOf(msg.you);
  const names = {};
  for (const seat of msg.seats) names[seat.seat] = seat.empty ? t("room.seat", { n: seat.seat + 1 }) : iso(seat.name);
  return {
    marbles: msg.view.marbles,
    options: msg.view.options,
    you: msg.you,
    partner: seats.length === 4 ? (msg.you + 2) % 4 : null,
    next: seats[(i + 1) % seats.length],
    names,
  };
}

/** Seats whose marbles a move from `from` to `to` with `card` would capture. */
function victims(ctx, card, from, to) {
  const mover = colourAt(ctx.marbles, from);
  const squares = card[0] === "K" && from[0] === "t" && kingMode(ctx.options) !== "plain" ? pathBetween(from, to, mover) : [to];
  const out = [];
  for (const loc of squares) {
    if (loc[0] !== "t") continue;
    const seat = colourAt(ctx.marbles, loc);
    if (seat !== null && loc !== from) out.push(seat);
  }
  return out;
}

/** What each target square of the chooser's current stage will do: loc → preview. */
export function targetPreviews(chooser, ctx) {
  const out = new Map();
  const { targets } = chooser.options();
  if (!targets.size) return out;
  const from = chooser.part1 ? chooser.from2 : chooser.from;
  const colour = colourAt(ctx.marbles, from);
  const swap = chooser.cardMoves().some((m) => m.kind === "swap");
  for (const to of targets) {
    const capture = swap ? [] : victims(ctx, chooser.card, from, to);
    const steps = chooser.card[0] === "7" ? stepsBetween(from, to, colour) : null;
    const swapWith = swap ? colourAt(ctx.marbles, to) : null;
    out.set(to, { capture, home: to[0] === "h", steps, partner: capture.includes(ctx.partner), swapWith });
  }
  return out;
}

/** A preview in words: "تاكل بلية مريم · تدخل البيت". */
export function previewWords(preview, ctx) {
  const parts = [];
  for (const seat of preview.capture || []) {
    if (seat === ctx.you) parts.push(t("jk.pv.own"));
    else if (seat === ctx.partner) parts.push(t("jk.pv.partner", { name: ctx.names[seat] }));
    else parts.push(t("jk.pv.capture", { name: ctx.names[seat] }));
  }
  if (preview.swapWith !== null && preview.swapWith !== undefined) parts.push(t("jk.pv.swap", { name: ctx.names[preview.swapWith] }));
  if (preview.home) parts.push(t("jk.pv.home"));
  if (preview.steps) parts.push(t("jk.steps", { n: preview.steps }));
  return parts.join(" · ");
}

function whose(ctx, from) {
  const seat = colourAt(ctx.marbles, from);
  if (seat === ctx.you || seat === null) {
    const left = from[0] === "t" ? 75 - progress(ctx.you, from) : null;
    return left !== null ? t("jk.mv.left", { n: left }) : t("jk.mv.yours");
  }
  return t("jk.mv.of", { name: ctx.names[seat] });
}

/** One listed move in words, with what it does ("7♥: تقسم السبعة 3 + 4 · تاكل بلية مريم"). */
export function moveInWords(move, ctx) {
  const card = move.card ? `\u2068${cardText(move.card)}\u2069` : "";
  const colour = colourAt(ctx.marbles, move.from);
  let words;
  const effects = [];
  if (move.kind === "discard-all") return t("jk.discardAll");
  if (move.kind === "discard") return t("jk.discard", { card });
  if (move.kind === "burn") return t("jk.mv.burn", { card, name: ctx.names[ctx.next] });
  if (move.kind === "swap") {
    words = t("jk.mv.swap", { card, name: ctx.names[colourAt(ctx.marbles, move.to)] });
  } else if (move.kind === "split") {
    const a = stepsBetween(move.from, move.to, colour);
    const b = stepsBetween(move.from2, move.to2, colourAt(ctx.marbles, move.from2));
    words = t("jk.mv.split", { card, a: a ?? "?", b: b ?? "?" });
    effects.push(...victims(ctx, move.card, move.from2, move.to2));
  } else if (move.from[0] === "b") {
    words = t("jk.mv.out", { card });
  } else {
    const back = move.card[0] === "4";
    const steps = back ? pathBetween(move.from, move.to, colour, true).length : stepsBetween(move.from, move.to, colour);
    words = t(back ? "jk.mv.back" : "jk.mv.move", { card, whose: whose(ctx, move.from), steps: t("jk.steps", { n: steps ?? 0 }) });
  }
  if (move.kind !== "swap") effects.unshift(...victims(ctx, move.card, move.from, move.to));
  const home = (move.to && move.to[0] === "h" && move.from[0] !== "h") || (move.to2 && move.to2[0] === "h" && move.from2[0] !== "h");
  const said = previewWords({ capture: effects, home }, ctx);
  return said ? `${words} · ${said}` : words;
}

/**
 * The line under the board when only burns are left: which cards, or the
 * whole hand; null when some card moves a marble.
 */
export function burnHint(chooser) {
  const moves = chooser.moves;
  if (!moves.length || moves.some((m) => m.from)) return null;
  if (moves.every((m) => m.kind === "discard-all")) return t("jk.stage.burnAll");
  const cards = [...new Set(moves.filter((m) => m.kind === "discard" || m.kind === "burn").map((m) => cardText(m.card)))];
  return t("jk.stage.burnOnly", { cards: cards.map((c) => `\u2068${c}\u2069`).join("، ") });
}

/** Why `card` is greyed, said when the player taps it anyway. */
export function whyNot(card, chooser, ctx, mine) {
  if (!mine) return t("jk.why.notTurn");
  const label = `\u2068${cardText(card)}\u2069`;
  const out = (ctx.marbles[String(ctx.you)] || []).some((loc) => loc !== "b");
  // Some other card moves a marble: burning this one is not allowed.
  const otherMoves = chooser.moves.some((m) => m.from);
  if (!out && card[0] !== "A" && card[0] !== "K") return t("jk.why.needOut");
  if (otherMoves) return `${t("jk.why.blocked", { card: label })} · ${t("jk.why.mustMove", { card: label })}`;
  return t("jk.why.blocked", { card: label });
}

/**
 * The line above the hand: whose turn, what to tap next, what the targets
 * will do. `state`: {msg, chooser, ctx, mine, previews, pending, why, armed}.
 * Returns {line, extra} (extra: a second, smaller line, or null).
 */
export function lineWords({ msg, chooser, ctx, mine, previews, pending, why, armed }) {
  let extra = null;
  const said = (p) => previewWords(p || {}, ctx) || t("jk.pv.plain");
  if (msg.table.status === "finished") return { line: t("turn.over"), extra };
  if (pending) return { line: t("turn.sent"), extra };
  if (why) return { line: why, extra };
  if (!mine) {
    if (msg.to_move === null || msg.to_move === undefined) return { line: t("turn.dealing"), extra };
    return { line: t("turn.other", { name: ctx.names[msg.to_move] ?? "?" }), extra };
  }
  if (armed) return { line: t("jk.pv.armed", { what: said(previews.get(armed)) }), extra };
  if (!chooser.card && burnHint(chooser)) return { line: burnHint(chooser), extra };
  if (chooser.card && chooser.cardUse(chooser.card) === "burn") {
    // A T whose only use here is burning the next player's card says so.
    const ten = chooser.cardMoves().some((m) => m.kind === "burn");
    return { line: ten ? t("jk.stage.tenBurns", { name: ctx.names[ctx.next] }) : burnHint(chooser) || t("jk.stage.stuck"), extra };
  }
  if (chooser.part1) {
    const used = stepsBetween(chooser.part1.from, chooser.part1.to, colourAt(ctx.marbles, chooser.part1.from)) || 0;
    return { line: t(chooser.from2 === null ? "jk.split.marble" : "jk.split.square", { used, left: 7 - used }), extra };
  }
  const effects = [...new Set([...previews.values()].map((p) => previewWords({ ...p, steps: null }, ctx)).filter(Boolean))];
  if (effects.length) extra = effects.join(" | ");
  else if (chooser.card && chooser.card[0] === "7" && chooser.from !== null) extra = t("jk.split.howto");
  return { line: t("jk.stage." + chooser.stage()), extra };
}
