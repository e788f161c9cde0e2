// The parts of the Buraco table that are drawn from the view alone: where
// each seat sits around the centre, a meld with its points and canasta
// state, this hand's running points, and the end-of-hand summary card.
// Points follow buraco.md §1 and §8 (the server's scoring.py).

import { h, fill } from "./dom.js";
import { t } from "./i18n.js";
import { cardEl } from "./cards.js";

const CANASTA = 7;
const CLEAN_CANASTA = 200;
const DIRTY_CANASTA = 100;
const GOING_OUT = 100;
// A meld this long is drawn with its cards overlapping more (it would not fit a phone).
const LONG_MELD = 6;
// How long the end-of-hand card waits for the player before it goes by itself.
export const SUMMARY_MS = 9000;

/** A card's points: joker 50, ace 15, 2 and 8–K 10, 3–7 5. */
export function cardPoints(code) {
  if (code === "JK") return 50;
  const rank = code[0];
  if (rank === "A") return 15;
  if (rank === "2" || "89TJQK".includes(rank)) return 10;
  return 5;
}

export function meldPoints(meld) {
  return meld.cards.reduce((sum, code) => sum + cardPoints(code), 0);
}

/** "clean", "dirty" or null. */
export function canastaOf(meld) {
  if (meld.cards.length < CANASTA) return null;
  return meld.clean ? "clean" : "dirty";
}

/** This hand's points so far for one side's melds: the cards laid down and the canastas. */
export function runningPoints(melds) {
  let total = 0;
  for (const meld of melds) {
    total += meldPoints(meld);
    const canasta = canastaOf(meld);
    if (canasta) total += canasta === "clean" ? CLEAN_CANASTA : DIRTY_CANASTA;
  }
  return total;
}

/** A score, isolated left-to-right so "-10" does not turn into "10-" in Arabic. */
export function number(value, signed = false) {
  let text = value < 0 ? `\u2212${-value}` : String(value);
  if (signed && value > 0) text = `+${text}`;
  return h("bdi", { dir: "ltr" }, text);
}

/** Seat numbers around the table as seen from `you`: {top, start, end} (null where none). */
export function seatsAround(you, count) {
  if (count === 2) return { top: 1 - you, start: null, end: null };
  return { top: (you + 2) % 4, start: (you + 1) % 4, end: (you + 3) % 4 };
}

/** One meld: its cards (long ones overlap more), its points, and its canasta state. */
export function meldBody(meld) {
  const canasta = canastaOf(meld);
  return [
    h("span", { class: "meld-cards" }, meld.cards.map((code) => cardEl(code, { size: "sm" }))),
    h(
      "span",
      { class: "meld-info" },
      h("span", { class: "meld-points", dataset: { points: String(meldPoints(meld)) } }, t("bu.meldPoints", { n: meldPoints(meld) })),
      canasta
        ? h("span", { class: ["canasta", canasta] }, t("bu.canasta." + canasta))
        : h("span", { class: "meld-progress" }, t("bu.toCanasta", { n: meld.cards.length })),
    ),
  ];
}

export function meldClasses(meld) {
  const canasta = canastaOf(meld);
  return ["meld", canasta ? `canasta-${canasta}` : "", meld.cards.length >= LONG_MELD ? "long" : ""];
}

/** The rows of the end-of-hand card for `side` and the other: [label, ours, theirs]. */
export function summaryRows(result, side) {
  const rows = [];
  const of = (s) => result.sides[s];
  const going = (s) => (result.went_out === s ? GOING_OUT : 0);
  const canastaPoints = (s) => of(s).canastas_clean * CLEAN_CANASTA + of(s).canastas_dirty * DIRTY_CANASTA;
  // The bonus item holds the canastas, going out and the morto: the morto is what is left.
  const morto = (s) => of(s).bonus - canastaPoints(s) - going(s);
  const sides = [side, 1 - side];
  rows.push(["canastas", sides.map((s) => t("bu.summary.canastaCount", { clean: of(s).canastas_clean, dirty: of(s).canastas_dirty }))]);
  rows.push(["melded", sides.map((s) => number(of(s).melded))]);
  rows.push(["inHand", sides.map((s) => number(-of(s).hand))]);
  rows.push(["bonuses", sides.map((s) => number(canastaPoints(s) + going(s)))]);
  rows.push(["morto", sides.map((s) => (morto(s) < 0 ? number(morto(s)) : t("bu.summary.mortoTaken")))]);
  rows.push(["handTotal", sides.map((s) => number(of(s).total))]);
  rows.push(["matchTotal", sides.map((s) => number(result.totals[s]))]);
  return rows;
}

/** A side as a seat calls it: "Us" or "Them". */
export function usThem(side) {
  return (s) => t(s === side ? "bu.us" : "bu.them");
}

/**
 * A side's name for whoever looks: "Us" / "Them" at a seat; for a spectator, who has no
 * side, the names of the side's players ("Salem & Maryam").
 */
export function sideNamer(msg, side) {
  if (!msg.spectator) return usThem(side);
  const sides = msg.seats.length === 4 ? 2 : msg.seats.length;
  return (s) =>
    msg.seats
      .filter((seat) => seat.seat % sides === s)
      .map((seat) => seat.name)
      .join(t("bu.and"));
}

/**
 * The end-of-hand card: both sides' breakdown; `next()` closes it, in this browser only.
 * `resume` ({ at, now }: when play resumes, as the server's `pause` message says, and the
 * server's clock, both in epoch seconds) adds a countdown to the next hand.
 */
export function summaryCard(el, result, side, next, resume = null, sideName = usThem(side)) {
  const out = result.went_out >= 0 ? t("bu.summary.wentOut", { side: sideName(result.went_out) }) : t("bu.summary.stockOut");
  fill(
    el,
    h(
      "div",
      { class: "bu-summary-inner", role: "dialog", "aria-label": t("bu.summary.title", { n: result.hand }) },
      h("h2", {}, t("bu.summary.title", { n: result.hand })),
      h("p", { class: "hint" }, out),
      h(
        "table",
        { class: "summary-table" },
        h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, sideName(side)), h("th", {}, sideName(1 - side)))),
        h(
          "tbody",
          {},
          summaryRows(result, side).map(([key, cells]) =>
            h("tr", { class: `row-${key}`, dataset: { row: key } }, h("th", {}, t("bu.summary." + key)), cells.map((cell) => h("td", {}, cell))),
          ),
        ),
      ),
      h("p", { class: "bu-summary-resume hint", dataset: { role: "resume" } }),
      h("button", { type: "button", class: "btn primary", dataset: { action: "next-hand" }, on: { click: next } }, t("bu.summary.next")),
    ),
  );
  el.dataset.hand = String(result.hand);
  el.hidden = false;
  summaryCountdown(el, resume);
}

const countdowns = new WeakMap();

/**
 * The summary's countdown to the next hand, told again each second until play resumes;
 * without `resume` (or once it has passed) the line is empty. Called again when the
 * server's `pause` message comes after the card was drawn.
 */
export function summaryCountdown(el, resume) {
  clearInterval(countdowns.get(el));
  const line = el.querySelector("[data-role=resume]");
  if (!line) return;
  const tell = () => {
    const left = resume ? Math.ceil(resume.at - resume.now()) : 0;
    if (left <= 0 || el.hidden) {
      clearInterval(countdowns.get(el));
      line.textContent = resume && !el.hidden ? t("bu.summary.resumed") : "";
      return;
    }
    line.textContent = t("bu.summary.resumesIn", { n: left });
  };
  tell();
  if (resume) countdowns.set(el, setInterval(tell, 250));
}

/** The breakdown of every finished hand, newest first, into `el`. */
export function resultsTables(el, results, side, sideName = usThem(side)) {
  if (!results.length) {
    fill(el);
    return;
  }
  const rows = ["canastas_clean", "canastas_dirty", "melded", "hand", "bonus", "total"];
  fill(
    el,
    h("h3", { class: "panel-title" }, t("bu.results")),
    [...results].reverse().map((result) =>
      h(
        "table",
        { class: "result-table", dataset: { hand: String(result.hand) } },
        h("caption", {}, t("bu.resultHand", { n: result.hand }), result.went_out >= 0 ? ` · ${t("bu.wentOut", { side: sideName(result.went_out) })}` : ""),
        h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, sideName(side)), h("th", {}, sideName(1 - side)))),
        h(
          "tbody",
          {},
          rows.map((key) =>
            h(
              "tr",
              { class: key === "total" ? "total" : "" },
              h("th", {}, t("bu.row." + key)),
              h("td", {}, number(key === "hand" ? -result.sides[side][key] : result.sides[side][key])),
              h("td", {}, number(key === "hand" ? -result.sides[1 - side][key] : result.sides[1 - side][key])),
            ),
          ),
          h("tr", { class: "running" }, h("th", {}, t("bu.row.running")), h("td", {}, number(result.totals[side])), h("td", {}, number(result.totals[1 - side]))),
        ),
      ),
    ),
  );
}
