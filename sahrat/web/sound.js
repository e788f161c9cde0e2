// The table's sounds: your turn, a card played, a capture, a canasta, a win,
// and the last seconds of the clock. Small WAV files shipped with the client
// (sounds/, made by scripts/make_sounds.py). A mute switch, remembered in
// localStorage, silences them and the vibrations together.

import { h, s, fill } from "./dom.js";
import { t } from "./i18n.js";

const MUTE_KEY = "sahrat.mute";
const NAMES = ["turn", "card", "capture", "canasta", "win", "tick"];
const cache = new Map();
let muted = readMuted();
const switches = new Set();

function readMuted() {
  try {
    return localStorage.getItem(MUTE_KEY) === "1";
  } catch {
    return false;
  }
}

export function isMuted() {
  return muted;
}

export function setMuted(value) {
  muted = !!value;
  try {
    localStorage.setItem(MUTE_KEY, muted ? "1" : "0");
  } catch {
    /* remembered for this page only */
  }
  for (const render of switches) render();
}

/** Play one of NAMES. The browser may refuse before the first tap on the page: never an error. */
export function play(name) {
  if (muted || !NAMES.includes(name)) return;
  document.documentElement.dataset.lastSound = name; // for tests: what would have sounded
  let audio = cache.get(name);
  if (!audio) {
    audio = new Audio(`/static/sounds/${name}.wav`);
    audio.preload = "auto";
    cache.set(name, audio);
  }
  try {
    audio.currentTime = 0;
    const playing = audio.play();
    if (playing && playing.catch) playing.catch(() => {});
  } catch {
    /* no audio here */
  }
}

/** A short buzz where the device allows (phones); muted with the sounds. */
export function buzz(pattern) {
  if (muted || !navigator.vibrate) return;
  try {
    navigator.vibrate(pattern);
  } catch {
    /* not allowed before a tap */
  }
}

/**
 * The mute switch: a button whose label says the state; each one follows the
 * others. `render()` relabels it (after a language switch) and returns it.
 */
export function muteSwitch() {
  const button = h("button", {
    type: "button",
    class: "btn ghost small mute-toggle",
    dataset: { action: "mute" },
    on: { click: () => setMuted(!muted) },
  });
  const render = () => {
    // Drawn, not an emoji: many systems lack the speaker glyphs.
    fill(
      button,
      s(
        "svg",
        { class: "icon", viewBox: "0 0 24 24", "aria-hidden": "true" },
        s("path", { d: "M3 9h4l5-4v14l-5-4H3z", "stroke-width": "0" }),
        muted
          ? s("path", { d: "M16 9l5 6M21 9l-5 6", fill: "none", "stroke-width": "2", "stroke-linecap": "round" })
          : s("path", { d: "M15.5 8.5a5 5 0 0 1 0 7M18 6a8.5 8.5 0 0 1 0 12", fill: "none", "stroke-width": "2", "stroke-linecap": "round" }),
      ),
    );
    // A toggle: its name stays ("mute"), its pressed state says whether it is on.
    button.setAttribute("aria-pressed", muted ? "true" : "false");
    button.setAttribute("aria-label", t("sound.mute"));
    button.title = t(muted ? "sound.off" : "sound.on");
    button.dataset.muted = muted ? "1" : "0";
    return button;
  };
  switches.add(render);
  render();
  return { el: button, render };
}
