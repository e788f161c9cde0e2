// The Jackaroo board in SVG (jackaroo.md §1): a ring of 76 track squares,
// each seat's start square, home lane and base in its colour, and the
// marbles, which glide to their new squares (a CSS transition on transform).
//
// The board turns so that the viewer's own start square and home lane are
// at the bottom and the partner's at the top. Play runs counter-clockwise
// on screen (to the right, as Gulf tables pass the turn).

import { s } from "./dom.js";

const C = 500; // centre of the 1000×1000 view box
const TRACK_R = 420;
const STEP = (2 * Math.PI) / 76;
const SQUARE_R = 15;
const MARBLE_R = 13;
const LANE_GAP = 42;
const BASE_R = 300; // the bases sit inside the ring, beside their start squares

export const SEAT_COLOURS = ["#e8505b", "#2bb3a3", "#f4b740", "#7b8cf0"];

export class JackarooBoard {
  /** `onClick(loc)` gets "t12", "h0.3" or "b2" (a base) for any click on the board. */
  constructor(onClick) {
    this.onClick = onClick;
    this.me = 0;
    this.seats = [0, 1, 2, 3];
    this.marbleEls = new Map(); // seat → [{el, loc}]
    this.el = s("svg", {
      class: "jk-board",
      viewBox: "0 0 1000 1000",
      role: "img",
    });
    this.squaresLayer = s("g", { class: "squares" });
    this.centreLayer = s("g", { class: "centre" });
    this.marblesLayer = s("g", { class: "marbles" });
    this.targetsLayer = s("g", { class: "targets" });
    this.el.append(this.squaresLayer, this.centreLayer, this.marblesLayer, this.targetsLayer);
    this.el.addEventListener("click", (event) => {
      const hit = event.target.closest("[data-loc]");
      this.onClick(hit ? hit.dataset.loc : null);
    });
  }

  // -- geometry ----------------------------------------------------------------------

  angle(index) {
    // The gap between the viewer's entry and start square is at the bottom (π/2).
    return Math.PI / 2 - (index - (19 * this.me - 0.5)) * STEP;
  }

  point(r, theta) {
    return [C + r * Math.cos(theta), C + r * Math.sin(theta)];
  }

  /** Centre of a location: "t5", "h2.3", or a base slot ("b", seat, slot). */
  where(loc, seat, slot = 0) {
    if (loc[0] === "t") return this.point(TRACK_R, this.angle(Number(loc.slice(1))));
    if (loc[0] === "h") {
      const [owner, k] = loc.slice(1).split(".").map(Number);
      return this.point(TRACK_R - LANE_GAP * k - 5, this.angle(19 * owner - 0.5));
    }
    const [x, y] = this.baseCentre(seat);
    const dx = slot % 2 ? 19 : -19;
    const dy = slot < 2 ? -19 : 19;
    return [x + dx, y + dy];
  }

  baseCentre(seat) {
    return this.point(BASE_R, this.angle(19 * seat + 5));
  }

  /** Which corner of the board a seat's quarter faces: for the seat labels. */
  corner(seat) {
    const theta = this.angle(19 * seat + 9.5);
    return { right: Math.cos(theta) > 0, bottom: Math.sin(theta) > 0 };
  }

  // -- drawing -----------------------------------------------------------------------

  /** Draw the fixed board for `me` (the viewer's seat) and the seats in play. */
  setSeats(me, seats) {
    this.me = me;
    this.seats = seats;
    this.squaresLayer.replaceChildren();
    this.marblesLayer.replaceChildren();
    this.marbleEls.clear();
    const g = this.squaresLayer;
    g.append(s("circle", { class: "felt", cx: C, cy: C, r: TRACK_R + 48 }));
    g.append(s("circle", { class: "ring-line", cx: C, cy: C, r: TRACK_R }));
    for (let i = 0; i < 76; i++) {
      const [x, y] = this.where(`t${i}`);
      const owner = i % 19 === 0 ? i / 19 : null;
      const start = owner !== null && seats.includes(owner);
      g.append(
        s("circle", {
          class: ["square", start ? "start" : ""],
          cx: x.toFixed(1),
          cy: y.toFixed(1),
          r: start ? SQUARE_R + 3 : SQUARE_R,
          style: start ? { "--seat": SEAT_COLOURS[owner] } : null,
          dataset: { loc: `t${i}` },
        }),
      );
    }
    for (const seat of seats) {
      const colour = SEAT_COLOURS[seat];
      // The home lane runs inwards from between the entry and the start square.
      const [x0, y0] = this.point(TRACK_R - 18, this.angle(19 * seat - 0.5));
      const [x1, y1] = this.where(`h${seat}.4`);
      g.append(s("line", { class: "lane-line", x1: x0, y1: y0, x2: x1, y2: y1, stroke: colour }));
      for (let k = 1; k <= 4; k++) {
        const [x, y] = this.where(`h${seat}.${k}`);
        g.append(
          s("circle", {
            class: "square home",
            cx: x.toFixed(1),
            cy: y.toFixed(1),
            r: SQUARE_R,
            style: { "--seat": colour },
            dataset: { loc: `h${seat}.${k}` },
          }),
        );
      }
      const [bx, by] = this.baseCentre(seat);
      g.append(
        s("circle", {
          class: "base",
          cx: bx.toFixed(1),
          cy: by.toFixed(1),
          r: 50,
          style: { "--seat": colour },
          dataset: { loc: `b${seat}` },
        }),
      );
      for (let slot = 0; slot < 4; slot++) {
        const [x, y] = this.where("b", seat, slot);
        g.append(s("circle", { class: "base-slot", cx: x, cy: y, r: MARBLE_R - 3, dataset: { loc: `b${seat}` } }));
      }
      const els = [];
      for (let k = 0; k < 4; k++) {
        const el = s(
          "g",
          { class: "marble", style: { "--seat": colour }, dataset: { seat: String(seat), loc: `b${seat}` } },
          // A halo shows when the marble may be picked or is picked.
          s("circle", { r: MARBLE_R + 6, class: "marble-halo" }),
          s("circle", { r: MARBLE_R, class: "marble-body" }),
          s("circle", { r: 4.5, cx: -4, cy: -4, class: "marble-shine" }),
        );
        this.marblesLayer.append(el);
        els.push({ el, loc: null });
      }
      this.marbleEls.set(seat, els);
    }
  }

  /**
   * Put the marbles where `marbles` says ({seat: ["b", "t3", "h0.1", …]}).
   * Marbles that stay keep their element; the others glide to the new squares.
   * Returns the locations (squares) of marbles that were just captured.
   */
  render(marbles) {
    const captured = [];
    for (const seat of this.seats) {
      const els = this.marbleEls.get(seat);
      const wanted = (marbles[String(seat)] || []).slice(0, 4);
      const free = new Set(els.keys());
      const placed = new Array(wanted.length).fill(null);
      // Keep marbles that did not move on their square.
      wanted.forEach((loc, i) => {
        if (loc === "b") return;
        for (const k of free) {
          if (els[k].loc === loc) {
            placed[i] = k;
            free.delete(k);
            return;
          }
        }
      });
      // Marbles in the base keep being base marbles if they were.
      wanted.forEach((loc, i) => {
        if (placed[i] !== null || loc !== "b") return;
        for (const k of free) {
          if (els[k].loc === "b") {
            placed[i] = k;
            free.delete(k);
            return;
          }
        }
      });
      wanted.forEach((loc, i) => {
        if (placed[i] === null) {
          const k = free.values().next().value;
          free.delete(k);
          placed[i] = k;
        }
      });
      let slot = 0;
      wanted.forEach((loc, i) => {
        const item = els[placed[i]];
        const before = item.loc;
        const [x, y] = loc === "b" ? this.where("b", seat, slot++) : this.where(loc, seat);
        item.el.style.transform = `translate(${x.toFixed(1)}px, ${y.toFixed(1)}px)`;
        item.el.dataset.loc = loc === "b" ? `b${seat}` : loc;
        if (before && before[0] === "t" && loc === "b") {
          captured.push(before);
          item.el.classList.remove("captured");
          // Restart the animation on every capture.
          void item.el.getBoundingClientRect();
          item.el.classList.add("captured");
        }
        item.loc = loc;
      });
    }
    return captured;
  }

  /** Mark what can be clicked: `movable` marbles and `targets` squares (sets of locations). */
  highlight({ movable = new Set(), targets = new Set(), selected = null, ghost = null } = {}) {
    for (const els of this.marbleEls.values()) {
      for (const { el } of els) {
        const loc = el.dataset.loc;
        el.classList.toggle("movable", movable.has(loc));
        el.classList.toggle("selected", selected !== null && loc === selected);
      }
    }
    this.targetsLayer.replaceChildren();
    for (const loc of targets) {
      const [x, y] = this.where(loc, baseSeatOf(loc));
      this.targetsLayer.append(
        s("circle", { class: "target", cx: x.toFixed(1), cy: y.toFixed(1), r: SQUARE_R + 5, dataset: { loc } }),
      );
    }
    if (ghost) {
      const [x, y] = this.where(ghost);
      this.targetsLayer.append(s("circle", { class: "ghost", cx: x, cy: y, r: MARBLE_R }));
    }
  }

  /** The centre: the last card played and the stock. */
  setCentre({ top = null, stock = null, label = "" } = {}) {
    const g = this.centreLayer;
    g.replaceChildren();
    g.append(s("circle", { class: "centre-disc", cx: C, cy: C, r: 150 }));
    if (top) {
      const red = top[1] === "H" || top[1] === "D";
      const rank = top[0] === "T" ? "10" : top[0];
      const suit = { S: "♠", H: "♥", D: "♦", C: "♣" }[top[1]];
      g.append(
        s("rect", { class: "centre-card", x: C - 48, y: C - 70, width: 96, height: 130, rx: 10 }),
        s("text", { class: ["centre-rank", red ? "red" : ""], x: C, y: C - 8, "text-anchor": "middle" }, rank),
        s("text", { class: ["centre-suit", red ? "red" : ""], x: C, y: C + 42, "text-anchor": "middle" }, suit),
      );
    }
    if (stock !== null) {
      g.append(s("text", { class: "centre-stock", x: C, y: C + 100, "text-anchor": "middle" }, label));
    }
  }
}

function baseSeatOf(loc) {
  return loc[0] === "b" ? Number(loc.slice(1)) : 0;
}
