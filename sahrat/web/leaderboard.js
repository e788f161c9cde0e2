// The leaderboard (#account&people=leaderboard): a tab per game, all time or
// this week, by rating or by wins, page by page, and your own rank under the
// page when it is not on it.

import { h, fill } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";
import { tp, peopleError } from "./i18n-people.js";
import { personButton } from "./people.js";

const GAMES = ["jackaroo", "buraco"];
const PAGE_SIZE = 20;

export class LeaderboardView {
  constructor(app) {
    this.app = app;
    this.state = { game: GAMES[0], period: "all", by: "rating", page: 1 };
    this.board = null; // the latest answer
    this.error = null;
    this.asked = 0;
    this.el = h("section", { class: "panel leaderboard", id: "leaderboard" });
    // Opened by its address, the board may come before the server says who we are.
    this.unlisten = app.account.on(() => this.render());
    this.render();
    this.load();
  }

  destroy() {
    this.unlisten();
  }

  set(change) {
    this.state = { ...this.state, page: 1, ...change };
    this.render();
    this.load();
  }

  async load() {
    const asked = ++this.asked;
    const { game, period, by, page } = this.state;
    const query = new URLSearchParams({ period, by, page: String(page), limit: String(PAGE_SIZE) });
    const { ok, data } = await api("GET", `/api/leaderboards/${game}?${query}`);
    if (asked !== this.asked) return; // a newer choice is on its way
    this.board = ok ? data : null;
    this.error = ok ? null : data;
    this.render();
  }

  segment(name, value, key) {
    const on = this.state[name] === value;
    return h(
      "button",
      { type: "button", class: ["seg", on ? "on" : ""], "aria-pressed": String(on), dataset: { [name]: value }, on: { click: () => this.set({ [name]: value }) } },
      tp(key),
    );
  }

  render() {
    const { game } = this.state;
    const tabs = h(
      "div",
      { class: "tabs game-tabs", role: "tablist" },
      GAMES.map((g) =>
        h(
          "button",
          { type: "button", class: "tab", role: "tab", "aria-selected": String(g === game), dataset: { game: g }, on: { click: () => this.set({ game: g }) } },
          t(`game.${g}`),
        ),
      ),
    );
    const choices = h(
      "div",
      { class: "board-choices" },
      h("div", { class: "segment", role: "group" }, this.segment("period", "all", "board.all"), this.segment("period", "week", "board.week")),
      h("div", { class: "segment", role: "group" }, this.segment("by", "rating", "board.byRating"), this.segment("by", "wins", "board.byWins")),
    );
    fill(this.el, h("h1", { class: "page-title" }, tp("people.leaderboard")), tabs, choices, this.body(), h("p", { class: "hint" }, tp("board.about")));
  }

  body() {
    if (this.error) return h("p", { class: "notice error", dataset: { code: this.error.code } }, peopleError(this.error));
    const board = this.board;
    if (!board) return h("p", { class: "hint" }, t("page.loading"));
    if (!board.entries.length) return h("p", { class: "hint board-empty" }, tp("board.empty", { n: board.min_games }));
    const me = this.app.account.me?.id;
    const head = h(
      "tr",
      {},
      h("th", { scope: "col" }, tp("board.rank")),
      h("th", { scope: "col" }, tp("board.player")),
      h("th", { scope: "col" }, tp(this.state.by === "wins" ? "board.wins" : "board.rating")),
      h("th", { scope: "col" }, tp("board.games")),
    );
    const rows = board.entries.map((entry) => this.row(entry, entry.player.id === me));
    const mine = board.me && !board.entries.some((e) => e.player.id === board.me.player.id);
    const table = h(
      "table",
      { class: "board" },
      h("thead", {}, head),
      h("tbody", {}, rows),
      mine ? h("tfoot", {}, h("tr", { class: "board-gap" }, h("td", { colspan: 4 }, tp("board.you"))), this.row(board.me, true)) : null,
    );
    const pager = h(
      "div",
      { class: "pager" },
      h("button", { type: "button", class: "btn small", dataset: { action: "prev" }, disabled: board.page <= 1, on: { click: () => this.turn(-1) } }, tp("board.prev")),
      h("span", { class: "hint" }, tp("board.page", { page: board.page, pages: board.pages })),
      h("button", { type: "button", class: "btn small", dataset: { action: "next" }, disabled: board.page >= board.pages, on: { click: () => this.turn(1) } }, tp("board.next")),
    );
    const notOn = me && !this.app.account.guest && !board.me ? h("p", { class: "hint" }, tp("board.notOn", { n: board.min_games })) : null;
    return [h("div", { class: "board-scroll" }, table), pager, notOn];
  }

  row(entry, you) {
    const value = this.state.by === "wins" ? String(entry.wins) : String(entry.rating);
    return h(
      "tr",
      { class: ["board-row", you ? "you" : ""], dataset: { player: entry.player.id, rank: String(entry.rank) } },
      h("td", { class: "rank" }, String(entry.rank)),
      h("td", {}, personButton(this.app, entry.player)),
      h(
        "td",
        { class: "num" },
        value,
        this.state.by === "rating" && entry.provisional
          ? h("span", { class: "provisional", title: tp("rating.provisionalAbout"), "aria-label": tp("rating.provisional") }, "?")
          : null,
      ),
      h("td", { class: "num" }, String(entry.games)),
    );
  }

  turn(step) {
    const pages = this.board ? this.board.pages : 1;
    const page = Math.min(pages, Math.max(1, this.state.page + step));
    if (page === this.state.page) return;
    this.state = { ...this.state, page };
    this.load();
  }
}
