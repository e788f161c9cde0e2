// How a Jackaroo move looks on the board: each marble walks its way square
// by square (a split's parts one after the other, a swap crossing, a 4
// backwards), captured marbles go home once the mover has landed, and the
// move stays drawn (where it started, its way, where it ended) until the next.

import { s } from "./dom.js";
import { walk, fadeIn } from "./motion.js";
import { pathBetween } from "./jackaroo-paths.js";
import { SEAT_COLOURS, SQUARE_R } from "./jackaroo-board.js";

/** The way of each marble that moved, in the order the move played them. */
export function animateMove(board, changed, move, ms) {
  const steps = [];
  const way = (c, backwards) => {
    const squares = c.from === "b" ? [c.to] : pathBetween(c.from, c.to, c.seat, backwards);
    return [c.fromXY, ...squares.map((loc) => board.where(loc, c.seat))];
  };
  const byFrom = (from) => changed.find((c) => c.from === from || (from && from[0] === "b" && c.from === "b" && c.seat === Number(from[1]) && c.to !== "b"));
  const parts = [];
  if (move && (move.kind === "move" || move.kind === "split")) {
    parts.push(byFrom(move.from));
    if (move.kind === "split") parts.push(byFrom(move.from2));
  }
  const backwards = !!move && move.card && move.card[0] === "4";
  let at = 0;
  const perPart = ms / Math.max(1, parts.filter(Boolean).length);
  for (const c of parts) {
    if (!c || !c.fromXY) continue;
    const points = way(c, backwards);
    const duration = Math.min(perPart, 70 * (points.length - 1) + 120);
    walk(c.item.el, points, { duration, delay: at });
    steps.push(c);
    at += duration;
  }
  for (const c of changed) {
    if (steps.includes(c) || !c.fromXY) continue;
    const home = c.to === "b" && c.from !== "b";
    if (home) {
      // Captured: sent home once the capturer has landed.
      walk(c.item.el, [c.fromXY, c.item.xy], { duration: 260, delay: at, hop: false });
      c.item.el.classList.remove("captured");
      void c.item.el.getBoundingClientRect(); // restart the flash
      c.item.el.classList.add("captured");
    } else if (move && move.kind === "swap") {
      walk(c.item.el, [c.fromXY, c.item.xy], { duration: Math.min(ms, 360), hop: false });
    } else if (move || c.from !== "b") {
      walk(c.item.el, [c.fromXY, c.item.xy], { duration: Math.min(ms, 300), hop: false });
    } else {
      fadeIn(c.item.el);
    }
  }
}

/** The last move stays drawn until the next: where it started, its way, where it ended. */
export function markLastMove(board, changed, move) {
  if (!changed.length && !move) return;
  const g = board.lastLayer;
  g.replaceChildren();
  if (!move || !(move.kind === "move" || move.kind === "split" || move.kind === "swap")) return;
  const ends = move.kind === "split" ? [[move.from, move.to], [move.from2, move.to2]] : [[move.from, move.to]];
  for (const [from, to] of ends) {
    const mover = changed.find((c) => c.to === to);
    const seat = mover ? mover.seat : board.me;
    const colour = SEAT_COLOURS[seat];
    const squares = move.kind === "swap" || from[0] === "b" ? [to] : pathBetween(from, to, seat, move.card[0] === "4");
    const start = from[0] === "b" ? board.baseCentre(Number(from[1])) : board.where(from, seat);
    const points = [start, ...squares.map((loc) => board.where(loc, seat))];
    g.append(
      s("polyline", {
        class: "last-trail",
        points: points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" "),
        style: { "--seat": colour },
      }),
      s("circle", { class: "last-from", cx: start[0].toFixed(1), cy: start[1].toFixed(1), r: SQUARE_R + 4, style: { "--seat": colour } }),
      s("circle", { class: "last-to", cx: points[points.length - 1][0].toFixed(1), cy: points[points.length - 1][1].toFixed(1), r: SQUARE_R + 8, style: { "--seat": colour }, dataset: { loc: to } }),
    );
    if (move.kind === "swap") {
      const [x, y] = board.where(from, seat);
      g.append(s("circle", { class: "last-to", cx: x.toFixed(1), cy: y.toFixed(1), r: SQUARE_R + 8, style: { "--seat": colour } }));
    }
  }
}
