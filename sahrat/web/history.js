// The history pages: your games (#history: result, coins, replay and Verify)
// and your coin statement (#statement: every ledger entry with the balance
// after it). Both are newest first and paged: "older" asks for the next page
// with the cursor of the last answer.

import { h, fill } from "./dom.js";
import { t, has, formatDate } from "./i18n.js";
import { api } from "./api.js";
import { coins } from "./coins.js";
import { accountError } from "./auth.js";
import { verifyLink } from "./table-screen.js";

const PAGE = 20;

class PagedList {
  /** `path`: the endpoint; `key`: the list's field in its answer; `id`: the screen's id. */
  constructor(path, key, id) {
    this.path = path;
    this.key = key;
    this.items = [];
    this.next = null;
    this.state = "loading"; // loading | ready | failed
    this.error = null;
    this.list = h("ul", { class: ["entries", key] });
    this.footer = h("div", { class: "page-foot" });
    this.el = h("main", { class: "page history-page", id });
    this.load();
  }

  async load(before) {
    this.state = "loading";
    this.renderFoot();
    const query = new URLSearchParams({ limit: String(PAGE) });
    if (before !== undefined && before !== null) query.set("before", String(before));
    const { ok, data } = await api("GET", `${this.path}?${query}`);
    if (!ok || !Array.isArray(data[this.key])) {
      this.state = "failed";
      this.error = data;
    } else {
      this.items.push(...data[this.key]);
      this.next = data.next ?? null;
      this.state = "ready";
    }
    this.render();
  }

  relabel() {
    this.render();
  }

  render() {
    fill(this.el, h("section", { class: "panel" }, h("h1", { class: "page-title" }, this.title()), this.intro(), this.list, this.footer));
    fill(this.list, this.items.map((item) => this.row(item)));
    if (this.state === "ready" && !this.items.length) fill(this.list, h("li", { class: "empty-note" }, this.emptyText()));
    this.renderFoot();
  }

  renderFoot() {
    let content = null;
    if (this.state === "loading") content = h("p", { class: "hint" }, t("page.loading"));
    else if (this.state === "failed") content = h("p", { class: "notice error", role: "alert" }, accountError(this.error));
    else if (this.next !== null) {
      content = h("button", { type: "button", class: "btn", dataset: { action: "older" }, on: { click: () => this.load(this.next) } }, t("page.older"));
    }
    fill(this.footer, content);
  }

  intro() {
    return null;
  }
}

export class HistoryPage extends PagedList {
  constructor() {
    super("/api/me/games", "games", "history");
  }

  title() {
    return t("history.title");
  }

  emptyText() {
    return t("history.empty");
  }

  row(game) {
    const coinTable = game.stake > 0;
    return h(
      "li",
      { class: ["entry", "game-entry", game.result], dataset: { table: game.table } },
      h(
        "div",
        { class: "entry-main" },
        h("strong", {}, t("game." + game.game)),
        h("span", { class: ["badge", "result", game.result] }, t(`history.${game.result}`)),
        game.left ? h("span", { class: "badge offline" }, t("history.left")) : null,
        h("small", { class: "hint" }, formatDate(game.finished_at)),
      ),
      h(
        "div",
        { class: "entry-coins" },
        coinTable
          ? [h("span", { class: "meta" }, t("coins.stake"), " ", coins(game.stake)), coins(game.coins, { signed: true, cls: "net" })]
          : h("span", { class: "meta" }, t("kind.free")),
      ),
      h(
        "div",
        { class: "entry-links" },
        h("a", { class: "btn small", href: `#replay=${encodeURIComponent(game.table)}`, dataset: { action: "replay" } }, t("end.replay")),
        h("a", { class: "btn small ghost", href: verifyLink(game.table), dataset: { action: "verify" } }, t("fair.verify")),
      ),
    );
  }
}

export class StatementPage extends PagedList {
  constructor(account) {
    super("/api/me/ledger", "entries", "statement");
    this.account = account;
    this.unlisten = account.on(() => this.render());
  }

  destroy() {
    this.unlisten();
  }

  title() {
    return t("statement.title");
  }

  emptyText() {
    return t("statement.empty");
  }

  intro() {
    const balance = this.account.balance;
    return balance === null ? null : h("p", { class: "statement-balance" }, t("coins.balance"), " ", coins(balance));
  }

  row(entry) {
    return h(
      "li",
      { class: ["entry", "ledger-entry", entry.kind], dataset: { entry: String(entry.id), kind: entry.kind } },
      h(
        "div",
        { class: "entry-main" },
        // A kind this client does not know yet is shown by its code rather than not at all.
        h("strong", {}, has(`ledger.${entry.kind}`) ? t(`ledger.${entry.kind}`) : entry.kind),
        h("small", { class: "hint" }, formatDate(entry.at)),
      ),
      h(
        "div",
        { class: "entry-coins" },
        coins(entry.amount, { signed: true, cls: "net" }),
        h("span", { class: "meta after" }, t("statement.after"), " ", coins(entry.balance)),
      ),
      entry.kind === "payout" && entry.table
        ? h("div", { class: "entry-links" }, h("a", { class: "btn small", href: `#replay=${encodeURIComponent(entry.table)}` }, t("end.replay")))
        : null,
    );
  }
}
