// Table chat and team chat. Lines are text nodes only: whatever a player
// types is shown as typed, never interpreted as HTML. On a phone the chat is
// a drawer over the table, opened by a button that counts the lines that
// came while it was closed; quick phrases (reactions.js) show as lines too.

import { h, fill } from "./dom.js";
import { t } from "./i18n.js";
import { reactionText } from "./reactions.js";
import { tw } from "./i18n-watch.js";

const MAX_CHARS = 300; // the server's chat_max_chars default

export class Chat {
  constructor(conn) {
    this.conn = conn;
    this.channel = "table";
    this.messages = [];
    this.mySeat = null;
    this.teamAllowed = true;
    this.unread = { table: 0, team: 0 };
    // The drawer (phones): closed, it counts what arrives; `isMuted(seat)` hides a player.
    this.drawerOpen = false;
    this.waiting = 0;
    this.isMuted = () => false;
    this.badge = h("span", { class: "chat-badge", hidden: true });
    this.toggle = h(
      "button",
      { type: "button", class: "btn chat-toggle", dataset: { action: "chat" }, "aria-expanded": "false", on: { click: () => this.setDrawer(!this.drawerOpen) } },
      h("span", { class: "chat-toggle-label" }),
      this.badge,
    );
    this.closeButton = h("button", { type: "button", class: "btn ghost small chat-close", on: { click: () => this.setDrawer(false) } }, "✕");
    this.tabs = {
      table: h("button", { type: "button", class: "tab", role: "tab", on: { click: () => this.show("table") } }),
      team: h("button", { type: "button", class: "tab", role: "tab", on: { click: () => this.show("team") } }),
    };
    this.list = h("ol", { class: "chat-lines", "aria-live": "polite" });
    this.input = h("input", {
      type: "text",
      class: "chat-input",
      maxlength: String(MAX_CHARS),
      autocomplete: "off",
      dir: "auto",
    });
    this.sendButton = h("button", { type: "submit", class: "btn small" });
    this.form = h(
      "form",
      {
        class: "chat-form",
        on: {
          submit: (event) => {
            event.preventDefault();
            this.submit();
          },
        },
      },
      this.input,
      this.sendButton,
    );
    this.title = h("h3", { class: "panel-title" });
    // A spectator at a table that does not let spectators write reads only.
    this.readOnly = false;
    this.readOnlyNote = h("p", { class: "read-only-note", hidden: true });
    this.el = h(
      "section",
      { class: "panel chat drawer" },
      h("div", { class: "chat-head" }, this.title, this.closeButton),
      h("div", { class: "tabs", role: "tablist" }, this.tabs.table, this.tabs.team),
      this.list,
      this.form,
      this.readOnlyNote,
    );
    this.relabel();
  }

  relabel() {
    this.title.textContent = t("chat.title");
    this.input.placeholder = t(this.channel === "team" ? "chat.placeholderTeam" : "chat.placeholder");
    this.input.setAttribute("aria-label", this.input.placeholder);
    this.sendButton.textContent = t("chat.send");
    for (const channel of ["table", "team"]) {
      const tab = this.tabs[channel];
      const count = this.unread[channel];
      fill(tab, t("chat." + channel), count ? h("span", { class: "unread" }, String(count)) : null);
      tab.setAttribute("aria-selected", String(channel === this.channel));
      tab.dataset.channel = channel;
    }
    this.tabs.team.hidden = !this.teamAllowed;
    this.toggle.querySelector(".chat-toggle-label").textContent = t("chat.open");
    this.toggle.setAttribute("aria-label", this.waiting ? `${t("chat.open")} · ${t("chat.unread", { n: this.waiting })}` : t("chat.open"));
    this.closeButton.setAttribute("aria-label", t("chat.close"));
    this.badge.hidden = !this.waiting;
    this.readOnlyNote.textContent = tw("watch.readOnly");
    this.badge.textContent = String(this.waiting);
    this.renderLines();
  }

  /** A spectator's chat: the lines without the form (`on`), or with it. */
  setReadOnly(on) {
    this.readOnly = on;
    this.form.hidden = on;
    this.readOnlyNote.hidden = !on;
    this.relabel();
  }

  /** Open or close the drawer (phones); opening it reads what was waiting. */
  setDrawer(open) {
    this.drawerOpen = open;
    this.el.classList.toggle("open", open);
    this.toggle.setAttribute("aria-expanded", String(open));
    if (open) {
      this.waiting = 0;
      this.unread[this.channel] = 0;
      if (!this.readOnly) this.input.focus({ preventScroll: true });
    }
    this.relabel();
  }

  /** A new table (or the same one after a reconnect): `seat` is ours, `team` whether we have a partner. */
  setTable(seat, team) {
    this.mySeat = seat;
    this.teamAllowed = team;
    if (!team && this.channel === "team") this.channel = "table";
    this.relabel();
  }

  show(channel) {
    this.channel = channel;
    this.unread[channel] = 0;
    this.relabel();
  }

  history(messages) {
    this.messages = [...messages];
    this.unread = { table: 0, team: 0 };
    this.relabel();
  }

  add(message) {
    this.messages.push(message);
    if (this.messages.length > 200) this.messages.shift();
    const mine = message.seat === this.mySeat;
    if (!mine && !this.isMuted(message.seat)) {
      if (message.channel !== this.channel) this.unread[message.channel] += 1;
      if (!this.drawerOpen) this.waiting += 1;
    }
    this.relabel();
  }

  renderLines() {
    const lines = this.messages
      .filter((m) => m.channel === this.channel && !this.isMuted(m.seat))
      .map((m) =>
        h(
          "li",
          { class: ["chat-line", m.seat === this.mySeat ? "mine" : "", m.quick ? "quick" : ""], dataset: { channel: m.channel } },
          h("span", { class: "chat-name", dir: "auto" }, m.name),
          h("span", { class: "chat-text", dir: "auto" }, m.quick ? reactionText(m.reaction) : m.text),
        ),
      );
    if (!lines.length) lines.push(h("li", { class: "chat-empty" }, t("chat.empty")));
    fill(this.list, lines);
    this.list.scrollTop = this.list.scrollHeight;
  }

  submit() {
    const text = this.input.value.trim();
    if (!text) return;
    if (this.conn.send("chat", { channel: this.channel, text }) !== null) this.input.value = "";
  }
}
