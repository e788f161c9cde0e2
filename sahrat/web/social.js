// Friends on the socket: who of them is online and where (presence), and the
// invitations they send. The connection makes one Social when it is created,
// so its handlers are registered from here; the friends screen, the waiting
// room and the lobby read it and listen for its changes. Invitations show as
// cards in a tray of their own (join or dismiss); dismissing one is silent to
// the inviter, and the server takes a card back when it expires.

import { h, fill, toast } from "./dom.js";
import { tp, peopleError, PEOPLE_STRINGS } from "./i18n-people.js";
import { t, has } from "./i18n.js";
import { api } from "./api.js";

let styled = false;

/** social.css, linked once. */
function socialStyles() {
  if (styled || document.querySelector("link[data-social]")) return;
  styled = true;
  document.head.appendChild(h("link", { rel: "stylesheet", href: "/static/social.css", dataset: { social: "" } }));
}

export class Social {
  constructor(conn) {
    this.conn = conn;
    /** Friends online by id: {player, name, online, at}. */
    this.online = new Map();
    /** Open invitations by id. */
    this.invitations = new Map();
    this.listeners = new Set();
    this.tray = null;
    socialStyles();
    conn.on("presence", (m) => this.presence(m));
    conn.on("invitation", (m) => this.invited(m));
    conn.on("invitation_expired", (m) => this.dismiss(m.invitation));
    /** Ids of the invitations we sent and have no answer to yet. */
    this.sending = new Set();
    /** Ids of refused invitations this module has worded (see `hasWorded`). */
    this.worded = new Set();
    conn.on("invited", (m) => {
      if (this.sending.delete(m.id)) toast(tp("invite.sent"));
    });
    conn.on("error", (m) => {
      if (!this.sending.delete(m.id)) return;
      this.worded.add(m.id);
      const key = `invite.error.${m.code}`;
      toast(Object.hasOwn(PEOPLE_STRINGS, key) ? tp(key, { n: m.retry_after ?? "" }) : m.message, "error");
    });
    conn.on("welcome", () => {
      // A new hello (reload, another account) brings a whole list again.
      this.online.clear();
      this.changed();
    });
  }

  /** Whether this error answered an invitation and was worded here already: the app's
   * own error toast can then stand aside. */
  hasWorded(m) {
    return m.id !== undefined && this.worded.has(m.id);
  }

  /** Call `fn()` whenever presence or invitations change; returns the unsubscribe. */
  on(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  changed() {
    for (const fn of this.listeners) fn();
    this.renderTray();
  }

  presence(message) {
    if (message.full) this.online.clear();
    for (const entry of message.friends || []) {
      if (entry.online) this.online.set(entry.player, entry);
      else this.online.delete(entry.player);
    }
    this.changed();
  }

  /** Where a friend is: their presence entry, or null when offline. */
  where(player) {
    return this.online.get(player) || null;
  }

  /** Invite a friend; the refusal, if any, is worded here (its id is returned, so the
   * app's own error toast can stand aside). */
  invite(player) {
    const id = this.conn.send("invite", { player });
    if (id !== null) this.sending.add(id);
    return id;
  }

  invited(message) {
    this.invitations.set(message.invitation, message);
    this.changed();
  }

  dismiss(id) {
    if (this.invitations.delete(id)) this.changed();
  }

  accept(invitation) {
    this.dismiss(invitation.invitation);
    if (invitation.code) this.conn.send("join", { code: invitation.code });
    else this.conn.send("join", { table: invitation.table.id });
  }

  renderTray() {
    if (!this.tray) {
      this.tray = h("div", { class: "invitations", id: "invitations", role: "region", "aria-live": "polite", "aria-label": tp("invite.title") });
      document.body.appendChild(this.tray);
    }
    const cards = [...this.invitations.values()].map((inv) => {
      const game = has(`game.${inv.table.game}`) ? t(`game.${inv.table.game}`) : inv.table.game;
      const key = inv.table.private ? "invite.private" : "invite.public";
      return h(
        "div",
        { class: "invitation-card", dataset: { invitation: inv.invitation, table: inv.table.id } },
        h("p", { class: "invitation-text" }, h("bdi", {}, inv.from.name), " ", tp(key, { game })),
        h(
          "div",
          { class: "row-actions" },
          h("button", { type: "button", class: "btn primary small", dataset: { action: "accept-invitation" }, on: { click: () => this.accept(inv) } }, tp("invite.join")),
          h("button", { type: "button", class: "btn small", dataset: { action: "dismiss-invitation" }, on: { click: () => this.dismiss(inv.invitation) } }, tp("invite.dismiss")),
        ),
      );
    });
    fill(this.tray, cards);
    this.tray.hidden = cards.length === 0;
  }
}

/** A friend's presence in words and buttons: an online dot and where they are. */
export function presenceLine(social, person) {
  const entry = social.where(person.id);
  if (!entry) return h("span", { class: "presence offline", dataset: { presence: "offline" } }, h("span", { class: "dot" }), tp("presence.offline"));
  const at = entry.at;
  const parts = [h("span", { class: "dot" })];
  let state = "online";
  if (!at) parts.push(tp("presence.online"));
  else if (at.private) {
    state = "private";
    parts.push(tp("presence.private"));
  } else {
    state = "table";
    const game = has(`game.${at.game}`) ? t(`game.${at.game}`) : at.game;
    parts.push(tp(at.as === "spectator" ? "presence.watching" : "presence.atTable", { game }));
    if (at.status === "waiting" && at.free > 0)
      parts.push(h("button", { type: "button", class: "btn small primary", dataset: { action: "join-friend", table: at.table }, on: { click: () => social.conn.send("join", { table: at.table }) } }, tp("presence.join")));
    parts.push(h("button", { type: "button", class: "btn small", dataset: { action: "watch-friend", table: at.table }, on: { click: () => social.conn.send("watch", { table: at.table }) } }, tp("presence.watch")));
  }
  return h("span", { class: ["presence", state], dataset: { presence: state } }, parts);
}

/** Make a seat chip open a small menu: add its player as a friend, or block them. */
export function withSeatMenu(chip, info) {
  chip.classList.add("has-menu");
  chip.setAttribute("role", "button");
  chip.setAttribute("aria-expanded", "false");
  chip.tabIndex = 0;
  const ask = async (method, path, body, done) => {
    const { ok, data } = await api(method, path, body);
    toast(ok ? done(data) : peopleError(data), ok ? "info" : "error");
  };
  const toggle = (event) => {
    if (event.target.closest(".seat-menu")) return;
    const open = chip.querySelector(".seat-menu");
    chip.setAttribute("aria-expanded", String(!open));
    if (open) return open.remove();
    const id = encodeURIComponent(info.player);
    chip.appendChild(
      h(
        "div",
        { class: "seat-menu", dataset: { player: info.player } },
        h("button", { type: "button", class: "btn small primary", dataset: { action: "seat-add-friend" }, on: { click: () => ask("POST", "/api/friends", { player: info.player }, (d) => tp(d.status === "friends" ? "friends.nowFriends" : "friends.sent")) } }, tp("seat.addFriend")),
        h("button", { type: "button", class: "btn small warn", dataset: { action: "seat-block" }, on: { click: () => ask("PUT", `/api/blocks/${id}`, undefined, () => tp("seat.blocked")) } }, tp("seat.block")),
      ),
    );
  };
  chip.addEventListener("click", toggle);
  chip.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") toggle(event);
  });
}
