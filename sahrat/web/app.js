// The client's entry point: one connection, one screen at a time (lobby,
// table, replay), chosen by the server's messages and the address's hash:
//   /#code=ABC123   join a private table by its code
//   /#table=ID      the public table we sit at (re-joined after a reload)
//   /#replay=ID     a finished game's replay

import { h, fill, toast } from "./dom.js";
import { t, has, lang, setLang } from "./i18n.js";
import { cardText } from "./cards.js";
import { Connection, randomSeed } from "./net.js";
import { setClock } from "./seats.js";
import { Lobby } from "./lobby.js";
import { TableScreen } from "./table-screen.js";
import { Replay } from "./replay.js";
import { loadGames } from "./rules.js";

// Errors after which a game component must let the player choose again.
const REFUSALS = new Set(["illegal_move", "stale", "not_your_turn", "wrong_phase", "bad_field"]);

const CARD_CODE = /^(?:[A2-9TJQK][SHDC]|JK)$/;

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
    this.lobby = new Lobby(this.conn, {
      playNow: (game) => this.conn.send("play_now", { game }),
      join: (table) => this.conn.send("join", { table }),
      joinCode: (code) => this.conn.send("join", { code }),
      create: (fields) => this.conn.send("create", fields),
    });
    this.screen = null; // the mounted screen object
    this.tableScreen = null;
    this.replay = null;
    // A finished table we went back to the lobby from: its late messages are ignored.
    this.leftTables = new Set();
    this.statusDot = h("span", { class: "link-status", role: "status" });
    this.nameEl = h("span", { class: "me", dir: "auto" });
    this.langButton = h("button", { type: "button", class: "btn ghost small lang-toggle", on: { click: () => this.toggleLang() } });
    this.lobbyButton = h("button", { type: "button", class: "brand", on: { click: () => this.brandClick() } });
    this.header = h(
      "header",
      { class: "app-head" },
      this.lobbyButton,
      h("div", { class: "head-end" }, this.nameEl, this.statusDot, this.langButton),
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
      this.nameEl.textContent = m.player.name;
      // A move sent just before the link dropped may never be answered: choose again.
      if (this.tableScreen) this.tableScreen.refused();
      conn.send("lobby");
      this.joinFromHash();
    });
    conn.on("lobby", (m) => this.lobby.update(m.tables));
    conn.on("table", (m) => this.onTable(m));
    conn.on("chat_history", (m) => {
      if (this.tableScreen && this.tableScreen.tableId === m.table) this.tableScreen.chat.history(m.messages);
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
    conn.on("left", () => this.goLobby());
    conn.on("error", (m) => this.onError(m));
  }

  // -- screens --------------------------------------------------------------------------

  mount(screen) {
    if (this.screen && this.screen !== screen && this.screen.destroy) this.screen.destroy();
    this.screen = screen;
    fill(this.content, screen.el);
    document.body.dataset.screen = screen.el.id || "";
  }

  goLobby() {
    if (this.tableScreen) {
      const msg = this.tableScreen.msg;
      if (msg && msg.table.status === "finished") this.leftTables.add(msg.table.id);
    }
    this.tableScreen = null;
    this.replay = null;
    this.setHash("");
    this.mount(this.lobby);
  }

  /** The logo leads to the lobby, but never silently out of a game: leaving is a button of its own. */
  brandClick() {
    const msg = this.tableScreen && this.tableScreen.msg;
    if (msg && msg.table.status !== "finished") toast(t("table.leaveFirst"));
    else this.goLobby();
  }

  leave() {
    if (this.tableScreen && this.tableScreen.msg && this.tableScreen.msg.table.status !== "finished") {
      this.conn.send("leave");
    }
    this.goLobby();
  }

  openReplay(tableId) {
    if (this.tableScreen && this.tableScreen.msg) this.leftTables.add(this.tableScreen.msg.table.id);
    this.tableScreen = null;
    this.setHash(`replay=${tableId}`);
    this.replay = new Replay(tableId, { toLobby: () => this.goLobby() });
    this.mount(this.replay);
  }

  onTable(msg) {
    const id = msg.table.id;
    if (this.leftTables.has(id)) return;
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
      if (this.pendingHistory && this.pendingHistory.table === id) this.tableScreen.chat.history(this.pendingHistory.messages);
      this.pendingHistory = null;
      this.replay = null;
      this.mount(this.tableScreen);
    }
    this.setHash(msg.table.code ? `code=${msg.table.code}` : `table=${id}`);
    this.tableScreen.update(msg);
  }

  onError(m) {
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
      text = has("error." + m.code) ? t("error." + m.code) : m.message;
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
    const replay = params.get("replay");
    if (replay) {
      if (!this.replay || this.replay.tableId !== replay) {
        this.replay = new Replay(replay, { toLobby: () => this.goLobby() });
        this.mount(this.replay);
      }
      return;
    }
    if (!this.screen || (changed && this.screen === this.replay)) this.mount(this.lobby);
    if (changed) this.joinFromHash();
  }

  joinFromHash() {
    if (this.conn.status !== "open") return;
    const params = this.hashParams();
    const code = params.get("code");
    const table = params.get("table");
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
    if (this.tableScreen) this.tableScreen.relabel();
    if (this.replay) this.replay.relabel();
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
