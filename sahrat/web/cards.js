// Playing cards on screen. Codes are the engines': rank A 2 … 9 T J Q K,
// suit S H D C, and JK for a Buraco joker.

import { h } from "./dom.js";
import { t, lang } from "./i18n.js";

export const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANKS = "A23456789TJQK";
// Black and red alternate, so neighbouring suits in a sorted hand never blur.
const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 };

export function parseCard(code) {
  if (code === "JK") return { code, joker: true, rank: "JK", suit: "" };
  return { code, joker: false, rank: code[0], suit: code[1] };
}

export function rankLabel(rank) {
  return rank === "T" ? "10" : rank;
}

export function isRed(code) {
  return code[1] === "H" || code[1] === "D";
}

/** The card in words, for screen readers and tooltips: "7 ♥ (هاص)". */
export function cardName(code) {
  const card = parseCard(code);
  if (card.joker) return t("card.joker");
  return `${t("rank." + card.rank)} ${t("suit." + card.suit)}`;
}

/** Short text for the card, as printed on it: "7♥", "10♦", "★". */
export function cardText(code) {
  const card = parseCard(code);
  return card.joker ? "★" : rankLabel(card.rank) + SUIT_SYMBOL[card.suit];
}

/** A hand sorted by suit, then rank (ace low), jokers last: Buraco's reading order. */
export function sortHand(codes) {
  const key = (code) => {
    const card = parseCard(code);
    if (card.joker) return 100;
    return SUIT_ORDER[card.suit] * 20 + RANKS.indexOf(card.rank);
  };
  return [...codes].sort((a, b) => key(a) - key(b));
}

/**
 * One card. With `onClick` it is a button (selectable, keyboard reachable);
 * without, a plain picture. Options: selected, disabled, size ("sm"|"md"|"lg"), extra class.
 */
export function cardEl(code, options = {}) {
  const card = parseCard(code);
  const classes = ["card", options.size || "md", card.joker ? "joker" : "", isRed(code) ? "red" : "black"];
  if (options.selected) classes.push("selected");
  if (options.playable) classes.push("playable");
  if (options.extra) classes.push(options.extra);
  const face = [
    h("span", { class: "rank" }, card.joker ? "★" : rankLabel(card.rank)),
    h("span", { class: "suit" }, card.joker ? t("card.jokerShort") : SUIT_SYMBOL[card.suit]),
  ];
  // The name read out starts with what is printed on the card ("J♥, ولد هاص ♥"), so a
  // voice command naming what the eye sees finds the card.
  const props = {
    class: classes,
    title: cardName(code),
    "aria-label": card.joker ? null : `${cardText(code)}${lang() === "ar" ? "،" : ","} ${cardName(code)}`,
    dataset: { code },
  };
  if (!options.onClick) return h("span", { ...props, role: "img" }, face);
  return h(
    "button",
    {
      ...props,
      type: "button",
      "aria-pressed": options.selected ? "true" : "false",
      disabled: options.disabled,
      on: { click: () => options.onClick(code) },
    },
    face,
  );
}

/** A face-down card (the stock, a morto). */
export function backEl(size = "md", label = "") {
  // A back says nothing by itself: unnamed, it is hidden from screen readers (the pile's
  // own words say what it is); named, it is an image with that name.
  const named = label ? { role: "img", "aria-label": label } : { "aria-hidden": "true" };
  return h("span", { class: ["card", "back", size], ...named });
}
