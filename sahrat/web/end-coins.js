// The end card's coins: what each seat won or lost at a coin table, and the
// table fee the house took (the table message's `coins` at the end).

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { coins } from "./coins.js";

/** `settlement`: {stake, pot, fee, paid: {seat: n}, net: {seat: n}}; `seats` and `you` as in `table`. */
export function coinsSummary(settlement, seats, you) {
  const net = settlement.net || {};
  return h(
    "div",
    { class: "end-coins", dataset: { fee: String(settlement.fee), pot: String(settlement.pot) } },
    h("h3", { class: "panel-title" }, t("coins.settled")),
    h(
      "ul",
      { class: "end-coins-list" },
      seats
        .filter((seat) => !seat.empty)
        .map((seat) =>
          h(
            "li",
            { class: seat.seat === you ? "mine" : "", dataset: { seat: String(seat.seat), net: String(net[seat.seat] ?? 0) } },
            h("span", { class: "end-name", dir: "auto" }, seat.name, seat.seat === you ? ` ${t("coins.you")}` : ""),
            seat.left ? h("small", { class: "hint" }, t("coins.leftNothing")) : null,
            coins(net[seat.seat] ?? 0, { signed: true, cls: "net" }),
          ),
        ),
    ),
    h(
      "p",
      { class: "end-fee" },
      h("span", {}, t("coins.pot"), " ", coins(settlement.pot)),
      h("span", {}, t("coins.fee"), " ", coins(settlement.fee)),
    ),
  );
}
