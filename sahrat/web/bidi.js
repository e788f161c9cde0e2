// Names and card labels inside a sentence of the other direction: the words
// mark them with FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE, and here each
// marked run becomes a <bdi>, so "Reem 2's turn" and "دور Reem 2" both read whole.

import { h } from "./dom.js";

const FSI = "\u2068";
const PDI = "\u2069";

/** `name` marked for isolation inside a sentence. */
export function iso(name) {
  return `${FSI}${name}${PDI}`;
}

/** `text` as nodes: plain text, and a <bdi> for every isolated run. */
export function isolated(text) {
  const out = [];
  let rest = String(text);
  for (;;) {
    const a = rest.indexOf(FSI);
    const b = a < 0 ? -1 : rest.indexOf(PDI, a);
    if (b < 0) break;
    if (a > 0) out.push(rest.slice(0, a));
    out.push(h("bdi", {}, rest.slice(a + 1, b)));
    rest = rest.slice(b + 1);
  }
  if (rest) out.push(rest);
  return out;
}

/** A server's sentence naming players: each of `names` in it isolated (longest first). */
export function withNames(text, names) {
  const sorted = [...new Set(names.filter(Boolean))].sort((a, b) => b.length - a.length);
  if (!sorted.length) return [String(text)];
  const escape = (name) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = new RegExp(sorted.map(escape).join("|"), "g");
  return isolated(String(text).replace(pattern, (name) => iso(name)));
}
