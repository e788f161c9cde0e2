// The Jackaroo board in SVG (jackaroo.md §1): a ring of 76 track squares,
// each seat's start square, home lane and base in its colour, and the
// marbles, which walk to their new squares square by square (motion.js).
//
// Every tappable thing (a movable marble, a target square) carries an
// invisible hit circle at least 44 CSS px across, whatever the board's size;
// where hit circles overlap, a tap goes to the nearest centre, and a tap
// half-way between two targets only arms the nearer one (a second tap plays).
//
// The board turns so that the viewer's own start square and home lane are
// at the bottom and the partner's at the top. Play runs counter-clockwise
// on screen (to the right, as Gulf tables pass the turn).

import { s, fill } from "./dom.js";
import { animateMove, markLastMove } from "./jackaroo-motion.js";
import { targetEl, centre } from "./jackaroo-targets.js";

const C = 500; // centre of the 1000×1000 view box
const TRACK_R = 436;
const STEP = (2 * Math.PI) / 76;
export const SQUARE_R = 16;
const MARBLE_R = 16;
const LANE_GAP = 44;
const BASE_R = 300; // the bases sit inside the ring, beside their start squares
const HIT_PX = 23; // half of the 44 CSS px a finger needs, and a pixel to spare

export const SEAT_COLOURS = ["#e8505b", "#2bb3a3", "#f4b740", "#7b8cf0"];

export class JackarooBoard {
  /**
   * `onClick(loc)` gets "t12", "h0.3" or "b2" (a base) for a tap on the board
   * (null beside everything); `onArm(loc)` a target a tap only armed.
   */
  constructor(onClick, onArm = () => {}) {
    this.onClick = onClick;
    this.onArm = onArm;
    this.me = 0;
    this.seats = [0, 1, 2, 3];
    this.marbleEls = new Map(); // seat → [{el, loc, xy}]
    this.tappable = []; // [{loc, x, y, target}] of the last highlight()
    this.armed = null;
    this.hitR = 60; // board units; scaleHits() sets it from the board's size on screen
    this.el = s("svg", { class: "jk-board", viewBox: "0 0 1000 1000", role: "img" });
    this.squaresLayer = s("g", { class: "squares" });
    this.lastLayer = s("g", { class: "last-move" });
    this.centreLayer = s("g", { class: "centre" });
    this.marblesLayer = s("g", { class: "marbles" });
    this.targetsLayer = s("g", { class: "targets" });
    this.el.append(this.squaresLayer, this.lastLayer, this.centreLayer, this.marblesLayer, this.targetsLayer);
    this.el.addEventListener("click", (event) => this.tap(event));
    // The hit circles keep their size in CSS pixels as the board grows and shrinks.
    if (window.ResizeObserver) new ResizeObserver(() => this.scaleHits()).observe(this.el);
  }

  scaleHits() {
    const width = this.el.getBoundingClientRect().width;
    this.hitR = width ? Math.max(MARBLE_R + 6, (HIT_PX * 1000) / width) : 60;
    for (const hit of this.el.querySelectorAll(".marble.movable .hit, .target .hit")) hit.setAttribute("r", this.hitR.toFixed(1));
  }

  /** A tap: the nearest tappable centre within reach, else whatever square is under it. */
  tap(event) {
    const matrix = this.el.getScreenCTM();
    let best = null;
    let second = Infinity;
    if (matrix && this.tappable.length) {
      const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
      for (const item of this.tappable) {
        const d = Math.hypot(item.x - p.x, item.y - p.y);
        if (d > this.hitR) continue;
        if (!best || d < best.d) {
          if (best) second = best.d;
          best = { ...item, d };
        } else second = Math.min(second, d);
      }
    }
    if (best) {
      // Half-way between two targets the finger said nothing clear: show, don't play.
      const unclear = best.target && second - best.d < this.hitR * 0.3 && this.armed !== best.loc;
      if (unclear) {
        this.arm(best.loc);
        this.onArm(best.loc);
        return;
      }
      this.onClick(best.loc);
      return;
    }
    const hit = event.target.closest("[data-loc]");
    this.onClick(hit ? hit.dataset.loc : null);
  }

  arm(loc) {
    this.armed = loc;
    for (const el of this.targetsLayer.querySelectorAll(".target")) el.classList.toggle("armed", el.dataset.loc === loc);
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
    const dx = slot % 2 ? 21 : -21;
    const dy = slot < 2 ? -21 : 21;
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

  /** The board's centre on screen (the pile), for a card flying there. */
  pileRect() {
    const box = this.el.getBoundingClientRect();
    const w = box.width * 0.1;
    return new DOMRect(box.left + box.width / 2 - w / 2, box.top + box.height / 2 - w * 0.75, w, w * 1.35);
  }

  // -- drawing -----------------------------------------------------------------------

  /** Draw the fixed board for `me` (the viewer's seat) and the seats in play. */
  setSeats(me, seats) {
    this.me = me;
    this.seats = seats;
    this.squaresLayer.replaceChildren();
    this.marblesLayer.replaceChildren();
    this.lastLayer.replaceChildren();
    this.marbleEls.clear();
    this.scaleHits();
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
          s("circle", { r: MARBLE_R, class: "hit" }),
          s("circle", { r: MARBLE_R, class: "marble-body" }),
          s("circle", { r: 4.5, cx: -4, cy: -4, class: "marble-shine" }),
        );
        this.marblesLayer.append(el);
        els.push({ el, loc: null, xy: null });
      }
      this.marbleEls.set(seat, els);
    }
  }

  /**
   * Put the marbles where `marbles` says ({seat: ["b", "t3", "h0.1", …]}).
   * `move`, when the change is one known move (jackaroo-moves.js parseMove),
   * lets them walk its way: a split's parts one after the other, a swap
   * crossing, the captured marbles going home once the mover has arrived.
   * `ms` is the time one move may take. Returns the squares of marbles just captured.
   */
  render(marbles, move = null, ms = 500) {
    const changed = [];
    for (const seat of this.seats) {
      const els = this.marbleEls.get(seat);
      const wanted = (marbles[String(seat)] || []).slice(0, 4);
      const placed = this.match(els, wanted);
      let slot = 0;
      wanted.forEach((loc, i) => {
        const item = els[placed[i]];
        const before = item.loc;
        const xy = loc === "b" ? this.where("b", seat, slot++) : this.where(loc, seat);
        item.el.style.transform = `translate(${xy[0].toFixed(1)}px, ${xy[1].toFixed(1)}px)`;
        item.el.dataset.loc = loc === "b" ? `b${seat}` : loc;
        if (before !== null && before !== loc) changed.push({ item, seat, from: before, to: loc, fromXY: item.xy });
        item.loc = loc;
        item.xy = xy;
      });
    }
    const captured = changed.filter((c) => c.from[0] !== "b" && c.to === "b").map((c) => c.from);
    animateMove(this, changed, move, ms);
    markLastMove(this, changed, move);
    return captured;
  }

  /** Which marble element takes which wanted location: those that stay keep theirs. */
  match(els, wanted) {
    const free = new Set(els.keys());
    const placed = new Array(wanted.length).fill(null);
    const take = (i, test) => {
      for (const k of free) {
        if (test(els[k])) {
          placed[i] = k;
          free.delete(k);
          return;
        }
      }
    };
    wanted.forEach((loc, i) => loc !== "b" && take(i, (e) => e.loc === loc));
    wanted.forEach((loc, i) => placed[i] === null && loc === "b" && take(i, (e) => e.loc === "b"));
    wanted.forEach((loc, i) => placed[i] === null && take(i, () => true));
    return placed;
  }

  /**
   * Mark what can be tapped: `movable` marbles and `targets` squares (sets of
   * locations); `previews` (loc → {capture: [seat…], home, steps, partner})
   * says on each target what playing there will do.
   */
  highlight({ movable = new Set(), targets = new Set(), selected = null, ghost = null, previews = new Map() } = {}) {
    this.tappable = [];
    for (const [seat, els] of this.marbleEls) {
      for (const { el, loc, xy } of els) {
        const at = el.dataset.loc;
        const can = movable.has(at);
        el.classList.toggle("movable", can);
        el.querySelector(".hit").setAttribute("r", can ? this.hitR.toFixed(1) : String(MARBLE_R));
        el.classList.toggle("selected", selected !== null && at === selected);
        if (can && xy) this.tappable.push({ loc: at, x: xy[0], y: xy[1], target: false, seat, base: loc === "b" });
      }
    }
    // A base holds four marbles but answers as one: its centre is the place to tap.
    for (const item of this.tappable) {
      if (item.base) [item.x, item.y] = this.baseCentre(item.seat);
    }
    this.tappable = this.tappable.filter((item, i, all) => all.findIndex((o) => o.loc === item.loc) === i);
    this.targetsLayer.replaceChildren();
    if (!targets.has(this.armed)) this.armed = null;
    for (const loc of targets) {
      const [x, y] = this.where(loc, baseSeatOf(loc));
      this.targetsLayer.append(targetEl(loc, x, y, previews.get(loc) || {}, this.armed === loc, this.hitR));
      this.tappable.push({ loc, x, y, target: true });
    }
    if (ghost) {
      const [x, y] = this.where(ghost);
      this.targetsLayer.append(s("circle", { class: "ghost", cx: x, cy: y, r: MARBLE_R }));
    }
  }

  /** The centre: the last card played and the stock. */
  setCentre({ top = null, stock = null, label = "" } = {}) {
    fill(this.centreLayer, centre(C, top, stock === null ? null : label));
  }
}

function baseSeatOf(loc) {
  return loc[0] === "b" ? Number(loc.slice(1)) : 0;
}
