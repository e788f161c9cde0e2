// The table options each game accepts, mirrored from the engines
// (sahrat/games/jackaroo/options.py CHOICES and PRESETS,
// sahrat/games/buraco/options.py CHOICES), with their words on screen.
// The server checks every option again; this only builds the form.

import { t } from "./i18n.js";

export const JACKAROO_CHOICES = {
  deal: ["5-4-4", "4-each"],
  pass_own: [true, false],
  barrier: [true, false],
  start_guard: ["own", "any"],
  king: ["plain", "sweep", "breaker"],
  five: ["own", "any"],
  ten: ["move", "move-or-burn"],
  stuck_hand: ["burn-one", "burn-all"],
};

export const JACKAROO_PRESETS = {
  sahrat: {
    deal: "5-4-4", pass_own: true, barrier: false, start_guard: "own",
    king: "sweep", five: "any", ten: "move-or-burn", stuck_hand: "burn-one",
  },
  classic: {
    deal: "4-each", pass_own: false, barrier: true, start_guard: "own",
    king: "plain", five: "own", ten: "move", stuck_hand: "burn-all",
  },
  complex: {
    deal: "4-each", pass_own: false, barrier: true, start_guard: "any",
    king: "breaker", five: "any", ten: "move", stuck_hand: "burn-one",
  },
};

export const BURACO_CHOICES = {
  target: [2000, 1000, 3000],
  sets: [false, true],
  closed: [false, true],
};

export const TURN_TIMES = [10, 15, 20, 30, 45, 60, 90];

/** One option's value in words: "الشايب ياكل كل بلية يتخطاها". */
export function optionWords(game, name, value) {
  return t(`opt.${game}.${name}.${String(value)}`);
}

/** A table's rules in a few words, for the lobby and the table header. */
export function rulesSummary(game, options) {
  if (game === "jackaroo") {
    const preset = options.preset || "sahrat";
    const parts = [t(`preset.${preset}`)];
    for (const [name, value] of Object.entries(options)) {
      if (name === "preset" || name === "seats") continue;
      parts.push(optionWords("jackaroo", name, value));
    }
    return parts;
  }
  const parts = [t("buraco.target", { n: options.target || 2000 })];
  if (options.sets) parts.push(optionWords("buraco", "sets", true));
  if (options.closed) parts.push(t("buraco.closedShort"));
  return parts;
}

/** The seat count a table's options say. */
export function seatCount(game, options) {
  return game === "jackaroo" ? options.seats || 4 : options.players || 4;
}
