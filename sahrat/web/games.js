// The games the client can show, by the name the server gives them: what the
// shared screens (the table, the waiting room, the replay) need of each. A new
// game brings its own modules and adds its entry to GAMES below; nothing else
// on the page names a game. (The lobby lists the games the server offers,
// rules.js; their words are in i18n.js under `game.<name>`.)
//
// An entry has
// - `Table`: the game in play, `new Table(conn)`, with `el`, `update(msg)`,
//   `render()` (after a language switch) and `refused()` (the server said no);
// - `ReplayView`: one replay's frames, `new ReplayView(screen)` then
//   `render(position)` per frame, drawing into `screen.body`; `screen` also
//   tells `viewSeat` (whose side the board is seen from), `nameOf(seat)`,
//   `stepAction` (the action that led to this frame when the replay stepped
//   one on, else null) and `speed` (1 is the normal pace);
// - `seatColour(seat)`: the colour of a seat's chip in the waiting room.

import { h, fill } from "./dom.js";
import { t } from "./i18n.js";
import { cardEl, sortHand } from "./cards.js";
import { JackarooBoard, SEAT_COLOURS } from "./jackaroo-board.js";
import { JackarooTable } from "./jackaroo-table.js";
import { parseMove } from "./jackaroo-moves.js";
import { BuracoTable } from "./buraco-table.js";

// -- Jackaroo ---------------------------------------------------------------------------

/** A Jackaroo replay: the board, every hand, and the winners at the end. */
class JackarooReplayView {
  constructor(screen) {
    this.screen = screen;
    this.board = null;
    this.hands = null;
  }

  render(position) {
    const screen = this.screen;
    const seats = Object.keys(position.marbles).map(Number);
    if (!this.board) {
      this.board = new JackarooBoard(() => {});
      this.board.setSeats(screen.viewSeat, seats);
      this.hands = h("div", { class: "replay-hands" });
      fill(screen.body, h("div", { class: "replay-jk" }, h("div", { class: "board-wrap" }, this.board.el), this.hands));
    }
    // One step forward is shown as the move itself, square by square; a jump just lands.
    let move = null;
    try {
      move = screen.stepAction ? parseMove(screen.stepAction) : null;
    } catch {
      move = null;
    }
    this.board.render(position.marbles, move, 600 / (screen.speed || 1));
    this.board.el.setAttribute("aria-label", t("jk.boardLabel"));
    const discard = position.discard || [];
    this.board.setCentre({ top: discard.length ? discard[discard.length - 1] : null });
    fill(
      this.hands,
      seats.map((seat) => {
        const hand = position.hands[String(seat)];
        return h(
          "div",
          { class: ["replay-hand", position.turn === seat ? "active" : ""], style: { "--seat": SEAT_COLOURS[seat] } },
          h("span", { class: "seat-name", dir: "auto" }, screen.nameOf(seat)),
          h("span", { class: "cards-row" }, Array.isArray(hand) ? hand.map((code) => cardEl(code, { size: "sm" })) : String(hand)),
        );
      }),
      position.winner ? h("p", { class: "notice" }, t("end.winners", { names: position.winner.map((s) => screen.nameOf(s)).join(" · ") })) : null,
    );
  }
}

const jackaroo = {
  Table: JackarooTable,
  ReplayView: JackarooReplayView,
  seatColour: (seat) => SEAT_COLOURS[seat],
};

// -- Buraco -----------------------------------------------------------------------------

/** A side's colour (the seat chips of buraco-table.js use the same two). */
const BURACO_SIDE_COLOURS = ["#e8505b", "#2bb3a3"];

/** A Buraco replay: both sides' melds and points, the stock and the pile, every hand. */
class BuracoReplayView {
  constructor(screen) {
    this.screen = screen;
  }

  render(position) {
    const screen = this.screen;
    const seats = Object.keys(position.hands).map(Number);
    const side = (s) => t("bu.sideN", { n: s + 1 });
    const melds = (s) =>
      h(
        "div",
        { class: "bu-melds" },
        h("h3", { class: "melds-title" }, side(s), " · ", t("bu.points", { n: position.totals[s] })),
        position.melds[s].length
          ? h(
              "div",
              { class: "meld-row" },
              position.melds[s].map((meld) =>
                h(
                  "div",
                  { class: ["meld", meld.cards.length >= 7 ? (meld.clean ? "canasta-clean" : "canasta-dirty") : ""] },
                  h("span", { class: "meld-cards" }, meld.cards.map((code) => cardEl(code, { size: "sm" }))),
                ),
              ),
            )
          : h("p", { class: "hint" }, t("bu.noMelds")),
      );
    fill(
      screen.body,
      h(
        "div",
        { class: "replay-bu" },
        melds(0),
        melds(1),
        h(
          "div",
          { class: "bu-centre" },
          h("span", { class: "pile-label" }, t("bu.stock", { n: position.stock_size })),
          h("span", { class: "spread" }, position.discard_pile.map((code) => cardEl(code, { size: "sm" }))),
        ),
        h(
          "div",
          { class: "replay-hands" },
          seats.map((seat) =>
            h(
              "div",
              { class: ["replay-hand", position.to_move === seat ? "active" : ""] },
              h("span", { class: "seat-name", dir: "auto" }, screen.nameOf(seat)),
              h("span", { class: "cards-row" }, sortHand(position.hands[String(seat)]).map((code) => cardEl(code, { size: "sm" }))),
            ),
          ),
        ),
      ),
    );
  }
}

const buraco = {
  Table: BuracoTable,
  ReplayView: BuracoReplayView,
  seatColour: (seat) => BURACO_SIDE_COLOURS[seat & 1],
};

// -- the registry: one line per game ------------------------------------------------------

const GAMES = new Map([
  ["jackaroo", jackaroo],
  ["buraco", buraco],
]);

/** What the client needs of the game named `name` (as the server names it). */
export function gameParts(name) {
  const parts = GAMES.get(name);
  if (!parts) throw new Error(`unknown game ${name}`);
  return parts;
}
