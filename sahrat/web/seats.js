// Seat labels: a name, badges (bot, away, disconnected, you, partner,
// dealer) and, on the seat whose turn it is, the turn clock as a ring that
// empties as the deadline comes (the deadline is the server's epoch seconds).

import { withSeatMenu } from "./social.js";
import { h, s } from "./dom.js";
import { t } from "./i18n.js";

const RING_R = 20;
const RING_LEN = 2 * Math.PI * RING_R;

// One ticker for every ring on the page, so nothing keeps running for
// rings that left the DOM.
const rings = new Set();
let ticker = null;
let now = () => Date.now() / 1000;

/** Where to read the server's time from (net.Connection.serverNow). */
export function setClock(fn) {
  now = fn;
}

function tick() {
  for (const ring of rings) {
    if (!ring.el.isConnected) {
      rings.delete(ring);
      continue;
    }
    ring.update();
  }
  if (!rings.size) {
    clearInterval(ticker);
    ticker = null;
  }
}

class ClockRing {
  constructor(deadline, total) {
    this.deadline = deadline;
    this.total = Math.max(1, total || 15);
    this.arc = s("circle", {
      class: "clock-arc",
      cx: 24,
      cy: 24,
      r: RING_R,
      "stroke-dasharray": RING_LEN.toFixed(2),
    });
    this.label = s("text", { class: "clock-text", x: 24, y: 29, "text-anchor": "middle" });
    this.el = s(
      "svg",
      { class: "clock", viewBox: "0 0 48 48", role: "timer", "aria-label": t("clock") },
      s("circle", { class: "clock-track", cx: 24, cy: 24, r: RING_R }),
      this.arc,
      this.label,
    );
    this.update();
    rings.add(this);
    if (!ticker) ticker = setInterval(tick, 200);
  }

  update() {
    const left = Math.max(0, this.deadline - now());
    const part = Math.min(1, left / this.total);
    this.arc.setAttribute("stroke-dashoffset", (RING_LEN * (1 - part)).toFixed(2));
    this.el.classList.toggle("hurry", left < 5);
    this.label.textContent = String(Math.ceil(left));
  }
}

/** An avatar disc with the seat's initial, or a ring clock while the seat is to play. */
function avatar(info, clock) {
  if (clock && clock.deadline) return new ClockRing(clock.deadline, clock.total).el;
  const initial = (info.name || "?").trim().charAt(0) || "?";
  return h("span", { class: ["avatar", clock ? "thinking" : ""], "aria-hidden": "true" }, initial);
}

/**
 * A seat's label. `info` is a seat of the table message ({seat, name, bot,
 * connected, away, left} or {seat, empty}); `extra`: {you, partner, active,
 * deadline, total, dealer, colour, cards (a count or null)}.
 */
export function seatChip(info, extra = {}) {
  const badges = [];
  if (info.empty) {
    return h("div", { class: "seat-chip empty", dataset: { seat: String(info.seat) } }, t("seat.empty"));
  }
  if (extra.you) badges.push(h("span", { class: "badge you" }, t("badge.you")));
  else if (extra.partner) badges.push(h("span", { class: "badge partner" }, t("badge.partner")));
  if (info.bot) badges.push(h("span", { class: "badge bot" }, t("badge.bot")));
  // At a coin table a player who left keeps the seat (the server plays it) but is gone.
  if (info.left) badges.push(h("span", { class: "badge offline left" }, t("badge.left")));
  else if (!info.connected) badges.push(h("span", { class: "badge offline" }, t("badge.offline")));
  else if (info.away) badges.push(h("span", { class: "badge away" }, t("badge.away")));
  if (extra.dealer) badges.push(h("span", { class: "badge dealer", title: t("badge.dealerLong") }, t("badge.dealer")));
  const clock = extra.active ? { deadline: extra.deadline, total: extra.total } : null;
  const chip = h(
    "div",
    {
      class: ["seat-chip", extra.active ? "active" : "", info.bot ? "is-bot" : ""],
      style: extra.colour ? { "--seat": extra.colour } : null,
      dataset: { seat: String(info.seat) },
    },
    avatar(info, clock),
    h(
      "div",
      { class: "seat-text" },
      h("span", { class: "seat-name", dir: "auto" }, info.name),
      h(
        "span",
        { class: "seat-badges" },
        badges,
        extra.cards !== undefined && extra.cards !== null
          ? h("span", { class: "badge cards" }, t("seat.cards", { n: extra.cards }))
          : null,
      ),
    ),
  );
  // Another person's seat offers "add friend" and "block" (a bot's or one's own does not).
  if (!info.bot && !extra.you && typeof info.player === "string") withSeatMenu(chip, info);
  return chip;
}
