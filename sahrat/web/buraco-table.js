// A Buraco table in play, laid out as a table: the other seats around a
// compact centre (stock, spread discard pile, mortos), the other side's
// melds at the top, ours above the hand, and the hand in a dock at the
// bottom (fixed on a phone, scrolling sideways); the score with this hand's
// running points; a summary card at the end of each hand (buraco-layout.js).
//
// The server lists only some legal actions (three-card melds, one-card
// additions, discards), but accepts any legal action's text: the player
// may select any cards and lay them down or add them; the server's error
// says why when the engine refuses.

import { h, fill, toast } from "./dom.js";
import { t } from "./i18n.js";
import { backEl, cardEl, cardText, sortHand } from "./cards.js";
import { seatChip } from "./seats.js";
import {
  SUMMARY_MS,
  meldBody,
  meldClasses,
  number,
  resultsTables,
  runningPoints,
  seatsAround,
  summaryCard,
  summaryCountdown,
  sideNamer,
} from "./buraco-layout.js";

const SIDE_COLOURS = ["#e8505b", "#2bb3a3"];

/** "meld 5C 6C 7C", "add 2 7C", "take meld QS QH", "take add 1 8C": the meld index and the hand's cards. */
function suggestionParts(action) {
  let words = action.split(" ");
  if (words[0] === "take") words = words.slice(1);
  if (words[0] === "add") return { meld: Number(words[1]), cards: words.slice(2) };
  return { meld: null, cards: words.slice(1) };
}

/** `codes` less one copy of each card in `removed` (cards as multisets). */
function without(codes, removed) {
  const rest = [...codes];
  for (const code of removed) {
    const at = rest.indexOf(code);
    if (at >= 0) rest.splice(at, 1);
  }
  return rest;
}

export class BuracoTable {
  constructor(conn) {
    this.conn = conn;
    this.resume = null;
    this.msg = null;
    // Selected cards as positions in the sorted hand, in the order clicked:
    // with two decks a hand may hold two identical cards, each its own choice.
    this.picked = [];
    this.sorted = [];
    this.pending = false;
    // The seats around the centre (each place holds one seat chip, or none).
    this.places = {
      top: h("div", { class: "bu-seat bu-others top" }),
      start: h("div", { class: "bu-seat bu-others start" }),
      end: h("div", { class: "bu-seat bu-others end" }),
      me: h("div", { class: "bu-seat me" }),
    };
    this.score = h("div", { class: "bu-score" });
    this.theirMelds = h("div", { class: "bu-melds them" });
    this.centre = h("div", { class: "bu-centre" });
    this.ourMelds = h("div", { class: "bu-melds us" });
    this.turnLine = h("div", { class: "turn-line", "aria-live": "polite" });
    // The hand scrolls sideways: focusable, so a keyboard can scroll it between turns too.
    this.hand = h("div", { class: "hand bu-hand", role: "group", tabindex: "0" });
    this.actions = h("div", { class: "move-actions bu-actions" });
    this.suggestions = h("div", { class: "bu-suggestions" });
    this.results = h("div", { class: "bu-results" });
    this.summary = h("div", { class: "bu-summary", hidden: true });
    this.dock = h(
      "div",
      { class: "hand-area bu-dock" },
      h("div", { class: "bu-dock-line" }, this.places.me, this.turnLine),
      this.suggestions,
      this.actions,
      this.hand,
    );
    this.el = h(
      "section",
      { class: "bu-table" },
      this.score,
      this.places.top,
      this.theirMelds,
      h("div", { class: "bu-middle" }, this.places.start, this.centre, this.places.end),
      this.ourMelds,
      this.dock,
      this.results,
      this.summary,
    );
    // Hands already scored when we came (a reload) are not announced again.
    this.seenResults = null;
    this.summaryTimer = null;
    // The page keeps room below the table for the fixed dock (phones).
    if (typeof ResizeObserver === "function") {
      new ResizeObserver(() => {
        const screen = this.el.closest(".table-screen") || this.el;
        screen.style.setProperty("--dock-h", `${this.dock.offsetHeight}px`);
      }).observe(this.dock);
    }
  }

  get myTurn() {
    const msg = this.msg;
    return !!msg && msg.table.status === "playing" && msg.to_move === msg.you && Array.isArray(msg.legal);
  }

  get side() {
    return this.msg.you & 1;
  }

  update(msg) {
    const previous = this.msg;
    this.msg = msg;
    // A spectator has no seat: seen from the first seat's side, with no hand, no
    // suggestions and no action bar on the page at all.
    if (msg.spectator && this.hand.parentNode) {
      this.hand.remove();
      this.actions.remove();
      this.suggestions.remove();
    }
    const codes = this.selected;
    const before = this.sorted;
    this.sorted = sortHand(msg.view.hand);
    if (!previous || previous.moves !== msg.moves) {
      this.pending = false;
      // Keep the selected cards that are still in the hand (a draw keeps them all, a
      // meld took some). A card that left the hand is dropped by count, not by code:
      // with two decks its twin may stay behind, and must not become selected.
      const left = without(before, this.sorted);
      this.picked = this.myTurn ? this.positions(without(codes, left), true) : [];
    }
    this.render();
    const count = msg.view.results.length;
    if (this.seenResults === null) this.seenResults = count;
    else if (count > this.seenResults) {
      this.seenResults = count;
      // The match's last hand is told by the end card instead.
      if (msg.table.status === "playing") this.showSummary(msg.view.results[count - 1]);
    }
  }

  /** The server holds the next hand until `resumes_at`: the summary counts down to it. */
  onPause(m) {
    this.resume = { at: m.resumes_at, now: () => this.conn.serverNow() };
    if (!this.summary.hidden) {
      summaryCountdown(this.summary, this.resume);
      this.closeSummaryAtResume();
    }
  }

  /** The summary closes by itself when play resumes (or after a while, with no pause). */
  closeSummaryAtResume() {
    clearTimeout(this.summaryTimer);
    const resume = this.resume;
    const left = resume ? (resume.at - resume.now()) * 1000 : 0;
    this.summaryTimer = setTimeout(() => this.hideSummary(), left > 0 ? left + 1000 : SUMMARY_MS);
  }

  /** The end-of-hand card: it waits for the player, or until the next hand begins. */
  showSummary(result) {
    const resume = this.resume && this.resume.at > this.resume.now() ? this.resume : null;
    summaryCard(this.summary, result, this.side, () => this.hideSummary(), resume, this.sideName);
    this.closeSummaryAtResume();
    const next = this.summary.querySelector("[data-action=next-hand]");
    if (next) next.focus({ preventScroll: true });
  }

  hideSummary() {
    clearTimeout(this.summaryTimer);
    this.summary.hidden = true;
  }

  refused() {
    this.pending = false;
    this.render();
  }

  send(text) {
    if (this.conn.send("act", { action: text, moves: this.msg.moves }) === null) return;
    this.pending = true;
    this.render();
  }

  legal() {
    return this.myTurn && !this.pending ? this.msg.legal : [];
  }

  phase() {
    const legal = this.legal();
    if (legal.some((a) => a === "draw" || a.startsWith("take"))) return "draw";
    if (legal.length) return "play";
    return "wait";
  }

  /** A seat's label in its place: its badges, its clock, the cards it holds. */
  seatChipOf(seat, view, playing) {
    const msg = this.msg;
    const you = msg.you;
    return seatChip(seat, {
      you: seat.seat === you,
      partner: !msg.spectator && msg.seats.length === 4 && seat.seat === (you + 2) % 4,
      active: playing && msg.to_move === seat.seat,
      deadline: msg.deadline,
      total: msg.table.turn_seconds,
      dealer: view.dealer === seat.seat,
      colour: SIDE_COLOURS[seat.seat & 1],
      cards: view.hand_sizes[seat.seat],
    });
  }

  /** The selected cards' codes, in the order they were clicked. */
  get selected() {
    return this.picked.map((i) => this.sorted[i]);
  }

  /** Positions in the sorted hand of `codes` (each position used once); unknown codes dropped. */
  positions(codes, dropMissing) {
    const used = new Set();
    const out = [];
    for (const code of codes) {
      const i = this.sorted.findIndex((c, k) => c === code && !used.has(k));
      if (i < 0) {
        if (!dropMissing) return [];
        continue;
      }
      used.add(i);
      out.push(i);
    }
    return out;
  }

  toggle(index) {
    this.suggestedMeld = null;
    const at = this.picked.indexOf(index);
    if (at >= 0) this.picked.splice(at, 1);
    else this.picked.push(index);
    this.render();
  }

  render() {
    const msg = this.msg;
    if (!msg) return;
    const view = msg.view;
    const you = msg.spectator ? msg.seats[0].seat : msg.you;
    const side = this.side;
    const playing = msg.table.status === "playing";
    const phase = this.phase();
    const closed = !!view.options.closed;
    const legal = this.legal();
    this.el.dataset.moves = String(msg.moves);
    this.el.dataset.phase = this.pending ? "sent" : phase;

    // Every seat in its place around the centre, with the number of cards it holds.
    const around = { ...seatsAround(you, msg.seats.length), me: you };
    for (const [place, seatNumber] of Object.entries(around)) {
      const seat = msg.seats.find((s) => s.seat === seatNumber);
      fill(this.places[place], seat ? this.seatChipOf(seat, view, playing) : null);
      this.places[place].hidden = !seat;
    }

    const sideName = sideNamer(msg, side);
    this.sideName = sideName;
    fill(
      this.score,
      h("span", { class: "score-title" }, t("bu.score", { n: view.options.target })),
      [side, 1 - side].map((s) =>
        h(
          "span",
          { class: ["score-item", s === side ? "us" : "them"], dataset: { side: String(s) } },
          h("span", {}, sideName(s)),
          h("strong", {}, number(view.totals[s])),
          // This hand so far: what the side has laid down, and its canastas.
          h(
            "span",
            { class: "running", title: t("bu.thisHandLong"), dataset: { running: String(runningPoints(view.melds[s])) } },
            t("bu.thisHand", { n: "" }),
            number(runningPoints(view.melds[s]), true),
          ),
        ),
      ),
      h("span", { class: "hand-number" }, t("bu.handNumber", { n: view.hand_number })),
    );

    const meldsTitle = (s, own) => (msg.spectator ? t("bu.sideMelds", { side: sideName(s) }) : t(own ? "bu.ourMelds" : "bu.theirMelds"));
    fill(this.theirMelds, h("h3", { class: "melds-title" }, meldsTitle(1 - side, false)), this.meldsEl(view.melds[1 - side], 1 - side, false));
    const canAdd = phase === "play" && this.selected.length > 0;
    const canTakeAdd = phase === "draw" && closed;
    fill(this.ourMelds, h("h3", { class: "melds-title" }, meldsTitle(side, true)), this.meldsEl(view.melds[side], side, canAdd || canTakeAdd));

    // The centre: stock, discard pile spread out, mortos.
    const canDraw = legal.includes("draw");
    const canTake = legal.includes("take") || (closed && phase === "draw" && view.discard_pile.length > 0);
    const stock = h(
      "button",
      {
        type: "button",
        class: ["pile-button", "stock", canDraw ? "live" : ""],
        disabled: !canDraw,
        dataset: { action: "draw" },
        "aria-label": t("bu.draw"),
        on: { click: () => this.send("draw") },
      },
      backEl("md"),
      h("span", { class: "pile-label" }, t("bu.stock", { n: view.stock_size })),
      canDraw ? h("span", { class: "pile-cta" }, t("bu.draw")) : null,
    );
    const pile = h(
      "button",
      {
        type: "button",
        class: ["pile-button", "discard", canTake ? "live" : ""],
        disabled: !canTake,
        dataset: { action: "take" },
        "aria-label": t("bu.take"),
        on: { click: () => this.takePile() },
      },
      h(
        "span",
        { class: "spread" },
        view.discard_pile.length ? view.discard_pile.map((code) => cardEl(code, { size: "sm" })) : h("span", { class: "hint" }, t("bu.emptyPile")),
      ),
      h("span", { class: "pile-label" }, t("bu.pile", { n: view.discard_pile.length })),
      canTake ? h("span", { class: "pile-cta" }, t(closed ? "bu.takeClosed" : "bu.take")) : null,
    );
    const mortos = h(
      "div",
      { class: "mortos" },
      [0, 1].map((s) =>
        h(
          "div",
          { class: ["morto", view.morto_status[s]], dataset: { side: String(s) } },
          view.morto_sizes[s] ? backEl("sm") : null,
          h("span", {}, t("bu.morto", { side: sideName(s) })),
          h("small", {}, t("bu.morto." + view.morto_status[s], { n: view.morto_sizes[s] })),
        ),
      ),
    );
    fill(this.centre, stock, pile, mortos);

    // The hand, sorted by suit then rank.
    const selectable = phase === "play" || (phase === "draw" && closed);
    this.hand.setAttribute("aria-label", t("bu.hand"));
    fill(
      this.hand,
      this.sorted.map((code, index) =>
        cardEl(code, {
          size: "md",
          selected: this.picked.includes(index),
          disabled: !selectable,
          onClick: () => this.toggle(index),
        }),
      ),
    );

    let line;
    if (msg.table.status === "finished") line = t("turn.over");
    else if (this.pending) line = t("turn.sent");
    else if (phase === "draw") line = t(closed ? "bu.stage.drawClosed" : "bu.stage.draw");
    else if (phase === "play") line = t("bu.stage.play");
    else {
      const seat = msg.seats.find((x) => x.seat === msg.to_move);
      line = seat ? t("turn.other", { name: seat.name }) : t("turn.dealing");
    }
    fill(this.turnLine, h("span", { class: ["turn-text", phase !== "wait" ? "mine" : ""] }, line));

    // Suggestions: the melds and additions the server listed (with closed Buraco,
    // also the ways to take the pile); one click selects their cards.
    const listed = legal.filter((a) =>
      phase === "play" ? /^(meld|add) /.test(a) : phase === "draw" && /^take (meld|add) /.test(a),
    );
    fill(
      this.suggestions,
      listed.length ? h("span", { class: "hint" }, t(phase === "draw" ? "bu.takeSuggestions" : "bu.suggestions")) : null,
      listed.slice(0, 8).map((action) => {
        const { meld, cards } = suggestionParts(action);
        // Taking the pile melds its top card too: show it first.
        const pile = view.discard_pile;
        const top = action.startsWith("take") && pile.length ? `${cardText(pile[pile.length - 1])} + ` : "";
        const text = top + cards.map(cardText).join(" ");
        const label = meld === null ? text : `+${text} → ${meld + 1}`;
        return h(
          "button",
          { type: "button", class: "btn small suggestion", dataset: { suggest: action }, on: { click: () => this.suggest(action) } },
          label,
        );
      }),
    );

    const n = this.selected.length;
    const discardable = n === 1 && legal.includes(`discard ${this.selected[0]}`);
    fill(
      this.actions,
      phase === "play"
        ? [
            h(
              "button",
              { type: "button", class: "btn primary", dataset: { action: "meld" }, disabled: n < 3, on: { click: () => this.send(`meld ${this.selected.join(" ")}`) } },
              t("bu.meld", { n }),
            ),
            h(
              "button",
              { type: "button", class: "btn warn", dataset: { action: "discard" }, disabled: !discardable, on: { click: () => this.send(`discard ${this.selected[0]}`) } },
              t("bu.discard"),
            ),
            n
              ? h("button", { type: "button", class: "btn ghost", on: { click: () => { this.picked = []; this.render(); } } }, t("bu.clear"))
              : null,
            n ? h("span", { class: "hint" }, t("bu.addHint")) : null,
          ]
        : null,
    );

    this.renderResults(view);
  }

  /** One side's melds: each a row of small cards, canastas marked clean or dirty. */
  meldsEl(melds, side, clickable) {
    if (!melds.length) return h("p", { class: "hint" }, t("bu.noMelds"));
    return h(
      "div",
      { class: "meld-row" },
      melds.map((meld, index) => {
        const body = meldBody(meld);
        const suggested = clickable && this.suggestedMeld === index && (this.selected.length > 0 || this.phase() === "draw");
        const props = { class: [...meldClasses(meld), suggested ? "suggested" : ""], dataset: { meld: String(index), side: String(side) } };
        if (!clickable) return h("div", props, body);
        return h(
          "button",
          { ...props, type: "button", class: [...props.class, "addable"], "aria-label": t("bu.addTo", { n: index + 1 }), on: { click: () => this.addTo(index) } },
          body,
        );
      }),
    );
  }

  addTo(index) {
    const cards = this.selected.join(" ");
    if (this.phase() === "draw") this.send(`take add ${index}${cards ? " " + cards : ""}`);
    else if (cards) this.send(`add ${index} ${cards}`);
  }

  takePile() {
    const closed = !!this.msg.view.options.closed;
    // Closed Buraco: the pile's top card must go down at once, with the selected cards.
    if (closed) {
      if (this.selected.length < 2) {
        toast(t("bu.closedNeedCards"));
        return;
      }
      this.send(`take meld ${this.selected.join(" ")}`);
      return;
    }
    this.send("take");
  }

  suggest(action) {
    const { meld, cards } = suggestionParts(action);
    this.picked = this.positions(cards, false);
    // An addition names its meld: that meld lights up, one click adds.
    this.suggestedMeld = meld;
    this.render();
  }

  /** The breakdown of every finished hand (buraco-layout.js). */
  renderResults(view) {
    resultsTables(this.results, view.results, this.side, this.sideName);
  }
}
