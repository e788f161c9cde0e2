// Friends (#account&people=friends): add one by name, answer requests both
// ways, remove a friend, block and unblock. Every change is asked of the
// server and the lists are read again from its answer; each friend shows whether
// they are online and at which table (social.js), with join and watch buttons.

import { h, fill, toast } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";
import { field, errorBox } from "./auth.js";
import { tp, peopleError } from "./i18n-people.js";
import { personButton } from "./people.js";
import { presenceLine } from "./social.js";

export class FriendsView {
  constructor(app) {
    this.app = app;
    this.lists = null;
    this.error = null;
    this.el = h("section", { class: "friends", id: "friends" });
    this.nameInput = h("input", { type: "text", name: "friend", dir: "auto", maxlength: 20, autocomplete: "off" });
    this.formError = errorBox();
    this.unlisten = app.account.on(() => this.maybeLoad());
    // Friends coming online, sitting down or leaving: the list shows it at once.
    this.unlistenSocial = app.conn ? app.conn.social.on(() => this.lists && this.render()) : () => {};
    this.maybeLoad();
    this.render();
  }

  destroy() {
    this.unlisten();
    this.unlistenSocial();
  }

  maybeLoad() {
    const me = this.app.account.me;
    if (!me || this.loadedFor === me.id) return;
    this.loadedFor = me.id;
    if (this.app.account.guest) this.render();
    else this.load();
  }

  async load() {
    const { ok, data } = await api("GET", "/api/friends");
    this.lists = ok ? data : null;
    this.error = ok ? null : data;
    this.render();
  }

  /** Ask the server; a refusal is worded, then the lists are read again. */
  async change(method, path, body, done) {
    const { ok, data } = await api(method, path, body);
    if (ok && done) toast(done(data));
    if (!ok) toast(peopleError(data), "error");
    await this.load();
    return { ok, data };
  }

  render() {
    if (this.app.account.me && this.app.account.guest) {
      const register = h("button", { type: "button", class: "btn primary", dataset: { action: "register" }, on: { click: () => this.app.go("register") } }, t("auth.register"));
      return fill(this.el, h("div", { class: "panel" }, h("h1", { class: "page-title" }, tp("people.friends")), h("p", { class: "hint guest-friends" }, tp("profile.guest")), register));
    }
    const add = async (event) => {
      event.preventDefault();
      const { ok, data } = await api("POST", "/api/friends", { name: this.nameInput.value.trim() });
      if (!ok) {
        this.formError.hidden = false;
        this.formError.dataset.code = data.code;
        this.formError.textContent = peopleError(data);
        return;
      }
      this.formError.hidden = true;
      this.nameInput.value = "";
      toast(tp(data.status === "friends" ? "friends.nowFriends" : "friends.sent"));
      this.load();
    };
    const form = h(
      "form",
      { class: "friend-form", novalidate: true, on: { submit: add } },
      field(tp("friends.byName"), this.nameInput),
      h("button", { type: "submit", class: "btn primary", dataset: { action: "add-friend" } }, tp("friends.send")),
    );
    const top = h("div", { class: "panel" }, h("h1", { class: "page-title" }, tp("people.friends")), h("h2", { class: "panel-title" }, tp("friends.add")), form, this.formError);
    if (this.error) return fill(this.el, top, h("p", { class: "notice error" }, peopleError(this.error)));
    const lists = this.lists;
    if (!lists) return fill(this.el, top, h("p", { class: "hint" }, t("page.loading")));
    const id = (person) => encodeURIComponent(person.id);
    const button = (key, action, kind, onClick) =>
      h("button", { type: "button", class: ["btn", "small", kind], dataset: { action }, on: { click: onClick } }, tp(key));
    const social = this.app.conn ? this.app.conn.social : null;
    const presence = (kind, p) => (kind === "friends" && social ? presenceLine(social, p) : null);
    const section = (kind, key, people, actions, empty) =>
      people.length || empty
        ? h(
            "section",
            { class: ["panel", "friend-list"], dataset: { list: kind } },
            h("h2", { class: "panel-title" }, tp(key), people.length ? h("span", { class: "count" }, ` (${people.length})`) : null),
            people.length
              ? h("ul", { class: "people-list" }, people.map((p) => h("li", { class: "person-row", dataset: { player: p.id } }, personButton(this.app, p), presence(kind, p), h("span", { class: "row-actions" }, actions(p)))))
              : h("p", { class: "hint" }, tp(empty)),
          )
        : null;
    fill(
      this.el,
      top,
      section("incoming", "friends.incoming", lists.incoming, (p) => [
        button("friends.accept", "accept", "primary", () => this.change("PUT", `/api/friends/requests/${id(p)}`, undefined, () => tp("friends.nowFriends"))),
        button("friends.refuse", "refuse", "", () => this.change("DELETE", `/api/friends/requests/${id(p)}`)),
      ]),
      section("friends", "friends.list", lists.friends, (p) => [
        button("friends.remove", "remove", "", () => this.change("DELETE", `/api/friends/${id(p)}`)),
        button("friends.block", "block", "warn", () => this.change("PUT", `/api/blocks/${id(p)}`)),
      ], "friends.none"),
      section("outgoing", "friends.outgoing", lists.outgoing, (p) => [
        button("friends.cancel", "cancel", "", () => this.change("DELETE", `/api/friends/requests/${id(p)}`)),
      ]),
      section("blocked", "friends.blocked", lists.blocked, (p) => [
        button("friends.unblock", "unblock", "", () => this.change("DELETE", `/api/blocks/${id(p)}`)),
      ]),
      h("p", { class: "hint" }, tp("friends.blockAbout")),
    );
  }
}
