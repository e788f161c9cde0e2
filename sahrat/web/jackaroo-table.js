// A Jackaroo table in play: the board, the seats around it, the hand, and
// the choice of a move by taps (card → marble → square; a swap is
// marble → marble; a split 7 is marble → square → second marble).
//
// The board takes all the room the screen leaves once the hand and its
// buttons are placed (fit()): on a phone the width, on a desktop the height,
// the hand and the action bar never below the fold. Before a move is played
// its target squares say what it will do; after, it walks on the board.

import { h, s, fill } from "./dom.js";
import { t } from "./i18n.js";
import { cardEl } from "./cards.js";
import { JackarooBoard, SEAT_COLOURS } from "./jackaroo-board.js";
import { MoveChooser, parseMove } from "./jackaroo-moves.js";
import { seatChip } from "./seats.js";
import { context, targetPreviews, previewWords, moveInWords, whyNot, lineWords } from "./jackaroo-hints.js";
import { Pace, flyCard } from "./motion.js";
import { isolated } from "./bidi.js";

const WIDE = window.matchMedia("(min-width: 900px) and (min-aspect-ratio: 1/1)");

export class JackarooTable {
  constructor(conn) {
    this.conn = conn;
    this.msg = null;
    this.chooser = new MoveChooser([]);
    this.pending = false; // a move was sent; wait for the table to answer
    this.seatsKey = "";
    this.why = null; // why a greyed card cannot be played, after a tap on it
    this.pace = new Pace();
    this.board = new JackarooBoard((loc) => this.clickBoard(loc), () => this.render());
    this.chips = h("div", { class: "seat-chips" });
    this.boardWrap = h("div", { class: "board-wrap" }, this.board.el, this.chips);
    this.turnLine = h("div", { class: "turn-line", "aria-live": "polite" });
    this.hand = h("div", { class: "hand jk-hand", role: "group" });
    this.actions = h("div", { class: "move-actions" });
    this.handArea = h("div", { class: "hand-area" }, this.turnLine, this.hand, this.actions);
    this.moveList = h("details", { class: "move-list" });
    this.el = h("section", { class: "jk-table" }, this.boardWrap, this.handArea, this.moveList);
    this.clockAnchor = this.handArea;
    this.onResize = () => (this.el.isConnected ? this.fit() : window.removeEventListener("resize", this.onResize));
    window.addEventListener("resize", this.onResize);
    if (window.ResizeObserver) new ResizeObserver(() => this.fit()).observe(this.handArea);
  }

  get myTurn() {
    const msg = this.msg;
    return !!msg && msg.table.status === "playing" && msg.to_move === msg.you && Array.isArray(msg.legal);
  }

  /** The board's side: what the screen leaves beside (wide) or under (narrow) the hand. */
  fit() {
    if (!this.el.isConnected) return;
    const top = this.el.getBoundingClientRect().top + window.scrollY;
    const room = window.innerHeight - top - 8;
    const width = this.el.clientWidth;
    const wrap = getComputedStyle(this.boardWrap);
    const strips = parseFloat(wrap.paddingTop) + parseFloat(wrap.paddingBottom);
    const size = WIDE.matches
      ? Math.min(room, width - this.handArea.offsetWidth - 16)
      : Math.min(width, room - this.handArea.offsetHeight - strips - 6);
    this.el.style.setProperty("--board", `${Math.max(200, Math.floor(size))}px`);
  }

  update(msg) {
    const previous = this.msg;
    this.msg = msg;
    const seats = msg.seats.map((seat) => seat.seat);
    // A spectator has no seat: the board is seen from the first seat's side, and the
    // hand and the action bar leave the page (nothing of a hand is ever drawn).
    this.spectator = !!msg.spectator;
    if (this.spectator && this.hand.isConnected !== false && this.hand.parentNode) {
      this.hand.remove();
      this.actions.remove();
    }
    const viewpoint = this.spectator ? seats[0] : msg.you;
    const key = `${viewpoint}:${seats.join(",")}`;
    if (key !== this.seatsKey) {
      this.seatsKey = key;
      this.board.setSeats(viewpoint, seats);
    }
    // A new position (or a new legal list) starts the choice afresh; a mere
    // change of someone's connection keeps what the player had selected.
    const legalKey = JSON.stringify(msg.legal || []);
    if (!previous || previous.moves !== msg.moves || this.legalKey !== legalKey) {
      this.legalKey = legalKey;
      this.chooser = new MoveChooser(this.myTurn ? msg.legal : []);
      this.pending = false;
      this.why = null;
    }
    const last = msg.last || [];
    this.pace.observe(last.map((entry) => entry.at));
    // One new move since the last message: it is shown moving; anything else just lands.
    const entry = previous && msg.moves === previous.moves + 1 && last.length ? last[last.length - 1] : null;
    let move = null;
    try {
      move = entry ? parseMove(entry.action) : null;
    } catch {
      move = null;
    }
    if (move && move.card) this.flyCard(entry.seat, move.card);
    const captured = this.board.render(msg.view.marbles, move, this.pace.ms);
    if (captured.length) {
      this.boardWrap.classList.remove("flash");
      void this.boardWrap.offsetWidth; // restart the animation
      this.boardWrap.classList.add("flash");
      clearTimeout(this.flashTimer);
      this.flashTimer = setTimeout(() => this.boardWrap.classList.remove("flash"), 800);
    }
    this.render();
  }

  /** Fit after the frame's layout: the header above may have changed as well as the hand. */
  scheduleFit() {
    if (this.fitting) return;
    this.fitting = true;
    requestAnimationFrame(() => {
      this.fitting = false;
      this.fit();
    });
  }

  /** The card just played flies from where it was (our hand, or the player's seat) to the pile. */
  flyCard(seat, code) {
    const fromHand = seat === this.msg.you ? this.hand.querySelector(`.card[data-code="${code}"]`) : null;
    const chip = this.chips.querySelector(`.seat-chip[data-seat="${seat}"]`);
    const to = this.board.pileRect();
    let from = fromHand ? fromHand.getBoundingClientRect() : null;
    if (!from && chip) {
      // From another seat: a card the pile's size, leaving the middle of the seat's label.
      const box = chip.getBoundingClientRect();
      from = new DOMRect(box.left + box.width / 2 - to.width / 2, box.top + box.height / 2 - to.height / 2, to.width, to.height);
    }
    if (from) flyCard(cardEl(code, { size: "lg" }), from, to, { duration: Math.min(450, this.pace.ms) });
  }

  /** Send the error's refusal back to the chooser: the player may choose again. */
  refused() {
    this.pending = false;
    this.chooser.reset();
    this.render();
  }

  clickBoard(loc) {
    if (!this.myTurn || this.pending) return;
    const move = this.chooser.click(loc === null ? "" : loc);
    this.board.armed = null;
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
    const ctx = context(msg);
    const mine = this.myTurn && !this.pending;
    this.el.dataset.moves = String(msg.moves); // for tests and styles
    this.el.dataset.myTurn = mine ? "1" : "0";
    this.renderChips(ctx);
    const view = msg.view;
    const discard = view.discard || [];
    this.board.setCentre({
      top: discard.length ? discard[discard.length - 1] : null,
      stock: view.stock ?? null,
      label: view.stock !== undefined ? t("jk.stock", { n: view.stock }) : "",
    });
    const chooser = this.chooser;
    const options = mine ? chooser.options() : { movable: new Set(), targets: new Set() };
    const previews = mine ? targetPreviews(chooser, ctx) : new Map();
    this.board.highlight({
      movable: options.movable,
      targets: options.targets,
      selected: chooser.from2 ?? chooser.from,
      ghost: chooser.part1 ? chooser.part1.to : null,
      previews,
    });
    // Each target's effect in words: a tooltip on hover (the board itself is one image to
    // screen readers, which hear the same words in the line above the hand).
    for (const el of this.board.targetsLayer.querySelectorAll(".target")) {
      el.prepend(s("title", {}, previewWords(previews.get(el.dataset.loc) || {}, ctx) || t("jk.pv.plain")));
    }
    this.board.el.setAttribute("aria-label", t("jk.boardLabel"));
    this.boardWrap.classList.toggle("choosing", mine && !!chooser.card);
    this.renderHand(ctx, mine);
    this.renderLine(ctx, mine, previews);
    this.renderActions(ctx, mine);
    this.renderMoveList(ctx, mine);
    this.scheduleFit();
  }

  renderChips(ctx) {
    const msg = this.msg;
    const playing = msg.table.status === "playing";
    fill(
      this.chips,
      msg.seats.map((seat) => {
        const corner = this.board.corner(seat.seat);
        const hand = msg.view.hands[String(seat.seat)];
        const chip = seatChip(seat, {
          you: seat.seat === msg.you,
          partner: !this.spectator && seat.seat === ctx.partner,
          active: playing && msg.to_move === seat.seat,
          deadline: msg.deadline,
          total: msg.table.turn_seconds,
          dealer: msg.view.dealer === seat.seat,
          colour: SEAT_COLOURS[seat.seat],
          cards: Array.isArray(hand) ? hand.length : hand,
        });
        chip.classList.add(corner.bottom ? "bottom" : "top", corner.right ? "right" : "left");
        return chip;
      }),
    );
  }

  /** The hand: playable cards stand out; a greyed one says why when tapped. */
  renderHand(ctx, mine) {
    const chooser = this.chooser;
    const playable = mine ? chooser.playableCards() : new Set();
    const view = this.msg.view;
    const cards = Array.isArray(view.hands[String(this.msg.you)]) ? view.hands[String(this.msg.you)] : [];
    this.hand.setAttribute("aria-label", t("jk.hand"));
    fill(
      this.hand,
      cards.length
        ? cards.map((code) => {
            const can = playable.has(code);
            const el = cardEl(code, {
              size: "lg",
              selected: chooser.card === code,
              playable: can,
              extra: can ? "" : "dim",
              onClick: (c) => {
                if (!can) {
                  this.why = whyNot(c, chooser, ctx, mine);
                } else {
                  this.why = null;
                  chooser.selectCard(c);
                  this.autoPick();
                }
                this.render();
              },
            });
            if (!can) el.setAttribute("aria-disabled", "true");
            if (can) el.dataset.use = chooser.cardUse(code);
            return el;
          })
        : h("span", { class: "hint" }, t("jk.noCards")),
    );
  }

  /** The line above the hand: whose turn, what to tap next, and what a target will do. */
  renderLine(ctx, mine, previews) {
    const state = { msg: this.msg, chooser: this.chooser, ctx, mine, previews };
    const { line, extra } = lineWords({ ...state, pending: this.pending, why: this.why, armed: this.board.armed });
    fill(
      this.turnLine,
      h("span", { class: ["turn-text", mine ? "mine" : "", this.why ? "why" : ""] }, isolated(line)),
      extra ? h("span", { class: "preview-text" }, isolated(extra)) : null,
    );
  }

  /** Buttons for moves that need no marble: burns and discards. */
  renderActions(ctx, mine) {
    const chooser = this.chooser;
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
          isolated(move.kind === "burn" ? t("jk.burnFrom", { name: ctx.names[ctx.next] }) : moveInWords(move, ctx)),
        ),
      ),
      mine && chooser.card
        ? h("button", { type: "button", class: "btn ghost", dataset: { action: "cancel" }, on: { click: () => { chooser.reset(); this.render(); } } }, t("jk.cancel"))
        : null,
    );
  }

  /** Every move of the selected card as a list, in words: for keyboards and screen readers. */
  renderMoveList(ctx, mine) {
    const chooser = this.chooser;
    const listed = mine && chooser.card ? chooser.cardMoves() : [];
    this.moveList.hidden = !listed.length;
    fill(
      this.moveList,
      h("summary", {}, t("jk.allMoves", { n: listed.length })),
      h(
        "div",
        { class: "move-buttons" },
        listed.map((move) =>
          h("button", { type: "button", class: "btn small", dataset: { move: move.text }, on: { click: () => this.play(move.text) } }, isolated(moveInWords(move, ctx))),
        ),
      ),
    );
  }

  /** With one obvious way on, skip a tap: a card whose moves all start from one marble. */
  autoPick() {
    const chooser = this.chooser;
    if (!chooser.card) return;
    const { movable } = chooser.options();
    if (movable.size === 1) chooser.from = [...movable][0];
  }
}

