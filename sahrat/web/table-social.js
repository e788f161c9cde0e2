// The people around a table: quick reactions on the seats (reactions.js),
// quick phrases also as chat lines, the chat drawer's button (phones), who
// left, and the question before leaving a game that is still on.

import { h, fill, toast } from "./dom.js";
import { t, lang } from "./i18n.js";
import { Reactions, PHRASES, isMuted } from "./reactions.js";

export class TableSocial {
  /** `screen`: the table screen ({conn, msg, el, chat}). */
  constructor(conn, screen) {
    this.conn = conn;
    this.screen = screen;
    this.left = []; // names of the people who left, for a private table's host
    this.reactions = new Reactions(conn, screen, () => screen.chat.relabel());
    screen.chat.isMuted = (seat) => this.seatMuted(seat);
    this.confirm = h("div", { class: "confirm-leave", hidden: true, role: "alertdialog", "aria-modal": "true" });
    this.dock = h("div", { class: "table-dock" }, this.reactions.el, screen.chat.toggle);
    this.el = h("div", { class: "table-social" }, this.dock, this.confirm);
  }

  seatMuted(seatNumber) {
    const msg = this.screen.msg;
    const seat = msg && msg.seats.find((s) => s.seat === seatNumber);
    return !!seat && isMuted(seat.player);
  }

  update(msg) {
    this.el.hidden = !msg;
    // A spectator reacts to nothing (the server would refuse it); the chat button stays.
    this.reactions.el.hidden = !!(msg && msg.spectator);
    if (this.open) this.renderConfirm();
  }

  relabel() {
    this.reactions.render();
    if (this.open) this.renderConfirm();
  }

  /** A `react` message: on the seat, and a phrase in the chat too. */
  onReact(m) {
    if (!this.reactions.show(m)) return;
    if (PHRASES.includes(m.reaction)) {
      const seat = this.screen.msg.seats.find((s) => s.seat === m.seat);
      this.screen.chat.add({ channel: m.channel, seat: m.seat, name: seat ? seat.name : "?", reaction: m.reaction, quick: true, at: Date.now() / 1000 });
    }
  }

  /** A `player_left` message: a word to everyone; the host of a private table keeps the list. */
  onLeft(m) {
    toast(t("left.toast", { name: m.name }));
    this.left.push(m.name);
    const room = this.screen.room;
    room.leftNames = this.left.join(lang() === "ar" ? "، " : ", ");
    if (room.msg && room.el.isConnected) room.render();
  }

  /** Leave at once before the first deal and after the end; in a game, ask first. */
  askLeave(leave) {
    const msg = this.screen.msg;
    const status = msg ? msg.table.status : "waiting";
    if (status !== "playing" && status !== "seeding") {
      leave();
      return;
    }
    this.open = true;
    this.leave = leave;
    this.renderConfirm();
    const stay = this.confirm.querySelector("[data-action=stay]");
    if (stay) stay.focus();
  }

  close() {
    this.open = false;
    this.renderConfirm();
  }

  renderConfirm() {
    this.confirm.hidden = !this.open;
    if (!this.open) return;
    const msg = this.screen.msg;
    const people = msg.seats.filter((seat) => !seat.empty && !seat.bot && !seat.left);
    let why = "leave.bot";
    if (msg.table.stake > 0) why = "leave.coins";
    else if (people.length <= 1) why = "leave.last";
    fill(
      this.confirm,
      h(
        "div",
        { class: "confirm-inner" },
        h("h2", {}, t("leave.title")),
        h("p", {}, t(why)),
        h(
          "div",
          { class: "end-actions" },
          h("button", { type: "button", class: "btn primary", dataset: { action: "stay" }, on: { click: () => this.close() } }, t("leave.no")),
          h(
            "button",
            { type: "button", class: "btn warn", dataset: { action: "confirm-leave" }, on: { click: () => { this.close(); this.leave(); } } },
            t("leave.yes"),
          ),
        ),
      ),
    );
  }
}
