// One table on screen: its header, the waiting room or the game, and the
// side column (last moves in words, chat, the fair-shuffle panel), plus the
// end-of-game card with the result, the replay and the Verify link.

import { h, fill } from "./dom.js";
import { t, lang } from "./i18n.js";
import { Chat } from "./chat.js";
import { Room } from "./room.js";
import { gameParts } from "./games.js";
import { rulesSummary } from "./rules.js";
import { stakeLine } from "./coins.js";
import { coinsSummary } from "./end-coins.js";
import { TableFeel } from "./table-feel.js";
import { withNames } from "./bidi.js";
import { RematchBox } from "./rematch.js";
import { TableSocial } from "./table-social.js";
import { tw, watchStyles } from "./i18n-watch.js";

export function verifyLink(tableId) {
  return `/static/verify.html#record=/api/records/${encodeURIComponent(tableId)}`;
}

/** The Verify link, the same everywhere: a new tab, so the table (or replay) stays. */
export function verifyAnchor(tableId, className, label) {
  return h("a", { class: className, href: verifyLink(tableId), target: "_blank", rel: "noopener", dataset: { action: "verify" } }, label);
}

export class TableScreen {
  /** `app`: {leave(), toLobby(), openReplay(id)}. */
  constructor(conn, app, tableId) {
    this.conn = conn;
    this.app = app;
    this.tableId = tableId;
    this.msg = null;
    this.mySeed = null;
    this.room = new Room(conn, app);
    this.game = null;
    this.chat = new Chat(conn);
    this.feel = new TableFeel();
    this.header = h("header", { class: "table-head" });
    this.main = h("div", { class: "table-play" });
    this.lastMoves = h("section", { class: "panel last-moves" });
    this.fair = h("details", { class: "panel fair" });
    this.endCard = h("div", { class: "end-card", hidden: true, role: "dialog", "aria-modal": "false", "aria-labelledby": "end-card-title" });
    this.side = h("aside", { class: "table-side" }, this.lastMoves, this.chat.el, this.fair);
    this.el = h(
      "main",
      { class: "table-screen", id: "table", dataset: { table: tableId } },
      this.header,
      h("div", { class: "table-body" }, this.main, this.side),
      this.endCard,
    );
    this.endDismissed = false;
    this.rematch = new RematchBox(conn);
    this.social = new TableSocial(conn, this);
    this.el.append(this.social.el);
    // Watching without a seat (set by the first message): no hand, no actions, no reactions.
    this.spectator = false;
    watchStyles();
  }

  /** The chat's lines, and where we may write (a spectator: maybe nowhere). */
  chatHistory(m) {
    this.chat.history(m.messages);
    this.chat.setReadOnly(!!m.spectator && !(m.channels || []).length);
  }

  update(msg) {
    const first = !this.msg;
    this.msg = msg;
    this.spectator = !!msg.spectator;
    this.el.classList.toggle("spectating", this.spectator);
    const table = msg.table;
    this.el.dataset.game = table.game;
    this.el.dataset.status = table.status;
    const inPlay = (table.status === "playing" || table.status === "finished") && msg.view;
    if (inPlay) {
      if (!this.game) {
        const { Table } = gameParts(table.game);
        this.game = new Table(this.conn);
        fill(this.main, this.game.el);
      }
      this.game.update(msg);
    } else {
      this.game = null;
      this.room.update(msg);
      if (this.main.firstChild !== this.room.el) fill(this.main, this.room.el);
    }
    const team = msg.seats.length === 4 && !this.spectator;
    if (first || this.chat.mySeat !== msg.you) this.chat.setTable(msg.you, team);
    this.social.update(msg);
    this.renderHeader();
    this.renderLastMoves();
    this.renderFair();
    this.renderEnd();
    this.feel.update(msg, (this.game && this.game.clockAnchor) || this.el);
  }

  relabel() {
    this.chat.relabel();
    this.social.relabel();
    if (!this.msg) return;
    if (this.game) this.game.render();
    else this.room.render();
    this.renderHeader();
    this.renderLastMoves();
    this.renderFair();
    this.renderEnd();
  }

  /** The server refused our last action: let the game component undo its "sent" state. */
  refused() {
    if (this.game) this.game.refused();
  }

  renderHeader() {
    const table = this.msg.table;
    const finished = table.status === "finished";
    fill(
      this.header,
      h("span", { class: ["game-badge", table.game] }, t("game." + table.game)),
      h("span", { class: "rules" }, rulesSummary(table.game, table.options).join(" · ")),
      h("span", { class: "meta" }, t("kind." + table.kind), " · ", t("room.turnTime", { n: table.turn_seconds })),
      stakeLine(table),
      table.code ? h("span", { class: "meta code" }, t("room.code"), " ", h("code", { dir: "ltr" }, table.code)) : null,
      h("span", { class: ["status", table.status] }, t("status." + table.status)),
      this.watchBadge(),
      this.feel.mute.render(),
      h(
        "button",
        {
          type: "button",
          class: "btn ghost small",
          dataset: { action: "leave" },
          on: {
            click: () => {
              if (this.spectator || finished) this.app.leave();
              else this.social.askLeave(() => this.app.leave());
            },
          },
        },
        this.spectator && !finished ? tw("watch.stop") : t(finished ? "table.toLobby" : "table.leave"),
      ),
    );
  }

  /** How many watch: for a spectator always (with "Watching"), for a seat when some do. */
  watchBadge() {
    const n = this.msg.watching || 0;
    if (this.spectator) {
      return h("span", { class: "watch-badge spectating", dataset: { watching: String(n) }, title: tw("watch.count", { n }) }, tw("watch.badge"), " · ", tw("watch.count", { n }));
    }
    if (!n) return null;
    return h("span", { class: "watch-badge", dataset: { watching: String(n) }, title: tw("watch.count", { n }), "aria-label": tw("watch.count", { n }) }, tw("watch.count", { n }));
  }

  renderLastMoves() {
    const last = this.msg.last || [];
    const key = lang();
    fill(
      this.lastMoves,
      h("h3", { class: "panel-title" }, t("table.lastMoves")),
      last.length
        ? h(
            "ol",
            // It scrolls: focusable, so it can be read by keyboard as well.
            { class: "move-words", reversed: true, tabindex: "0", "aria-label": t("table.lastMoves") },
            [...last].reverse().map((entry) =>
              h(
                "li",
                { class: entry.auto ? "auto" : "", dataset: { seat: String(entry.seat) } },
                // The words are in the page's language: they follow its direction.
                h("span", {}, entry.words ? withNames(entry.words[key] || entry.words.en, this.msg.seats.map((seat) => seat.name)) : entry.action),
                entry.auto ? h("span", { class: "badge auto", title: t("table.autoLong") }, t("table.auto")) : null,
              ),
            ),
          )
        : h("p", { class: "hint" }, t("table.noMoves")),
    );
  }

  renderFair() {
    const msg = this.msg;
    const wasOpen = this.fair.open;
    const seeds = msg.client_seeds || [];
    const rows = [];
    if (msg.commitment) {
      rows.push(h("dt", {}, t("fair.commitment")), h("dd", {}, h("code", { class: "hash", dir: "ltr" }, msg.commitment)));
    }
    if (msg.server_seed) {
      // Revealed at the end: its SHA-256 is the commitment above.
      rows.push(h("dt", {}, t("fair.serverSeed")), h("dd", {}, h("code", { class: "hash", dir: "ltr" }, msg.server_seed)));
    }
    if (this.mySeed) rows.push(h("dt", {}, t("fair.mySeed")), h("dd", {}, h("code", { class: "hash mine", dir: "ltr" }, this.mySeed)));
    if (seeds.length) {
      rows.push(
        h("dt", {}, t("fair.clientSeeds")),
        h(
          "dd",
          {},
          h(
            "ol",
            { class: "seeds" },
            seeds.map((seed, i) => {
              const seat = msg.seats[i];
              return h(
                "li",
                { class: seed === this.mySeed ? "mine" : "" },
                h("span", { dir: "auto" }, seat && !seat.empty ? seat.name : t("room.seat", { n: i + 1 })),
                " ",
                h("code", { dir: "ltr" }, seed),
              );
            }),
          ),
        ),
      );
    }
    fill(
      this.fair,
      h("summary", { class: "panel-title" }, t("fair.title"), msg.commitment ? h("span", { class: "badge ok" }, t("fair.committed")) : null),
      h("p", { class: "hint" }, t("fair.about")),
      rows.length ? h("dl", { class: "fair-list" }, rows) : null,
      msg.table.status === "finished"
        ? verifyAnchor(msg.table.id, "btn small", t("fair.verify"))
        : null,
    );
    // A badge that opens: the board keeps the best of the screen.
    this.fair.open = wasOpen;
  }

  renderEnd() {
    const msg = this.msg;
    const result = msg.result;
    if (!result || msg.table.status !== "finished" || this.endDismissed) {
      this.endCard.hidden = true;
      return;
    }
    const winners = result.winners || [];
    const won = winners.includes(msg.you);
    // A spectator neither won nor lost; the score is told from the first side.
    const side = this.spectator ? 0 : msg.you & 1;
    const names = msg.seats.filter((seat) => winners.includes(seat.seat)).map((seat) => seat.name);
    this.endCard.hidden = false;
    if (!this.spectator) this.rematch.update(msg);
    fill(
      this.endCard,
      h(
        "div",
        { class: ["end-inner", won ? "won" : "lost"] },
        h("h2", { id: "end-card-title" }, this.spectator ? tw("watch.over") : t(won ? "end.won" : "end.lost")),
        h("p", { class: "winners" }, t("end.winners", { names: names.join(lang() === "ar" ? " و" : " & ") })),
        // A game that ends on points: the final score of both sides.
        msg.view && Array.isArray(msg.view.totals)
          ? h(
              "p",
              { class: "final-score" },
              t("end.score", { us: msg.view.totals[side], them: msg.view.totals[1 - side] }),
            )
          : null,
        msg.coins ? coinsSummary(msg.coins, msg.seats, msg.you) : null,
        this.spectator ? null : this.rematch.el,
        h(
          "div",
          { class: "end-actions" },
          h("button", { type: "button", class: "btn", dataset: { action: "replay" }, on: { click: () => this.app.openReplay(msg.table.id) } }, "▶ ", t("end.watchReplay")),
          verifyAnchor(msg.table.id, "btn", t("end.verify")),
          h("button", { type: "button", class: "btn ghost", dataset: { action: "lobby" }, on: { click: () => (this.spectator ? this.app.leave() : this.app.toLobby()) } }, t("table.toLobby")),
          h("button", { type: "button", class: "btn ghost", on: { click: () => { this.endDismissed = true; this.renderEnd(); } } }, t("end.close")),
        ),
      ),
    );
  }
}
