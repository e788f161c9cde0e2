// Motion on the table: marbles walking square by square, a played card
// flying to the pile. Everything here uses the Web Animations API on top of
// the element's final position (already set by the caller), so an animation
// cut short, or never run, leaves the board exactly where the server says.
// With `prefers-reduced-motion` the same calls fade instead of travelling.

const REDUCED = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

export function reducedMotion() {
  return !!REDUCED && REDUCED.matches;
}

/**
 * The pace of play: how long one move may take on screen. It follows the time
 * between the moves the table reports (the bots' delay, or people thinking),
 * so a fast table never queues animations behind the game.
 */
export class Pace {
  constructor() {
    this.ms = 600;
  }

  /** `times`: epoch seconds of the latest moves (the table's `last[].at`), oldest first. */
  observe(times) {
    const gaps = [];
    for (let i = 1; i < times.length; i++) gaps.push((times[i] - times[i - 1]) * 1000);
    if (!gaps.length) return;
    gaps.sort((a, b) => a - b);
    const median = gaps[Math.floor(gaps.length / 2)];
    this.ms = Math.max(180, Math.min(900, median * 0.8));
  }
}

/** Stop what `el` is doing: its final place is already set. */
export function settle(el) {
  for (const animation of el.getAnimations ? el.getAnimations() : []) animation.cancel();
}

const translate = ([x, y]) => `translate(${x.toFixed(1)}px, ${y.toFixed(1)}px)`;

/**
 * Walk `el` through `points` ([x, y] in its parent's units), the first being
 * where it stood. Returns the time it takes (ms), delay excluded.
 */
export function walk(el, points, { duration = 400, delay = 0, hop = true } = {}) {
  settle(el);
  if (points.length < 2) return 0;
  if (reducedMotion()) return fadeIn(el, { delay });
  const frames = points.map((p, i) => {
    const last = i === points.length - 1;
    // A small lift between squares reads as a step, not a slide.
    const scale = hop && i > 0 && !last ? 1.12 : 1;
    return { transform: `${translate(p)} scale(${scale})`, offset: i / (points.length - 1) };
  });
  el.animate(frames, { duration, delay, easing: "linear", fill: "backwards" });
  return duration;
}

/** Fade `el` in where it is (reduced motion, or a jump we cannot follow). */
export function fadeIn(el, { delay = 0, duration = 220 } = {}) {
  settle(el);
  el.animate([{ opacity: 0 }, { opacity: 1 }], { duration, delay, easing: "ease-out", fill: "backwards" });
  return duration;
}

/**
 * A card flying from `from` (a DOMRect) to `to` (a DOMRect): a loose copy of
 * `face` (an element) on top of the page, removed when it lands.
 */
export function flyCard(face, from, to, { duration = 420, delay = 0 } = {}) {
  if (!from || !to || !from.width || !to.width) return 0;
  const card = face.cloneNode(true);
  card.classList.add("flying-card");
  card.removeAttribute("id");
  card.setAttribute("aria-hidden", "true");
  card.style.left = `${from.left}px`;
  card.style.top = `${from.top}px`;
  card.style.width = `${from.width}px`;
  card.style.height = `${from.height}px`;
  document.body.appendChild(card);
  const dx = to.left + to.width / 2 - (from.left + from.width / 2);
  const dy = to.top + to.height / 2 - (from.top + from.height / 2);
  const scale = Math.max(0.4, Math.min(1.6, to.height / from.height));
  const frames = reducedMotion()
    ? [{ opacity: 0, transform: `translate(${dx}px, ${dy}px) scale(${scale})` }, { opacity: 1, transform: `translate(${dx}px, ${dy}px) scale(${scale})` }]
    : [
        { transform: "translate(0, 0) rotate(0deg)", opacity: 1 },
        { transform: `translate(${dx}px, ${dy}px) rotate(-8deg) scale(${scale})`, opacity: 1 },
      ];
  const animation = card.animate(frames, { duration, delay, easing: "cubic-bezier(0.3, 0.7, 0.3, 1)", fill: "both" });
  const done = () => card.remove();
  animation.onfinish = done;
  animation.oncancel = done;
  // Never leave a stray card behind (a hidden tab may not run the animation).
  setTimeout(done, duration + delay + 1500);
  return duration + delay;
}
