// The games the server offers and their table options, as GET /api/games lists
// them (each game's catalogue: seat counts, choices, presets, defaults), read
// once before the lobby shows, with their words on screen. Nothing about a
// game's rules is written here: the server checks every option again, and this
// only builds the form and the summaries.

import { t } from "./i18n.js";

/** The turn clocks a table may have: a platform setting, not a game's. */
export const TURN_TIMES = [10, 15, 20, 30, 45, 60, 90];

let catalogue = null; // the games, in the server's order
let loading = null;

/** Fetch /api/games once (trying again until the server answers); the list of games. */
export function loadGames() {
  if (catalogue) return Promise.resolve(catalogue);
  loading ??= (async () => {
    for (let wait = 500; ; wait = Math.min(2 * wait, 5000)) {
      try {
        const response = await fetch("/api/games", { headers: { Accept: "application/json" } });
        if (response.ok) {
          catalogue = (await response.json()).games;
          return catalogue;
        }
      } catch {
        // The server is not reachable yet: try again shortly.
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  })();
  return loading;
}

/** Every game, in the server's order (after loadGames()). */
export function games() {
  return catalogue ?? [];
}

/** One game's catalogue entry. */
export function gameRules(game) {
  const found = games().find((g) => g.name === game);
  if (!found) throw new Error(`unknown game ${game}`);
  return found;
}

export const hasPresets = (g) => Object.keys(g.presets).length > 0;

/** The option values a table's options stand for: its preset's, else the defaults. */
export function baseValues(g, options = {}) {
  if (!hasPresets(g)) return g.defaults;
  return g.presets[options.preset ?? g.defaults.preset ?? g.default_preset] ?? {};
}

/** Every choice's value for a new table: the default preset's, or the defaults. */
export function startingValues(g) {
  const base = baseValues(g);
  return Object.fromEntries(Object.entries(g.choices).map(([name, values]) => [name, base[name] ?? values[0]]));
}

/** The seat count a table's options say. */
export function seatCount(game, options = {}) {
  const g = gameRules(game);
  return options[g.seat_option] ?? g.defaults[g.seat_option] ?? g.seats[0];
}

/** One option's value in words: "الشايب ياكل كل بلية يتخطاها". */
export function optionWords(game, name, value) {
  return t(`opt.${game}.${name}.${String(value)}`);
}

// Shorter words the summaries use where the site has them (i18n keys), keyed by
// game and option; an option whose entry says `always` leads a summary of a game
// without presets even at its default ("to 2000").
const SUMMARY_WORDS = {
  "buraco.target": { always: true, words: (value) => t("buraco.target", { n: value }) },
  "buraco.closed": { words: (value) => (value === true ? t("buraco.closedShort") : null) },
};

/** A table's rules in a few words, for the lobby and the table header. */
export function rulesSummary(game, options = {}) {
  const g = gameRules(game);
  const parts = [];
  if (hasPresets(g)) parts.push(t(`preset.${options.preset ?? g.defaults.preset ?? g.default_preset}`));
  const base = baseValues(g, options);
  for (const name of Object.keys(g.choices)) {
    const value = options[name] ?? base[name];
    const special = SUMMARY_WORDS[`${game}.${name}`];
    if (value === base[name] && !special?.always) continue;
    parts.push(special?.words(value) ?? optionWords(game, name, value));
  }
  return parts;
}
