// Who we are beyond the socket's welcome: guest or account, the coin balance
// and the daily grant (GET /api/me, asked again whenever coins may have moved),
// and the header's part of it: the balance, the name and the way to log in.

import { h, fill } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";
import { coins } from "./coins.js";
import { peopleHeader } from "./people-head.js";

export class Account {
  constructor() {
    this.me = null; // the latest /api/me (or welcome.player until it answers)
    this.listeners = new Set();
    this.asked = 0; // only the newest answer counts: a slow old one must not undo it
  }

  /** Call `fn(account)` on every change; returns the function that stops it. */
  on(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  changed() {
    for (const fn of this.listeners) fn(this);
  }

  get guest() {
    return !this.me || this.me.guest !== false;
  }

  get balance() {
    return this.me && typeof this.me.balance === "number" ? this.me.balance : null;
  }

  /** The socket said who we are: show it now, then ask for the rest. */
  welcome(player) {
    const same = this.me && this.me.id === player.id;
    this.me = { ...(same ? this.me : {}), ...player };
    this.changed();
    this.refresh();
  }

  async refresh() {
    const asked = ++this.asked;
    const { ok, data } = await api("GET", "/api/me");
    if (!ok || asked !== this.asked) return;
    this.me = data;
    this.changed();
  }

  /** Claim today's grant; the answer's data ({granted, balance} or the error). */
  async claimDaily() {
    const answer = await api("POST", "/api/me/daily-grant");
    if (answer.ok && this.me) {
      this.me = { ...this.me, balance: answer.data.balance };
      this.changed();
    }
    await this.refresh();
    return answer;
  }
}

/** The header's end: the balance (to the statement), the name (to the account page), log in. */
export class HeaderAccount {
  constructor(account, go) {
    this.account = account;
    this.go = go; // go("account") etc.: the app's navigation
    this.el = h("span", { class: "head-account" });
    account.on(() => this.render());
    this.render();
  }

  render() {
    const account = this.account;
    const me = account.me;
    const balance = account.balance;
    const parts = [];
    if (balance !== null) {
      parts.push(
        h(
          "button",
          {
            type: "button",
            class: "balance",
            title: t("coins.balance"),
            "aria-label": t("coins.balanceIs", { n: balance }),
            dataset: { balance: String(balance) },
            on: { click: () => this.go("statement") },
          },
          coins(balance),
        ),
      );
    }
    if (me) {
      parts.push(
        h(
          "button",
          { type: "button", class: "me", dir: "auto", title: t("account.title"), on: { click: () => this.go("account") } },
          me.name,
        ),
      );
    }
    // The leaderboard and friends, one tap from the lobby's header.
    if (me) parts.push(peopleHeader(this.go, account.guest));
    if (me && account.guest) {
      parts.push(
        h("button", { type: "button", class: "btn small primary login-link", dataset: { action: "login" }, on: { click: () => this.go("login") } }, t("auth.loginShort")),
      );
    }
    fill(this.el, parts);
  }
}
