// The account page (#account): who you are, links to your history and coin
// statement, and for an account: change the password, see and end your
// sessions (devices), log out. A guest is offered registration instead.

import { h, fill, toast } from "./dom.js";
import { t, formatDate } from "./i18n.js";
import { api } from "./api.js";
import { coins } from "./coins.js";
import { accountError, field, errorBox, showError } from "./auth.js";
import { PeopleScreen, peopleView, peopleHash } from "./people.js";
import { tp } from "./i18n-people.js";

export class AccountPage {
  /** `app`: {account, conn, go(page)}. */
  constructor(app) {
    // #account&people=…: the leaderboard, a profile or the friends take the page.
    const people = peopleView();
    if (people) return new PeopleScreen(people, app);
    this.app = app;
    this.sessions = null; // GET /api/sessions's list, once loaded
    this.el = h("main", { class: "page account-page", id: "account" });
    this.sessionsEl = h("ul", { class: "sessions" });
    this.shown = null; // who the page shows: drawn again only when that changes
    this.unlisten = app.account.on(() => this.render());
    this.render();
  }

  destroy() {
    this.unlisten();
  }

  relabel() {
    this.shown = null;
    this.render();
  }

  render() {
    const { account } = this.app;
    const me = account.me || {};
    const guest = account.guest;
    // A balance refresh must not wipe a password being typed: only a new person redraws.
    const who = JSON.stringify([me.id, me.name, guest, account.balance, me.games_played]);
    if (who === this.shown) return;
    if (!guest && this.sessions === null && !this.sessionsAsked) {
      this.sessionsAsked = true;
      this.loadSessions();
    }
    this.shown = who;
    const go = (page, key, action) =>
      h("button", { type: "button", class: "btn", dataset: { action }, on: { click: () => this.app.go(page) } }, t(key));
    const goPeople = (view, key) =>
      h("button", { type: "button", class: "btn", dataset: { action: view }, on: { click: () => this.app.go(peopleHash(view)) } }, tp(key));
    const summary = h(
      "section",
      { class: "panel" },
      // The name keeps its own direction without turning the heading's alignment.
      h("h1", { class: "page-title" }, h("bdi", {}, me.name || "")),
      h(
        "dl",
        { class: "facts" },
        h("dt", {}, t("account.kind")),
        h("dd", {}, t(guest ? "account.guest" : "account.registered")),
        account.balance !== null ? [h("dt", {}, t("coins.balance")), h("dd", {}, coins(account.balance))] : null,
        typeof me.games_played === "number" ? [h("dt", {}, t("account.gamesPlayed")), h("dd", {}, String(me.games_played))] : null,
      ),
      guest ? h("p", { class: "hint" }, t("account.guestAbout")) : null,
      h(
        "div",
        { class: "page-actions" },
        guest ? [go("register", "auth.register", "register"), go("login", "auth.login", "login")] : null,
        go("history", "history.title", "history"),
        guest ? null : goPeople("profile", "people.profile"),
        goPeople("leaderboard", "people.leaderboard"),
        guest ? null : goPeople("friends", "people.friends"),
        guest ? null : go("statement", "statement.title", "statement"),
        guest ? null : h("button", { type: "button", class: "btn warn", dataset: { action: "logout" }, on: { click: () => this.logout() } }, t("account.logout")),
      ),
    );
    fill(this.el, summary, guest ? null : this.passwordForm(), guest ? null : this.sessionsPanel());
  }

  passwordForm() {
    const old = h("input", { type: "password", name: "old", autocomplete: "current-password", dir: "ltr" });
    const fresh = h("input", { type: "password", name: "new", autocomplete: "new-password", dir: "ltr" });
    // Password managers file the new password under this name.
    const user = h("input", { type: "text", name: "username", autocomplete: "username", value: this.app.account.me?.name ?? "", hidden: true, readonly: true });
    const error = errorBox();
    const submit = async (event) => {
      event.preventDefault();
      const { ok, data } = await api("PUT", "/api/me/password", { old: old.value, new: fresh.value });
      if (!ok) return showError(error, data);
      old.value = "";
      fresh.value = "";
      error.hidden = true;
      toast(t("account.passwordChanged"));
      this.loadSessions();
    };
    return h(
      "section",
      { class: "panel" },
      h("h2", { class: "panel-title" }, t("account.password")),
      h(
        "form",
        { class: "password-form", novalidate: true, on: { submit } },
        user,
        field(t("account.oldPassword"), old),
        field(t("account.newPassword"), fresh, t("auth.passwordRules")),
        error,
        h("button", { type: "submit", class: "btn", dataset: { action: "password" } }, t("account.changePassword")),
      ),
    );
  }

  sessionsPanel() {
    this.renderSessions();
    return h(
      "section",
      { class: "panel" },
      h("h2", { class: "panel-title" }, t("account.sessions")),
      h("p", { class: "hint" }, t("account.sessionsAbout")),
      this.sessionsEl,
    );
  }

  async loadSessions() {
    const { ok, data } = await api("GET", "/api/sessions");
    this.sessions = ok && Array.isArray(data.sessions) ? data.sessions : [];
    this.renderSessions();
  }

  renderSessions() {
    if (this.sessions === null) {
      fill(this.sessionsEl, h("li", { class: "hint" }, t("page.loading")));
      return;
    }
    fill(
      this.sessionsEl,
      this.sessions.map((session) =>
        h(
          "li",
          { class: ["session", session.current ? "current" : ""], dataset: { session: String(session.id) } },
          h(
            "div",
            { class: "session-text" },
            h("strong", { title: session.agent || null }, h("bdi", {}, deviceName(session.agent) || t("account.unknownDevice"))),
            session.current ? h("span", { class: "badge you" }, t("account.thisDevice")) : null,
            h("small", { class: "hint" }, t("account.sessionTimes", { created: formatDate(session.created_at), used: formatDate(session.last_used_at) })),
          ),
          session.current
            ? null
            : h("button", { type: "button", class: "btn small", dataset: { action: "revoke" }, on: { click: () => this.revoke(session.id) } }, t("account.revoke")),
        ),
      ),
    );
  }

  async revoke(id) {
    const { ok, data } = await api("DELETE", `/api/sessions/${encodeURIComponent(id)}`);
    if (!ok) toast(accountError(data), "error");
    this.loadSessions();
  }

  async logout() {
    await api("DELETE", "/api/sessions/current");
    // Whatever the answer, this browser forgets the session and plays on as a new guest.
    this.app.conn.switchToken(null);
    this.app.account.me = null;
    this.app.account.changed();
    toast(t("account.loggedOut"));
    this.app.go("");
  }
}


const BROWSERS = [["Edg/", "Edge"], ["OPR/", "Opera"], ["Firefox/", "Firefox"], ["Chrome/", "Chrome"], ["Safari/", "Safari"]];
const SYSTEMS = [["Android", "Android"], ["iPhone", "iPhone"], ["iPad", "iPad"], ["Windows", "Windows"], ["Mac OS", "macOS"], ["CrOS", "ChromeOS"], ["Linux", "Linux"]];

/** "Chrome · Android" from a User-Agent (the full text stays in the title); "" if unknown. */
function deviceName(agent) {
  if (!agent) return "";
  const pick = (list) => (list.find(([needle]) => agent.includes(needle)) || [])[1];
  return [pick(BROWSERS), pick(SYSTEMS)].filter(Boolean).join(" · ") || agent.slice(0, 40);
}
