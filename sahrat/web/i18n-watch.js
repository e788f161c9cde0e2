// The words of watching a table (spectators), Arabic first, then English. Kept in
// their own table, read with tw(): the page's language is i18n.js's.

import { lang } from "./i18n.js";

export const WATCH_STRINGS = {
  "watch.button": ["تفرّج", "Watch"],
  "watch.badge": ["تتفرّج", "Watching"],
  "watch.count": ["{n} يتفرّج", "{n} watching"],
  "watch.stop": ["وقّف الفرجة", "Stop watching"],
  "watch.readOnly": ["المتفرّجين يقرون السوالف بس", "Spectators can read the chat, not write"],
  "watch.over": ["انتهت اللعبة", "The game is over"],
  "watch.allow": ["يقدر الناس يتفرّجون بالرمز", "Spectators may watch with the code"],
  "watch.chat": ["المتفرّجين يقدرون يكتبون بالسوالف", "Spectators may write in the chat"],
  "watch.withCode": ["تفرّج بالرمز", "Watch with code"],
  "error.spectator": ["المتفرّج ما يقدر يسوي هذا", "A spectator can't do that"],
  "error.not_watchable": ["صاحب الطاولة ما سمح بالفرجة", "The host doesn't allow spectators at this table"],
  "error.not_watching": ["أنت ما تتفرّج على طاولة", "You aren't watching a table"],
  "watch.closed": ["صاحب الطاولة قفلها على المتفرّجين", "The host closed the table to spectators"],
};

/** Whether a watching `key` has words. */
export function hasWatch(key) {
  return Object.hasOwn(WATCH_STRINGS, key);
}

/** The text of a watching `key` in the page's language, with {placeholders} filled. */
export function tw(key, params) {
  const entry = WATCH_STRINGS[key];
  let text = entry ? entry[lang() === "ar" ? 0 : 1] : key;
  if (params) {
    for (const [name, value] of Object.entries(params)) text = text.replaceAll(`{${name}}`, String(value));
  }
  return text;
}

/** The spectator styles, linked once (index.html lists the page's own stylesheets). */
export function watchStyles() {
  if (document.querySelector("link[data-watch]")) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = new URL("./watch.css", import.meta.url).href;
  link.dataset.watch = "1";
  document.head.append(link);
}
