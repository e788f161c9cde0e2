// The header's way to the people screens: a leaderboard button, and for an
// account a friends button; small icons with their words as labels.

import { h, s } from "./dom.js";
import { tp } from "./i18n-people.js";
import { peopleStyles } from "./people.js";

const ICONS = {
  // A cup on a stand.
  leaderboard: ["M8 4h8v5a4 4 0 0 1-8 0z", "M8 6H5a3 3 0 0 0 3 4", "M16 6h3a3 3 0 0 1-3 4", "M12 13v4", "M8 20h8"],
  // Two heads and shoulders.
  friends: ["M9 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6z", "M3 20a6 6 0 0 1 12 0", "M16 11a3 3 0 1 0 0-6", "M18 20a6 6 0 0 0-3-5.2"],
};

function icon(name) {
  return s("svg", { viewBox: "0 0 24 24", "aria-hidden": "true" }, ICONS[name].map((d) => s("path", { d })));
}

/** The header's people buttons; `go(page)` is the app's navigation. */
export function peopleHeader(go, guest) {
  peopleStyles();
  const button = (view, key) =>
    h(
      "button",
      { type: "button", class: "btn ghost small", title: tp(key), "aria-label": tp(key), dataset: { people: view }, on: { click: () => go(`account&people=${view}`) } },
      icon(view),
    );
  return h("span", { class: "head-people" }, button("leaderboard", "people.leaderboard"), guest ? null : button("friends", "people.friends"));
}
