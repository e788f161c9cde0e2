// The replay of a finished game, frame by frame with every hand visible
// (GET /api/records/{id}/replay). Reached from the end-of-game card and by
// the address /#replay=TABLEID.

import { h, s, fill } from "./dom.js";
import { t, lang } from "./i18n.js";
import { gameParts } from "./games.js";
import { verifyAnchor } from "./table-screen.js";
import { withNames } from "./bidi.js";
import { muteSwitch } from "./sound.js";

const PLAY_MS = 700;
const SPEEDS = [0.5, 1, 2, 4];

// Player controls drawn as SVG: the media symbols (⏮ ⏭ ⏸) are missing from
// many system fonts. Paths point left-to-right; the page mirrors the steps in
// Arabic (they follow the moves' reading order, as the slider does), but never
// play and pause: those are the same sign in every language.
const ICONS = {
  first: "M4 3h2v10H4zM14 3v10L7 8z",
  prev: "M12 3v10L5 8z",
  play: "M5 3v10l8-5z",
  pause: "M4 3h3v10H4zM9 3h3v10H9z",
  next: "M4 3v10l7-5z",
  last: "M10 3h2v10h-2zM2 3v10l7-5z",
};

function icon(name) {
  const still = name === "play" || name === "pause";
  return s("svg", { class: ["icon", still ? "noflip" : "flip"], viewBox: "0 0 16 16", "aria-hidden": "true", dataset: { icon: name } }, s("path", { d: ICONS[name] }));
}

export class Replay {
  constructor(tableId, app) {
    this.tableId = tableId;
    this.app = app;
    this.data = null;
    this.index = 0;
    this.timer = null;
    this.speed = 1;
    this.shownIndex = 0;
    this.stepAction = null;
    this.mute = muteSwitch();
    this.viewSeat = null;
    this.view = null; // the game's drawing of a frame (games.js), made when the record is in
    this.el = h("main", { class: "replay-screen", id: "replay", dataset: { table: tableId } });
    this.body = h("div", { class: "replay-body" });
    this.controls = h("div", { class: "replay-controls" });
    this.words = h("p", { class: "replay-words", "aria-live": "polite" });
    this.head = h("header", { class: "table-head" });
    this.list = h("ol", { class: "replay-moves" });
    this.listBox = h("details", { class: "panel replay-list", open: true }, h("summary", { class: "panel-title" }), this.list);
    fill(this.el, this.head, this.controls, this.words, this.body, this.listBox);
    fill(this.body, h("p", { class: "hint" }, t("replay.loading")));
    this.load();
    this.keys = (event) => {
      if (event.target.closest("input, textarea, select")) return;
      const rtl = document.documentElement.dir === "rtl";
      if (event.key === "ArrowRight") this.go(this.index + (rtl ? -1 : 1));
      if (event.key === "ArrowLeft") this.go(this.index + (rtl ? 1 : -1));
    };
    document.addEventListener("keydown", this.keys);
  }

  destroy() {
    clearInterval(this.timer);
    document.removeEventListener("keydown", this.keys);
  }

  async load() {
    try {
      const response = await fetch(`/api/records/${encodeURIComponent(this.tableId)}/replay`);
      const body = await response.json();
      if (!response.ok) throw new Error(body.error || response.statusText);
      this.data = body;
      this.viewSeat = body.players.length ? body.players[0].seat : 0;
      this.render();
    } catch (error) {
      fill(this.body, h("p", { class: "notice error" }, t("replay.failed"), " ", h("span", { dir: "ltr" }, String(error.message || error))));
      this.renderHead();
    }
  }

  go(index) {
    if (!this.data) return;
    this.index = Math.max(0, Math.min(this.data.frames.length - 1, index));
    if (this.index === this.data.frames.length - 1) this.pause();
    this.render();
  }

  play() {
    if (this.timer) return this.pause();
    if (this.index >= this.data.frames.length - 1) this.index = 0;
    this.timer = setInterval(() => this.go(this.index + 1), PLAY_MS / this.speed);
    this.render();
  }

  pause() {
    clearInterval(this.timer);
    this.timer = null;
  }

  setSpeed(speed) {
    this.speed = speed;
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = setInterval(() => this.go(this.index + 1), PLAY_MS / this.speed);
    }
    this.render();
  }

  /** Every move in words; the one on the board is marked, a tap goes to any. */
  renderList() {
    const frames = this.data.frames;
    this.listBox.firstChild.textContent = t("replay.moves");
    const key = lang();
    const names = this.data.players.map((p) => p.name);
    fill(
      this.list,
      frames.map((frame, i) =>
        h(
          "li",
          {},
          h(
            "button",
            { type: "button", dataset: { frame: String(i) }, "aria-current": i === this.index ? "step" : null, on: { click: () => this.go(i) } },
            `${i}. `,
            frame.words ? withNames(frame.words[key] || frame.words.en, names) : t("replay.start"),
          ),
        ),
      ),
    );
    const current = this.list.querySelector("[aria-current]");
    if (current && this.list.scrollHeight > this.list.clientHeight) {
      this.list.scrollTop = current.parentNode.offsetTop - this.list.clientHeight / 2;
    }
  }

  relabel() {
    this.render();
  }

  renderHead() {
    fill(
      this.head,
      h("span", { class: "game-badge" }, t("replay.title")),
      this.data ? h("span", { class: "rules" }, t("game." + this.data.game)) : null,
      this.data
        ? h("span", { class: "meta" }, this.data.players.map((p) => p.name + (p.bot ? ` (${t("badge.bot")})` : "")).join(" · "))
        : null,
      verifyAnchor(this.tableId, "btn small", t("end.verify")),
      this.mute.render(),
      h("button", { type: "button", class: "btn ghost small", on: { click: () => this.app.toLobby() } }, t("table.toLobby")),
    );
  }

  render() {
    this.renderHead();
    if (!this.data) return;
    const frames = this.data.frames;
    const frame = frames[this.index];
    const last = frames.length - 1;
    const button = (action, title, disabled, name = action) =>
      h("button", { type: "button", class: ["btn", "small", "icon-btn", action === "play" ? "primary" : ""], title, "aria-label": title, dataset: { step: action }, disabled, on: { click: () => this.step(action) } }, icon(name));
    fill(
      this.controls,
      button("first", t("replay.first"), this.index === 0),
      button("prev", t("replay.prev"), this.index === 0),
      button("play", t(this.timer ? "replay.pause" : "replay.play"), false, this.timer ? "pause" : "play"),
      button("next", t("replay.next"), this.index === last),
      button("last", t("replay.last"), this.index === last),
      h("input", {
        type: "range",
        min: "0",
        max: String(last),
        value: String(this.index),
        "aria-label": t("replay.frame"),
        on: { input: (e) => this.go(Number(e.target.value)) },
      }),
      h("span", { class: "frame-count", dataset: { frame: String(this.index) } }, t("replay.count", { i: this.index, n: last })),
      h(
        "label",
        { class: "replay-speed-label" },
        t("replay.speed"),
        " ",
        h(
          "select",
          { class: "replay-speed", dataset: { action: "speed" }, on: { change: (e) => this.setSpeed(Number(e.target.value)) } },
          SPEEDS.map((x) => h("option", { value: String(x), selected: x === this.speed }, `${x}×`)),
        ),
      ),
    );
    this.renderList();
    const words = frame.words ? frame.words[lang()] || frame.words.en : t("replay.start");
    fill(this.words, withNames(words, this.data.players.map((p) => p.name)));

    // The action that led here, when the replay moved one step on (the view may show it moving).
    this.stepAction = this.index === this.shownIndex + 1 ? frame.action : null;
    this.shownIndex = this.index;
    if (!this.view) this.view = new (gameParts(this.data.game).ReplayView)(this);
    this.view.render(frame.position);
  }

  step(action) {
    if (action === "first") this.go(0);
    if (action === "prev") this.go(this.index - 1);
    if (action === "next") this.go(this.index + 1);
    if (action === "last") this.go(this.data.frames.length - 1);
    if (action === "play") this.play();
  }

  nameOf(seat) {
    const player = this.data.players.find((p) => p.seat === seat);
    return player ? player.name : t("room.seat", { n: seat + 1 });
  }
}
