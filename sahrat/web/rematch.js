// "Play again" on the end card: the same seats, a new game once everyone
// still at the table accepts (bots accept at once at a free table). The
// server's `rematch` messages say who accepted and who is still asked; once
// the new table is open its `table` message takes the screen by itself.

import { h, fill } from "./dom.js";
import { t, lang } from "./i18n.js";

export class RematchBox {
  constructor(conn) {
    this.conn = conn;
    this.msg = null;
    this.status = null; // the latest `rematch` message for this table
    this.el = h("div", { class: "rematch", dataset: { rematch: "none" } });
  }

  update(msg) {
    this.msg = msg;
    this.render();
  }

  onStatus(status) {
    this.status = status;
    this.render();
  }

  names(seats) {
    const names = this.msg.seats.filter((seat) => seats.includes(seat.seat)).map((seat) => seat.name);
    return names.join(lang() === "ar" ? "، " : ", ");
  }

  render() {
    const msg = this.msg;
    if (!msg) return;
    const status = this.status;
    const accepted = status ? status.accepted : [];
    const waiting = status ? status.waiting : [];
    const mine = accepted.includes(msg.you);
    let state = mine ? "accepted" : "offered";
    if (status && status.next) state = "starting";
    this.el.dataset.rematch = state;
    const others = accepted.filter((seat) => seat !== msg.you);
    fill(
      this.el,
      state === "starting"
        ? h("p", { class: "rematch-status" }, t("rematch.starting"))
        : h(
            "button",
            {
              type: "button",
              class: ["btn", mine ? "ghost" : "primary"],
              dataset: { action: mine ? "rematch-withdraw" : "rematch" },
              on: { click: () => this.conn.send("rematch", { accept: !mine }) },
            },
            t(mine ? "rematch.withdraw" : "rematch.play"),
          ),
      state === "accepted" ? h("span", { class: "rematch-status mine" }, t("rematch.accepted")) : null,
      state !== "starting" && others.length
        ? h("span", { class: "rematch-status others" }, t("rematch.others", { names: this.names(others) }))
        : null,
      state === "accepted" && waiting.length
        ? h("span", { class: "rematch-status waiting" }, t("rematch.waiting", { names: this.names(waiting) }))
        : null,
    );
  }
}
