// What a table does besides drawing the game, for every game: the sounds
// (your turn, a card played, a capture, a canasta, a win), a vibration where
// the device allows, a large countdown in your last five seconds, and, while
// the tab is in the background, "your turn" in the page title and favicon.
// It reads only the table messages, so a game's own component stays unaware.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { play, buzz, muteSwitch } from "./sound.js";

const HURRY = 5; // seconds: the big countdown, with a tick and a buzz
const ICON = "/static/favicon.svg";
const TURN_ICON = "/static/favicon-turn.svg";
let now = () => Date.now() / 1000;

/** Where to read the server's time from (net.Connection.serverNow). */
export function setFeelClock(fn) {
  now = fn;
}

function baseCount(view) {
  const marbles = (view && view.marbles) || {};
  return Object.values(marbles).reduce((n, locs) => n + locs.filter((loc) => loc === "b").length, 0);
}

function canastas(view) {
  const melds = (view && view.melds) || [];
  return melds.flat().filter((meld) => meld && meld.cards && meld.cards.length >= 7).length;
}

export class TableFeel {
  constructor() {
    this.prev = null;
    this.mute = muteSwitch(); // shown in the table's header, where the sounds are
    this.number = h("span", { class: "big-clock-n" });
    this.clock = h("div", { class: "big-clock", role: "timer", hidden: true }, this.number);
    this.warned = null; // the deadline whose last seconds were announced
    this.ticker = null;
    this.onVisible = () => this.attention();
    document.addEventListener("visibilitychange", this.onVisible);
  }

  mine(msg) {
    return !!msg && msg.table.status === "playing" && msg.to_move === msg.you && Array.isArray(msg.legal);
  }

  /** A new table message; `anchor`: where the countdown goes (by the hand), else the screen. */
  update(msg, anchor) {
    const prev = this.prev;
    this.prev = msg;
    if (anchor && this.clock.parentNode !== anchor) anchor.appendChild(this.clock);
    const mine = this.mine(msg);
    if (prev) this.sounds(prev, msg, mine);
    this.msg = msg;
    if (mine && !this.ticker) this.ticker = setInterval(() => this.tick(), 200);
    this.tick();
    this.attention();
  }

  sounds(prev, msg, mine) {
    const newest = (m) => ((m.last || []).length ? m.last[m.last.length - 1].at : null);
    const finished = msg.table.status === "finished" && prev.table.status !== "finished";
    if (finished && msg.result && (msg.result.winners || []).includes(msg.you)) play("win");
    else if (msg.view && prev.view && baseCount(msg.view) > baseCount(prev.view)) play("capture");
    else if (msg.view && prev.view && canastas(msg.view) > canastas(prev.view)) play("canasta");
    else if (mine && !this.mine(prev)) play("turn");
    else if (newest(msg) !== null && newest(msg) !== newest(prev)) play("card");
    if (mine && !this.mine(prev)) buzz(80);
  }

  tick() {
    const msg = this.msg;
    // The table left the screen: nothing more to count or to flag.
    if (!this.clock.isConnected) return this.stop();
    const mine = this.mine(msg);
    const left = mine && msg.deadline ? msg.deadline - now() : Infinity;
    const hurry = left <= HURRY && left > 0;
    this.clock.hidden = !hurry;
    this.clock.classList.toggle("hurry", hurry);
    if (hurry) {
      const n = Math.ceil(left);
      this.number.textContent = String(n);
      this.clock.setAttribute("aria-label", t("clock.left", { n }));
      this.clock.dataset.left = String(n);
      if (this.warned !== msg.deadline) {
        this.warned = msg.deadline;
        play("tick");
        buzz([60, 80, 60]);
      }
    }
    if (!mine && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = null;
    }
  }

  /** "Your turn" in the title and the favicon while the page is hidden. */
  attention() {
    const flag = document.hidden && this.mine(this.msg) && this.clock.isConnected;
    const link = document.querySelector("link[rel=icon]");
    document.documentElement.dataset.yourTurn = flag ? "1" : "0";
    if (flag) {
      document.title = t("turn.title");
      if (link) link.href = TURN_ICON;
    } else {
      if (document.title === t("turn.title")) document.title = t("app.title");
      if (link && !link.href.endsWith(ICON)) link.href = ICON;
    }
  }

  stop() {
    clearInterval(this.ticker);
    this.ticker = null;
    this.msg = null;
    document.removeEventListener("visibilitychange", this.onVisible);
    this.attention();
  }
}
