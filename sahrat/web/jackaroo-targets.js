// What the Jackaroo board draws for the player's choice and in its centre: a
// target square with what playing there will do (a cross in the colour of the
// marble it captures, dashed red for the partner's, a house for entering the
// home lane, a seven's step count), and the last card played.

import { s } from "./dom.js";
import { SEAT_COLOURS, SQUARE_R } from "./jackaroo-board.js";

/**
 * One target at (x, y); `preview`: {capture: [seat…], home, steps, partner};
 * `hitR`: the radius, in board units, that makes its hit circle 44 CSS px across.
 */
export function targetEl(loc, x, y, preview, armed, hitR) {
  const capture = preview.capture || [];
  const effect = capture.length ? "capture" : preview.home ? "home" : "move";
  return s(
    "g",
    {
      class: ["target", capture.length ? "capture" : "", preview.home ? "home" : "", preview.partner ? "partner" : "", armed ? "armed" : ""],
      transform: `translate(${x.toFixed(1)} ${y.toFixed(1)})`,
      dataset: { loc, effect, victims: capture.join(",") },
      style: capture.length ? { "--seat": SEAT_COLOURS[capture[0]] } : null,
    },
    s("circle", { class: "hit", r: Math.max(SQUARE_R, hitR).toFixed(1) }),
    s("circle", { class: "target-dot", r: SQUARE_R + 6 }),
    capture.length ? s("path", { class: "target-mark", d: "M-9 -9L9 9M9 -9L-9 9" }) : null,
    preview.home && !capture.length ? s("path", { class: "target-mark", d: "M-9 2L0 -8L9 2M-6 0v8h12v-8" }) : null,
    preview.steps ? s("text", { class: "target-steps", y: -SQUARE_R - 12, "text-anchor": "middle" }, String(preview.steps)) : null,
  );
}

/** The centre of a board whose middle is (c, c): a disc, the top card, the stock's words. */
export function centre(c, top, label) {
  const out = [s("circle", { class: "centre-disc", cx: c, cy: c, r: 150 })];
  if (top) {
    const red = top[1] === "H" || top[1] === "D";
    const rank = top[0] === "T" ? "10" : top[0];
    const suit = { S: "♠", H: "♥", D: "♦", C: "♣" }[top[1]];
    out.push(
      s("rect", { class: "centre-card", x: c - 48, y: c - 70, width: 96, height: 130, rx: 10 }),
      s("text", { class: ["centre-rank", red ? "red" : ""], x: c, y: c - 8, "text-anchor": "middle" }, rank),
      s("text", { class: ["centre-suit", red ? "red" : ""], x: c, y: c + 42, "text-anchor": "middle" }, suit),
    );
  }
  if (label !== null) out.push(s("text", { class: "centre-stock", x: c, y: c + 100, "text-anchor": "middle" }, label));
  return out;
}
