// The client's entry point: one connection, one screen at a time (lobby,
// table, replay), chosen by the server's messages and the address's hash:
//   /#code=ABC123   join a private table by its code
//   /#table=ID      the public table we sit at (re-joined after a reload)
//   /#replay=ID     a finished game's replay
//   /#login, /#register, /#account, /#history, /#statement   the account's pages

import { h, fill, toast } from "./dom.js";
import { t, has, lang, setLang } from "./i18n.js";
import { cardText } from "./cards.js";
import { Connection, randomSeed } from "./net.js";
import { setClock } from "./seats.js";
import { Lobby } from "./lobby.js";
import { TableScreen } from "./table-screen.js";
import { Replay } from "./replay.js";
import { loadGames } from "./rules.js";
import { Account, HeaderAccount } from "./account.js";
import { AuthScreen } from "./auth.js";
import { AccountPage } from "./account-page.js";
import { HistoryPage, StatementPage } from "./history.js";
import { setFeelClock } from "./table-feel.js";
import { registerWorker } from "./install.js";
import { hasWatch, tw } from "./i18n-watch.js";

// Errors after which a game component must let the player choose again.
const REFUSALS = new Set(["illegal_move", "stale", "not_your_turn", "wrong_phase", "bad_field"]);

const CARD_CODE = /^(?:[A2-9TJQK][SHDC]|JK)$/;

// The account's pages, each reached by a bare hash (#history) and made afresh when shown.
const PAGES = {
  login: (app) => new AuthScreen("login", app),
  register: (app) => (app.account.guest ? new AuthScreen("register", app) : new AccountPage(app)),
  account: (app) => new AccountPage(app),
  history: () => new HistoryPage(),
  statement: (app) => new StatementPage(app.account),
};

/**
 * Why the rules refused a move, in the player's language: the server's reason
 * code and its params ({card}, {verb}); the generic words for a reason we do not know.
 */
function refusalText(reason) {
  const generic = t("error.illegal_move");
  if (!reason || typeof reason.code !== "string") return generic;
  const params = reason.params && typeof reason.params === "object" ? reason.params : {};
  let key = "refusal." + reason.code;
  if (!has(key)) return generic;
  if (typeof params.verb === "string" && has(`${key}.${params.verb}`)) key += "." + params.verb;
  const words = {};
  if ("card" in params) {
    if (!CARD_CODE.test(params.card)) return generic;
    // As printed on the card ("7♥"), isolated so a right-to-left sentence keeps it whole.
    const label = params.card === "JK" ? t("card.joker") : cardText(params.card);
    words.card = `\u2068${label}\u2069`;
  }
  const text = t(key, words);
  // A placeholder left unfilled (a param the server did not send) is never shown.
  return /\{\w+\}/.test(text) ? generic : text;
}

class App {
  constructor(root) {
    this.root = root;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    this.conn = new Connection(`${scheme}//${location.host}/ws`);
    setClock(() => this.conn.serverNow());
    setFeelClock(() => this.conn.serverNow());
    this.account = new Account();
    this.lobby = new Lobby(
      this.conn,
      {
        playNow: (game, stake) => this.conn.send("play_now", stake ? { game, stake } : { game }),
        join: (table) => this.conn.send("join", { table }),
        watch: (table) => this.watch({ table }),
        watchCode: (code) => this.watch({ code }),
        joinCode: (code) => this.conn.send("join", { code }),
        create: (fields) => this.conn.send("create", fields),
        go: (page) => this.go(page),
      },
      this.account,
    );
    this.screen = null; // the mounted screen object
    this.tableScreen = null;
    this.replay = null;
    // A finished table we went back to the lobby from: its late messages are ignored.
    this.leftTables = new Set();
    // Ids of messages whose refusal needs no word (leaving a table that let us go).
    this.quiet = new Set();
    this.statusDot = h("span", { class: "link-status", role: "status" });
    this.headAccount = new HeaderAccount(this.account, (page) => this.go(page));
    this.langButton = h("button", { type: "button", class: "btn ghost small lang-toggle", on: { click: () => this.toggleLang() } });
    this.lobbyButton = h("button", { type: "button", class: "brand", on: { click: () => this.brandClick() } });
    this.header = h(
      "header",
      { class: "app-head" },
      this.lobbyButton,
      h("div", { class: "head-end" }, this.headAccount.el, this.statusDot, this.langButton),
    );
    this.content = h("div", { class: "content" });
    fill(root, this.header, this.content);
    this.bind();
    this.relabel();
    this.route();
    this.conn.start();
    window.addEventListener("hashchange", () => this.route(true));
  }

  bind() {
    const conn = this.conn;
    conn.on("status", () => this.renderStatus());
    conn.on("welcome", (m) => {
      this.account.welcome(m.player);
      // A move sent just before the link dropped may never be answered: choose again.
      if (this.tableScreen) this.tableScreen.refused();
      conn.send("lobby");
      this.joinFromHash();
    });
    conn.on("lobby", (m) => this.lobby.update(m.tables, m.version));
    conn.on("lobby_changes", (m) => this.lobby.applyChanges(m, () => conn.send("lobby")));
    conn.on("table", (m) => this.onTable(m));
    conn.on("chat_history", (m) => {
      if (this.tableScreen && this.tableScreen.tableId === m.table) this.tableScreen.chatHistory(m);
      else this.pendingHistory = m;
    });
    conn.on("chat", (m) => {
      if (this.tableScreen && this.tableScreen.tableId === m.table) this.tableScreen.chat.add(m);
    });
    conn.on("seed_request", (m) => {
      // Our share of the shuffle: the server committed to its seed before seeing ours.
      const seed = randomSeed();
      conn.send("seed", { seed });
      try {
        sessionStorage.setItem(`sahrat.seed.${m.table}`, seed);
      } catch {
        /* not kept across reloads then */
      }
      if (this.tableScreen && this.tableScreen.tableId === m.table) this.tableScreen.mySeed = seed;
    });
    // The answer to our `leave`: only the table on screen takes us back to the lobby (a
    // finished table left for its replay does not).
    conn.on("left", (m) => {
      if (this.tableScreen && this.tableScreen.tableId === m.table) this.goLobby();
    });
    // The watch ended (we stopped, or the host closed the table to spectators).
    conn.on("unwatched", (m) => {
      if (this.tableScreen && this.tableScreen.spectator && this.tableScreen.tableId === m.table) {
        if (m.reason === "not_watchable") toast(tw("watch.closed"));
        this.watching = null;
        this.goLobby();
      }
    });
    // The table's people: play again, reactions, who left.
    const forTable = (handle) => (m) => {
      if (this.tableScreen && this.tableScreen.tableId === m.table) handle(this.tableScreen, m);
    };
    conn.on("rematch", forTable((screen, m) => screen.rematch.onStatus(m)));
    conn.on("react", forTable((screen, m) => screen.social.onReact(m)));
    conn.on("player_left", forTable((screen, m) => screen.social.onLeft(m)));
    // The next hand waits while the last one's summary is read (Buraco).
    conn.on("pause", forTable((screen, m) => screen.game?.onPause?.(m)));
    conn.on("error", (m) => this.onError(m));
  }

  // -- screens --------------------------------------------------------------------------

  mount(screen) {
    if (this.screen && this.screen !== screen && this.screen.destroy) this.screen.destroy();
    this.screen = screen;
    fill(this.content, screen.el);
    document.body.dataset.screen = screen.el.id || "";
  }

  /** Forget the table on screen; a finished one's late messages will be ignored. */
  dropTable() {
    if (this.tableScreen && this.tableScreen.spectator) this.stopWatching();
    else if (this.tableScreen) {
      const msg = this.tableScreen.msg;
      if (msg && msg.table.status === "finished") this.leaveFinished(msg.table.id);
    }
    this.tableScreen = null;
  }

  goLobby() {
    this.dropTable();
    this.replay = null;
    this.setHash("");
    this.mount(this.lobby);
  }

  /** Whether we sit at a game that is not over: then only the leave button takes us away. */
  inGame() {
    const msg = this.tableScreen && this.tableScreen.msg;
    return !!msg && msg.table.status !== "finished" && !this.tableScreen.spectator;
  }

  /** The logo leads to the lobby, but never silently out of a game: leaving is a button of its own. */
  brandClick() {
    if (this.inGame()) toast(t("table.leaveFirst"));
    else this.goLobby();
  }

  /** Show an account page ("history" …), or the lobby for ""; the address follows. */
  go(page) {
    if (this.inGame()) {
      toast(t("table.leaveFirst"));
      return;
    }
    if (!page) {
      this.goLobby();
      return;
    }
    this.dropTable();
    // A new history entry, so the browser's Back returns to where we were.
    if (location.hash === `#${page}`) this.route(true);
    else location.hash = page;
  }

  leave() {
    if (this.tableScreen && this.tableScreen.spectator) {
      this.stopWatching();
    } else if (this.tableScreen && this.tableScreen.msg && this.tableScreen.msg.table.status !== "finished") {
      this.conn.send("leave");
    }
    this.goLobby();
  }

  /** Watch a table: {table} (public) or {code} (private); asked again after a reconnect. */
  watch(target) {
    this.watching = target;
    this.conn.send("watch", target);
  }

  /** Stop watching the table on screen (a finished one has let us go already). */
  stopWatching() {
    if (!this.watching) return;
    this.watching = null;
    this.quiet.add(this.conn.send("unwatch"));
  }

  /** We went away from a finished table: its late messages are ignored, and the others
   * need not wait for us to play again. */
  leaveFinished(tableId) {
    if (this.leftTables.has(tableId)) return;
    this.leftTables.add(tableId);
    // After the linger the server has let us go already: its not_seated is no news.
    this.quiet.add(this.conn.send("leave", { table: tableId }));
  }

  openReplay(tableId) {
    if (this.tableScreen && this.tableScreen.msg) this.leaveFinished(this.tableScreen.msg.table.id);
    this.tableScreen = null;
    this.setHash(`replay=${tableId}`);
    this.replay = new Replay(tableId, { toLobby: () => this.goLobby() });
    this.mount(this.replay);
  }

  onTable(msg) {
    const id = msg.table.id;
    if (this.leftTables.has(id)) return;
    // A spectator's table we stopped watching: its late messages are no news.
    if (msg.spectator && !this.watching) return;
    // A seat's table after watching (we sat down): the old screen goes.
    if (!msg.spectator && this.tableScreen && this.tableScreen.spectator) {
      this.watching = null;
      this.tableScreen = null;
    }
    // A replay asked for by the address (a new tab) stays on screen: the table we still sit
    // at is shown when we go back to the lobby (a finished one is over for us).
    if (this.replay && this.screen === this.replay && this.hashParams().has("replay")) {
      // Not a `leave`: this player may still play again from the table's own tab.
      if (msg.table.status === "finished") this.leftTables.add(id);
      return;
    }
    this.coinsMayHaveMoved(msg.table);
    if (!this.tableScreen || this.tableScreen.tableId !== id) {
      this.tableScreen = new TableScreen(this.conn, {
        leave: () => this.leave(),
        toLobby: () => this.goLobby(),
        openReplay: (tableId) => this.openReplay(tableId),
      }, id);
      try {
        this.tableScreen.mySeed = sessionStorage.getItem(`sahrat.seed.${id}`);
      } catch {
        /* ignore */
      }
      if (this.pendingHistory && this.pendingHistory.table === id) this.tableScreen.chatHistory(this.pendingHistory);
      this.pendingHistory = null;
      this.replay = null;
      this.mount(this.tableScreen);
    }
    if (msg.spectator) this.setHash(msg.table.code ? `watchcode=${msg.table.code}` : `watch=${id}`);
    else this.setHash(msg.table.code ? `code=${msg.table.code}` : `table=${id}`);
    this.tableScreen.update(msg);
  }

  /** Stakes are taken when a coin game starts and paid when it ends: the balance is asked again. */
  coinsMayHaveMoved(table) {
    if (!(table.stake > 0)) return;
    const seen = this.coinTableSeen;
    if (seen && seen.id === table.id && seen.status === table.status) return;
    const first = !seen || seen.id !== table.id;
    this.coinTableSeen = { id: table.id, status: table.status };
    if (!first || table.status !== "waiting") this.account.refresh();
  }

  onError(m) {
    if (m.id !== undefined && this.quiet.has(m.id)) return;
    if (this.conn.social.hasWorded(m)) return; // a refused invitation: said in its words

    if (m.id !== undefined && m.id === this.hashJoin && !m.code.startsWith("rate")) {
      // The table in the address is over or gone (an old link, a reload after the end):
      // a wrong code deserves a word, a stale table of ours does not.
      this.setHash("");
      if (!this.hashJoinByCode) return;
    }
    let text;
    if (m.code === "illegal_move") {
      // The reason code says why, in our words; the server's English is for developers.
      text = refusalText(m.reason);
    } else {
      // insufficient_coins says how many are needed and, when joining, how many are held.
      const key = m.code === "insufficient_coins" && m.have === undefined ? "error.insufficient_coins.need" : "error." + m.code;
      text = has(key) ? t(key, { need: m.need ?? "", have: m.have ?? "" }) : hasWatch(key) ? tw(key) : m.message;
      // The server's words name the field that was wrong.
      if (m.code === "bad_field") text += ` — ${m.message}`;
    }
    toast(text, "error");
    if (REFUSALS.has(m.code) && this.tableScreen) this.tableScreen.refused();
    if (m.code === "no_such_table" && !this.tableScreen) this.setHash("");
  }

  // -- the address ---------------------------------------------------------------------

  hashParams() {
    return new URLSearchParams(location.hash.replace(/^#/, ""));
  }

  setHash(value) {
    const want = value ? `#${value}` : "";
    if (location.hash !== want) history.replaceState(null, "", location.pathname + location.search + want);
  }

  /** Show what the address asks for before the connection is up (a replay needs none). */
  route(changed = false) {
    const params = this.hashParams();
    const page = Object.keys(PAGES).find((name) => params.has(name));
    if (page) {
      if (this.inGame()) {
        // A page asked for while at a running game (a typed address): the game stays.
        this.setHash(this.tableScreen.msg.table.code ? `code=${this.tableScreen.msg.table.code}` : `table=${this.tableScreen.tableId}`);
        return;
      }
      this.dropTable();
      this.replay = null;
      this.mount(PAGES[page](this));
      return;
    }
    const replay = params.get("replay");
    if (replay) {
      if (!this.replay || this.replay.tableId !== replay) {
        this.replay = new Replay(replay, { toLobby: () => this.goLobby() });
        this.mount(this.replay);
      }
      return;
    }
    const elsewhere = this.screen !== this.lobby && this.screen !== this.tableScreen;
    if (!this.screen || (changed && elsewhere)) this.mount(this.lobby);
    if (changed) this.joinFromHash();
  }

  joinFromHash() {
    if (this.conn.status !== "open") return;
    const params = this.hashParams();
    const code = params.get("code");
    const table = params.get("table");
    // Watching survives a reload or a reconnect: the server does not keep spectators.
    const watchTable = params.get("watch");
    const watchCode = params.get("watchcode");
    if (watchTable || watchCode) {
      this.hashJoinByCode = !!watchCode;
      this.watching = watchCode ? { code: watchCode } : { table: watchTable };
      this.hashJoin = this.conn.send("watch", this.watching);
      return;
    }
    // Joining a table we already sit at just re-attaches us: always safe to ask.
    this.hashJoinByCode = !!code;
    if (code) this.hashJoin = this.conn.send("join", { code });
    else if (table) this.hashJoin = this.conn.send("join", { table });
  }

  // -- language and status --------------------------------------------------------------

  toggleLang() {
    setLang(lang() === "ar" ? "en" : "ar");
    this.relabel();
  }

  relabel() {
    document.title = t("app.title");
    this.lobbyButton.textContent = t("app.name");
    this.lobbyButton.setAttribute("aria-label", t("nav.lobby"));
    this.langButton.textContent = t("lang.switch");
    this.langButton.setAttribute("lang", lang() === "ar" ? "en" : "ar");
    this.renderStatus();
    this.lobby.render();
    this.headAccount.render();
    if (this.tableScreen) this.tableScreen.relabel();
    if (this.replay) this.replay.relabel();
    if (this.screen && this.screen.relabel && ![this.lobby, this.tableScreen, this.replay].includes(this.screen)) this.screen.relabel();
  }

  renderStatus() {
    const status = this.conn.status;
    this.statusDot.className = `link-status ${status}`;
    this.statusDot.dataset.status = status;
    this.statusDot.textContent = t("link." + status);
  }
}

// The lobby's forms and the tables' summaries need the games the server offers.
await loadGames();
window.sahrat = new App(document.getElementById("app"));
registerWorker();
