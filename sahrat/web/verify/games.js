// The games the Verify page can check, by the name a record gives them: what
// checks.js and page.js need of each. A new game brings its deal replay (a
// module like jackaroo-deal.js) and adds its entry to GAMES below; checks.js
// and page.js name no game.
//
// An entry has
// - `seats(options)`: the engine seats in play order, which is the order of
//   the record's client seeds (throws Failed on options it cannot read);
// - `deals(record, draws, report)`: replays the log's deals into
//   `report.deals` and returns the counts that step 3's summary names;
// - `summary`: the key (words.js) of step 3's summary, given those counts;
// - `optionWords(options, {say, site})`: the table's options in a few words,
//   with the page's words (`say`, words.js) and the site's (`site`, i18n.js)
//   passed in, so that this module and checks.js stay free of the page;
// - `headEveryRound`: head a deal's rounds even when a shuffle deals only one;
// - `dealExtra(extra)` (optional): what a deal dealt beyond the hands, as
//   `{rows: [[message, cards or null], …], note: message}`.
//
// Records are untrusted: a game's name is looked up in a Map, never as a property.

import { msg } from "./draws.js";
import { jackarooDeals, jackarooSetup } from "./jackaroo-deal.js";
import { buracoDeals, buracoSetup } from "./buraco-deal.js";

// -- Jackaroo ---------------------------------------------------------------------------

const jackaroo = {
  seats: (options) => jackarooSetup(options).order,
  deals: jackarooDeals,
  summary: "s3_summary_j",
  optionWords(options, { say, site }) {
    const setup = jackarooSetup(options);
    const words = [site(`preset.${setup.preset}`), say(msg("opt_seats", { n: setup.seats })), say(msg("opt_deal", { d: setup.deal }))];
    for (const [key, value] of Object.entries(options)) {
      if (!["preset", "seats", "deal"].includes(key)) words.push(`${key}=${String(value)}`);
    }
    return words;
  },
  // One shuffle deals a whole deck cycle, round after round.
  headEveryRound: true,
};

// -- Buraco -----------------------------------------------------------------------------

const buraco = {
  seats: (options) => Array.from({ length: buracoSetup(options).players }, (_, s) => s),
  deals: buracoDeals,
  summary: "s3_summary_b",
  optionWords(options, { say }) {
    const words = [say(msg("opt_players", { n: options.players ?? 4 })), say(msg("opt_target", { n: options.target ?? 2000 }))];
    if (options.sets === true) words.push(say("opt_sets"));
    if (options.closed === true) words.push(say("opt_closed"));
    return words;
  },
  headEveryRound: false,
  // The two mortos, the card turned up and what stays in the stock.
  dealExtra: (extra) => ({
    rows: [
      ...extra.mortos.map((cards, s) => [msg("morto", { s }), cards]),
      ["up_card", [extra.up]],
      [msg("stock_left", { n: extra.stock }), null],
    ],
    note: "mortos_note",
  }),
};

// -- the registry: one line per game ------------------------------------------------------

const GAMES = new Map([
  ["jackaroo", jackaroo],
  ["buraco", buraco],
]);

/** The Verify parts of the game named `name`, or null for a game this page does not know. */
export function verifyParts(name) {
  return GAMES.get(name) ?? null;
}
