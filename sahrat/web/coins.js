// Coins on screen: amounts (with a coin mark, signed for wins and losses),
// the stake picker, and the coin settings the server lists (GET /api/coins:
// stakes, table fee, grants), read once.

import { h, s } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";

let settings = null;
let loading = null;

/** The coin settings ({stakes, fee_percent, starting_grant, daily_grant}), or null if unreachable. */
export function loadCoinSettings() {
  if (settings) return Promise.resolve(settings);
  loading ??= api("GET", "/api/coins").then(({ ok, data }) => {
    loading = null;
    if (ok && Array.isArray(data.stakes)) settings = data;
    return settings;
  });
  return loading;
}

/** The settings if already loaded (for a synchronous render), else null. */
export function coinSettings() {
  return settings;
}

/** 1234 → "1,234" in both languages: the digits players see on cards and clocks. */
export function formatCoins(n) {
  return Math.abs(n).toLocaleString("en-US");
}

export function coinIcon() {
  return s("svg", { class: "coin-icon", viewBox: "0 0 16 16", "aria-hidden": "true" },
    s("circle", { cx: 8, cy: 8, r: 7 }), s("circle", { class: "coin-inner", cx: 8, cy: 8, r: 4.2 }));
}

/**
 * An amount of coins: the mark and the number, kept left-to-right inside Arabic text.
 * `signed`: a gain shows "+", a loss "−", and the element is coloured by it.
 */
export function coins(n, { signed = false, cls = "" } = {}) {
  const sign = signed ? (n > 0 ? "+" : n < 0 ? "−" : "") : n < 0 ? "−" : "";
  const kind = signed ? (n > 0 ? "gain" : n < 0 ? "loss" : "even") : "";
  return h("span", { class: ["coins", kind, cls], dir: "ltr", dataset: { coins: String(n) } }, coinIcon(), sign + formatCoins(n));
}

/** A row of stake buttons (radio group); `onPick(stake)` on a press. */
export function stakePicker(stakes, current, onPick, { disabledAbove = null } = {}) {
  return h(
    "div",
    { class: "segment stakes", role: "radiogroup", "aria-label": t("coins.stake") },
    stakes.map((stake) =>
      h(
        "button",
        {
          type: "button",
          role: "radio",
          class: ["seg", stake === current ? "on" : "", disabledAbove !== null && stake > disabledAbove ? "short" : ""],
          "aria-checked": String(stake === current),
          dataset: { stake: String(stake) },
          on: { click: () => onPick(stake) },
        },
        formatCoins(stake),
      ),
    ),
  );
}

/** A coin table's kind, stake and pot (lobby rows, the table's header); null at a free table. */
export function stakeLine(table) {
  if (!(table.stake > 0)) return null;
  const pot = table.pot ?? table.stake * table.seats;
  return h(
    "span",
    { class: "stake-line", dataset: { stake: String(table.stake), pot: String(pot) } },
    h("span", { class: "badge coin" }, t("kind.coin")),
    h("span", { class: "stake" }, t("coins.stake"), " ", coins(table.stake)),
    h("span", { class: "pot" }, t("coins.pot"), " ", coins(pot)),
  );
}

