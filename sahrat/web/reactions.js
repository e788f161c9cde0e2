// Quick reactions (a few emoji) and quick phrases (Gulf Arabic and English):
// a button by the table opens them; what anyone sends shows on their seat
// for a few seconds. The server knows them by id only (protocol §2, react),
// so each player reads a phrase in their own language. A player may be
// muted: their reactions and chat lines are no longer shown (kept in this
// browser, per player id).

import { h, fill, toast } from "./dom.js";
import { t } from "./i18n.js";

export const EMOJI = { clap: "👏", laugh: "😂", fire: "🔥", wow: "😮", sad: "😢", angry: "😠" };
export const PHRASES = ["yalla", "well_played", "unlucky", "sorry", "thanks", "good_game"];
const SHOWN_MS = 3500;
const MUTE_KEY = "sahrat.muted";

function loadMuted() {
  try {
    const list = JSON.parse(localStorage.getItem(MUTE_KEY) || "[]");
    return new Set(Array.isArray(list) ? list.filter((p) => typeof p === "string") : []);
  } catch {
    return new Set();
  }
}

const muted = loadMuted();

export function isMuted(player) {
  return typeof player === "string" && muted.has(player);
}

export function toggleMute(player) {
  if (muted.has(player)) muted.delete(player);
  else muted.add(player);
  try {
    localStorage.setItem(MUTE_KEY, JSON.stringify([...muted]));
  } catch {
    /* muted for this page only */
  }
  return muted.has(player);
}

/** A reaction's words: the emoji itself, or the phrase in the page's language. */
export function reactionText(id) {
  return EMOJI[id] || t("phrase." + id);
}

export class Reactions {
  /** `screen`: the table screen ({msg, el}); `onMute()`: the chat re-renders. */
  constructor(conn, screen, onMute) {
    this.conn = conn;
    this.screen = screen;
    this.onMute = onMute;
    this.open = false;
    this.toTeam = false;
    this.button = h("button", {
      type: "button",
      class: "btn react-toggle",
      dataset: { action: "reactions" },
      "aria-expanded": "false",
      on: { click: () => this.setOpen(!this.open) },
    });
    this.panel = h("div", { class: "react-panel", hidden: true, role: "dialog" });
    this.layer = h("div", { class: "reaction-layer", "aria-live": "polite" });
    this.el = h("div", { class: "reactions" }, this.panel, this.button);
    this.render();
  }

  setOpen(open) {
    this.open = open;
    this.render();
  }

  send(id, channel) {
    if (this.conn.send("react", { reaction: id, channel }) !== null) this.setOpen(false);
  }

  render() {
    this.button.textContent = "😊";
    this.button.setAttribute("aria-label", t("react.open"));
    this.button.title = t("react.open");
    this.button.setAttribute("aria-expanded", String(this.open));
    this.panel.hidden = !this.open;
    if (!this.open) return;
    const msg = this.screen.msg;
    const team = !!msg && msg.seats.length === 4;
    const me = msg ? msg.you : null;
    const others = msg ? msg.seats.filter((seat) => !seat.empty && !seat.bot && seat.seat !== me) : [];
    fill(
      this.panel,
      h(
        "div",
        { class: "react-emoji", role: "group", "aria-label": t("react.emoji") },
        Object.entries(EMOJI).map(([id, emoji]) =>
          h("button", { type: "button", class: "react-btn", dataset: { reaction: id }, "aria-label": t("react." + id), title: t("react." + id), on: { click: () => this.send(id, "table") } }, emoji),
        ),
      ),
      h(
        "div",
        { class: "react-phrases", role: "group", "aria-label": t("react.phrases") },
        PHRASES.map((id) =>
          h("button", { type: "button", class: "btn small phrase-btn", dataset: { reaction: id }, on: { click: () => this.send(id, this.toTeam ? "team" : "table") } }, t("phrase." + id)),
        ),
      ),
      team
        ? h(
            "label",
            { class: "check react-team" },
            h("input", { type: "checkbox", checked: this.toTeam, on: { change: (e) => (this.toTeam = e.target.checked) } }),
            h("span", {}, t("react.toTeam")),
          )
        : null,
      others.length
        ? h(
            "div",
            { class: "react-mutes", role: "group", "aria-label": t("react.muteTitle") },
            h("span", { class: "hint" }, t("react.mute")),
            others.map((seat) =>
              h(
                "button",
                {
                  type: "button",
                  class: ["btn small mute-btn", isMuted(seat.player) ? "on" : ""],
                  "aria-pressed": String(isMuted(seat.player)),
                  dataset: { mute: seat.player },
                  on: { click: () => this.mute(seat) },
                },
                isMuted(seat.player) ? "🔇 " : "🔈 ",
                h("bdi", {}, seat.name),
              ),
            ),
          )
        : null,
    );
  }

  mute(seat) {
    const now = toggleMute(seat.player);
    toast(t(now ? "react.muted" : "react.unmuted", { name: seat.name }));
    this.render();
    this.onMute();
  }

  /** A `react` message: a bubble on the sender's seat (unless they are muted). */
  show(m) {
    const msg = this.screen.msg;
    const seat = msg && msg.seats.find((s) => s.seat === m.seat);
    if (!seat || isMuted(seat.player)) return false;
    const bubble = h(
      "div",
      { class: ["reaction-bubble", EMOJI[m.reaction] ? "emoji" : "phrase", m.channel === "team" ? "team" : ""], dataset: { seat: String(m.seat), reaction: m.reaction } },
      EMOJI[m.reaction] ? null : h("bdi", { class: "who" }, seat.name, ": "),
      reactionText(m.reaction),
    );
    if (!this.layer.isConnected) this.screen.el.append(this.layer);
    this.layer.append(bubble);
    this.place(bubble, m.seat);
    setTimeout(() => bubble.classList.add("fade"), SHOWN_MS - 500);
    setTimeout(() => bubble.remove(), SHOWN_MS);
    return true;
  }

  /** Over the seat's label where it is on screen; else at the top of the table. */
  place(bubble, seatNumber) {
    const chips = [...this.screen.el.querySelectorAll(`.seat-chip[data-seat="${seatNumber}"]`)];
    const chip = chips.find((el) => el.getClientRects().length);
    if (!chip) {
      bubble.style.setProperty("inset-inline-start", "50%");
      bubble.style.setProperty("top", "96px");
      return;
    }
    const box = chip.getBoundingClientRect();
    bubble.style.setProperty("left", `${Math.max(4, Math.min(window.innerWidth - 140, box.left + box.width / 2 - 30))}px`);
    bubble.style.setProperty("top", `${Math.max(4, box.top - 36)}px`);
  }
}
