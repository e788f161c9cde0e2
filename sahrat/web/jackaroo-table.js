// A Jackaroo table in play: the board, the seats around it, the hand, and
// the choice of a move by clicks (card → marble → square; a swap is
// marble → marble; a split 7 is marble → square → second marble).

import { h, fill } from "./dom.js";
import { t } from "./i18n.js";
import { cardEl, cardName } from "./cards.js";
import { JackarooBoard, SEAT_COLOURS } from "./jackaroo-board.js";
import { MoveChooser } from "./jackaroo-moves.js";
import { seatChip } from "./seats.js";

export class JackarooTable {
  constructor(conn) {
    this.conn = conn;
    this.msg = null;
    this.chooser = new MoveChooser([]);
    this.pending = false; // a move was sent; wait for the table to answer
    this.seatsKey = "";
    this.board = new JackarooBoard((loc) => this.clickBoard(loc));
    this.chips = h("div", { class: "seat-chips" });
    this.boardWrap = h("div", { class: "board-wrap" }, this.board.el, this.chips);
    this.turnLine = h("div", { class: "turn-line", "aria-live": "polite" });
    this.hand = h("div", { class: "hand jk-hand", role: "group" });
    this.actions = h("div", { class: "move-actions" });
    this.moveList = h("details", { class: "move-list" });
    this.el = h(
      "section",
      { class: "jk-table" },
      this.boardWrap,
      h("div", { class: "hand-area" }, this.turnLine, this.hand, this.actions, this.moveList),
    );
  }

  get myTurn() {
    const msg = this.msg;
    return !!msg && msg.table.status === "playing" && msg.to_move === msg.you && Array.isArray(msg.legal);
  }

  update(msg) {
    const previous = this.msg;
    this.msg = msg;
    const seats = msg.seats.map((seat) => seat.seat);
    const key = `${msg.you}:${seats.join(",")}`;
    if (key !== this.seatsKey) {
      this.seatsKey = key;
      this.board.setSeats(msg.you, seats);
    }
    // A new position (or a new legal list) starts the choice afresh; a mere
    // change of someone's connection keeps what the player had selected.
    const legalKey = JSON.stringify(msg.legal || []);
    if (!previous || previous.moves !== msg.moves || this.legalKey !== legalKey) {
      this.legalKey = legalKey;
      this.chooser = new MoveChooser(this.myTurn ? msg.legal : []);
      this.pending = false;
    }
    const view = msg.view;
    const captured = this.board.render(view.marbles);
    if (captured.length) {
      this.boardWrap.classList.remove("flash");
      void this.boardWrap.offsetWidth; // restart the animation
      this.boardWrap.classList.add("flash");
      clearTimeout(this.flashTimer);
      this.flashTimer = setTimeout(() => this.boardWrap.classList.remove("flash"), 800);
    }
    this.render();
  }

  /** Send the error's refusal back to the chooser: the player may choose again. */
  refused() {
    this.pending = false;
    this.chooser.reset();
    this.render();
  }

  clickBoard(loc) {
    if (!this.myTurn || this.pending) return;
    const move = loc === null ? this.chooser.click("") : this.chooser.click(loc);
    if (move) this.play(move);
    else this.render();
  }

  play(text) {
    if (this.conn.send("act", { action: text, moves: this.msg.moves }) === null) return;
    this.pending = true;
    this.render();
  }

  render() {
    const msg = this.msg;
    if (!msg) return;
    const view = msg.view;
    const you = msg.you;
    const partner = msg.seats.length === 4 ? (you + 2) % 4 : null;
    const playing = msg.table.status === "playing";

    // Seats in the board's corners, each near its own quarter.
    fill(
      this.chips,
      msg.seats.map((seat) => {
        const corner = this.board.corner(seat.seat);
        const hand = view.hands[String(seat.seat)];
        const chip = seatChip(seat, {
          you: seat.seat === you,
          partner: seat.seat === partner,
          active: playing && msg.to_move === seat.seat,
          deadline: msg.deadline,
          total: msg.table.turn_seconds,
          dealer: view.dealer === seat.seat,
          colour: SEAT_COLOURS[seat.seat],
          cards: Array.isArray(hand) ? hand.length : hand,
        });
        chip.classList.add(corner.bottom ? "bottom" : "top", corner.right ? "right" : "left");
        return chip;
      }),
    );

    const discard = view.discard || [];
    this.board.setCentre({
      top: discard.length ? discard[discard.length - 1] : null,
      stock: view.stock ?? null,
      label: view.stock !== undefined ? t("jk.stock", { n: view.stock }) : "",
    });

    const chooser = this.chooser;
    const mine = this.myTurn && !this.pending;
    // State for tests and styles: whose turn, how many moves so far.
    this.el.dataset.moves = String(msg.moves);
    this.el.dataset.myTurn = mine ? "1" : "0";
    const options = mine ? chooser.options() : { movable: new Set(), targets: new Set() };
    this.board.highlight({
      movable: options.movable,
      targets: options.targets,
      selected: chooser.from2 ?? chooser.from,
      ghost: chooser.part1 ? chooser.part1.to : null,
    });
    this.board.el.setAttribute("aria-label", t("jk.boardLabel"));
    this.boardWrap.classList.toggle("choosing", mine && !!chooser.card);

    // The hand: playable cards stand out; the others are dimmed on our turn.
    const playable = mine ? chooser.playableCards() : new Set();
    const cards = Array.isArray(view.hands[String(you)]) ? view.hands[String(you)] : [];
    this.hand.setAttribute("aria-label", t("jk.hand"));
    fill(
      this.hand,
      cards.length
        ? cards.map((code) => {
            const el = cardEl(code, {
              size: "lg",
              selected: chooser.card === code,
              playable: playable.has(code),
              disabled: !mine || !playable.has(code),
              extra: mine && !playable.has(code) ? "dim" : "",
              onClick: (c) => {
                chooser.selectCard(c);
                this.autoPick();
                this.render();
              },
            });
            if (playable.has(code)) el.dataset.use = chooser.cardUse(code);
            return el;
          })
        : h("span", { class: "hint" }, t("jk.noCards")),
    );

    // The line above the hand says whose turn it is and what to click next.
    let line;
    if (msg.table.status === "finished") line = t("turn.over");
    else if (this.pending) line = t("turn.sent");
    else if (mine && !chooser.card && ![...playable].some((c) => chooser.cardUse(c) === "board")) line = t("jk.stage.stuck");
    else if (mine) line = t("jk.stage." + chooser.stage());
    else if (msg.to_move !== null && msg.to_move !== undefined) {
      const seat = msg.seats.find((x) => x.seat === msg.to_move);
      line = t("turn.other", { name: seat ? seat.name : "?" });
    } else line = t("turn.dealing");
    fill(this.turnLine, h("span", { class: ["turn-text", mine ? "mine" : ""] }, line));

    // Buttons for moves that need no marble: burns and discards.
    const buttons = mine ? chooser.buttons() : [];
    fill(
      this.actions,
      buttons.map((move) =>
        h(
          "button",
          {
            type: "button",
            class: ["btn", move.kind === "burn" ? "primary" : "warn"],
            dataset: { move: move.text, kind: move.kind },
            on: { click: () => this.play(move.text) },
          },
          move.kind === "burn"
            ? t("jk.burnNext")
            : move.kind === "discard-all"
              ? t("jk.discardAll")
              : t("jk.discard", { card: cardName(move.card) }),
        ),
      ),
      mine && chooser.card
        ? h("button", { type: "button", class: "btn ghost", on: { click: () => { chooser.reset(); this.render(); } } }, t("jk.cancel"))
        : null,
    );

    // Every move of the selected card as a list: for keyboards and screen readers.
    const listed = mine && chooser.card ? chooser.cardMoves() : [];
    this.moveList.hidden = !listed.length;
    fill(
      this.moveList,
      h("summary", {}, t("jk.allMoves", { n: listed.length })),
      h(
        "div",
        { class: "move-buttons" },
        listed.map((move) =>
          h("button", { type: "button", class: "btn small", dir: "ltr", on: { click: () => this.play(move.text) } }, move.text),
        ),
      ),
    );
  }

  /** With one obvious way on, skip a click: a card whose moves all start from one marble. */
  autoPick() {
    const chooser = this.chooser;
    if (!chooser.card) return;
    const { movable } = chooser.options();
    if (movable.size === 1) chooser.from = [...movable][0];
  }
}
