// The Verify page: reads a record (pasted, opened from a file, or fetched from
// this site by `#record=/api/records/ID`), runs the checks of checks.js in the
// browser and shows the report: a verdict, each step, the record's facts and
// what each seat was dealt. Nothing is asked of the server but the record.
//
// Everything from a record goes on screen as text nodes (dom.js), never as HTML.

import { h, fill } from "../dom.js";
import { lang, setLang, t as siteWord } from "../i18n.js";
import { JOKER } from "./streams.js";
import { isObject, msg } from "./draws.js";
import { verifyParts } from "./games.js";
import { verifyRecord } from "./checks.js";
import { say } from "./words.js";

const ui = { report: null, source: null, notice: null, busy: false };

// -- pieces ----------------------------------------------------------------------------------

// Codes stay left-to-right inside Arabic sentences.
const ltr = (text, cls = "code") => h("bdi", { class: cls, dir: "ltr" }, text);

const SUIT_SIGNS = { S: "♠", H: "♥", D: "♦", C: "♣" };

function cardChip(code) {
  if (code === JOKER) return h("span", { class: "vf-card joker", title: code, dir: "ltr" }, "JK");
  const rank = code[0] === "T" ? "10" : code[0];
  const suit = code[1];
  const red = suit === "H" || suit === "D";
  return h("span", { class: ["vf-card", red ? "red" : ""], title: code, dir: "ltr" }, rank + SUIT_SIGNS[suit]);
}

const cardRow = (cards) => h("span", { class: "vf-cards" }, cards.map(cardChip));

/** "seat 2 (Maryam, bot)": the name isolated, since it may be in either script. */
function playerName(seat) {
  const players = ui.report?.info?.players ?? [];
  const found = players.find((p) => isObject(p) && p.seat === seat);
  const label = say(msg("seat", { n: seat }));
  if (!found || typeof found.name !== "string" || !found.name) return h("span", { class: "seat" }, label);
  return h("span", { class: "seat" }, label, " (", h("bdi", {}, found.name), found.bot ? say("comma") + say("bot") : "", ")");
}

const gameName = (game) => (verifyParts(game) ? siteWord(`game.${game}`) : String(game));

/** The options in the game's words (games.js); as JSON for a game or options it cannot read. */
function optionsText(info) {
  const o = isObject(info.options) ? info.options : {};
  const game = verifyParts(info.game);
  if (!game) return JSON.stringify(o);
  try {
    return game.optionWords(o, { say, site: siteWord }).join(" · ");
  } catch {
    return JSON.stringify(o);
  }
}

// -- the report ----------------------------------------------------------------------------

function renderInfo(info) {
  const rows = [
    ["info_game", gameName(info.game)],
    ["info_id", ltr(info.gameId)],
    ["info_options", optionsText(info)],
    ["info_players", h("span", { class: "players" }, info.players.filter(isObject).map((p) => h("span", { class: "player" }, playerName(p.seat))))],
    ["info_commitment", ltr(info.commitment, "code hex")],
    ["info_seed", info.serverSeed === null ? say("info_seed_hidden") : ltr(info.serverSeed, "code hex")],
    ["info_clients", ltr(info.clientSeeds.join(","), "code hex")],
    ["info_moves", String(info.moves)],
  ];
  if (info.winners) rows.push(["info_result", h("span", { class: "players" }, info.winners.map((s) => playerName(s)))]);
  return h("dl", { class: "panel vf-info", id: "info" },
    rows.map(([key, value]) => h("div", { class: "row" }, h("dt", {}, say(key)), h("dd", {}, value))));
}

const ICONS = { ok: "✓", fail: "✗", skipped: "–" };

function renderStep(step) {
  const failures = step.items.filter((item) => !item.ok);
  const passes = step.items.filter((item) => item.ok);
  const item = (it) => h("li", { class: it.ok ? "ok" : "fail", "data-ok": String(it.ok) },
    h("span", { class: "mark", "aria-hidden": "true" }, it.ok ? "✓" : "✗"), " ", say(it.msg));
  return h("section", { class: ["step", step.state], "data-step": step.n, "data-state": step.state },
    h("h3", {}, h("span", { class: "mark", "aria-hidden": "true" }, ICONS[step.state]),
      h("span", { class: "title" }, say(`step_title_${step.n}`)), h("span", { class: "state" }, say(`state_${step.state}`))),
    step.summary ? h("p", { class: "summary" }, say(step.summary)) : null,
    failures.length ? h("ul", { class: "failures" }, failures.map(item)) : null,
    passes.length
      ? h("details", { class: "checks" }, h("summary", {}, say(msg("details", { n: passes.length }))), h("ul", {}, passes.map(item)))
      : null);
}

function replayUrl(source) {
  if (!source) return null;
  const match = /^\/api\/records\/([^/?#]+)\/?$/.exec(source.pathname);
  return match ? `/api/records/${match[1]}/replay` : null;
}

function renderStep4() {
  const replay = replayUrl(ui.source);
  return h("section", { class: "step info4", "data-step": 4, "data-state": "server" },
    h("h3", {}, h("span", { class: "mark", "aria-hidden": "true" }, "↻"), h("span", { class: "title" }, say("step_title_4"))),
    h("p", {}, say("s4_text"), " ", ltr(say("s4_cli"))),
    replay ? h("p", {}, h("a", { id: "replay-link", href: replay, target: "_blank", rel: "noopener" }, say("s4_link")), " ", ltr(replay)) : null);
}

function recordedTag(deal, round) {
  if (!round.recorded) return null;
  // The round of a failed deal is the one the record contradicts: these are the shuffle's hands.
  if (deal.failed) return h("span", { class: "tag bad" }, "✗ ", say("differs"));
  return h("span", { class: "tag" }, "✓ ", say("in_record"));
}

const handRow = (head, cards) => h("tr", {}, h("th", { scope: "row" }, head), h("td", {}, cards ? cardRow(cards) : null));

function renderDeal(deal, game) {
  const rounds = deal.rounds.map((round, r) => h("div", { class: "round" },
    deal.rounds.length > 1 || game.headEveryRound
      ? h("h5", {}, say(msg("round_head", { r: r + 1, at: round.at, dealer: round.dealer })), recordedTag(deal, round))
      : null,
    h("table", { class: "hands" }, h("tbody", {}, round.hands.map(([seat, cards]) => handRow(playerName(seat), cards))))));
  const extra = deal.extra && game.dealExtra ? game.dealExtra(deal.extra) : null;
  return h("details", { class: ["deal", deal.failed ? "failed" : ""], open: deal.failed ?? false },
    h("summary", {}, deal.failed ? "✗ " : "", ltr(deal.label), " · ", say(msg("deal_head", { after: deal.after, dealer: deal.dealer }))),
    rounds,
    extra ? h("table", { class: "hands extra" }, h("tbody", {}, extra.rows.map(([head, cards]) => handRow(say(head), cards)))) : null,
    extra ? h("p", { class: "note" }, say(extra.note)) : null);
}

function renderDeals(report) {
  if (!report.deals.length) return null;
  return h("section", { class: "panel deals", id: "deals" },
    h("h3", {}, say(msg("deals_title", { n: report.deals.length }))),
    // Deals are only replayed for a game the page knows.
    report.deals.map((deal) => renderDeal(deal, verifyParts(report.info.game))));
}

function banner(status, cls, mark, text) {
  const role = status === "error" ? "alert" : status === "busy" ? null : "status";
  return h("p", { id: "summary", class: ["banner", cls], "data-status": status, role }, mark, text);
}

function render() {
  const root = document.getElementById("result");
  if (ui.busy) {
    fill(root, banner("busy", "busy", "", say(ui.notice ?? "working")));
    return;
  }
  if (ui.notice) {
    fill(root, banner("error", "error", "⚠ ", say(ui.notice)));
    return;
  }
  const report = ui.report;
  if (!report) {
    fill(root);
    return;
  }
  if (report.status === "error") {
    fill(root, banner("error", "error", "⚠ ", say(report.error)));
    return;
  }
  if (report.status === "running") {
    fill(root, banner("running", "running", "⏳ ", say("summary_running")), renderInfo(report.info));
    return;
  }
  const ok = report.status === "ok";
  fill(root,
    banner(report.status, ok ? "ok" : "fail", ok ? "✓ " : "✗ ", ok ? say("summary_ok") : say(msg("summary_fail", { n: report.failedStep }))),
    // In number order: the server's step 4 sits between the page's steps 3 and 5.
    h("div", { class: "steps" }, report.steps.filter((s) => s.n < 4).map(renderStep), renderStep4(),
      report.steps.filter((s) => s.n > 4).map(renderStep)),
    renderInfo(report.info),
    renderDeals(report));
}

// -- language ------------------------------------------------------------------------------

/** Every word on the page in the site's language (i18n.js keeps it and turns the page). */
function relabel() {
  document.title = say("doc_title");
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = say(node.dataset.t);
  const brand = document.getElementById("brand");
  brand.textContent = siteWord("app.name");
  brand.setAttribute("aria-label", siteWord("nav.lobby"));
  const button = document.getElementById("lang");
  button.textContent = siteWord("lang.switch");
  button.setAttribute("aria-label", say("lang_switch_label"));
  button.lang = lang() === "ar" ? "en" : "ar";
  document.getElementById("record").placeholder = say("paste_hint");
  render();
}

// -- reading a record ------------------------------------------------------------------------

async function verifyText(text, source = null) {
  ui.source = source;
  ui.report = null;
  if (!text.trim()) {
    ui.notice = "empty";
    render();
    return;
  }
  let record;
  try {
    record = JSON.parse(text);
  } catch (error) {
    ui.notice = msg("bad_json", { why: error.message });
    render();
    return;
  }
  if (!globalThis.crypto?.subtle) {
    ui.notice = "no_crypto";
    render();
    return;
  }
  ui.busy = true;
  ui.notice = "working";
  render();
  try {
    ui.report = await verifyRecord(record);
    ui.notice = null;
  } catch (error) {
    ui.notice = msg("malformed", { why: String(error?.message ?? error) });
  } finally {
    ui.busy = false;
  }
  render();
}

async function fetchText(url) {
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  const text = await response.text();
  if (response.ok) return text;
  let why = `HTTP ${response.status}`;
  try {
    why += ` — ${JSON.parse(text).error}`;
  } catch {
    // Not a JSON error body: the status alone says it.
  }
  throw new Error(why);
}

async function loadFromHash() {
  const value = new URLSearchParams(location.hash.slice(1)).get("record");
  if (!value) return;
  let url;
  try {
    url = new URL(value, location.href);
  } catch {
    url = null;
  }
  // A record is fetched only from this site: the address must not send the page elsewhere.
  if (!url || url.origin !== location.origin) {
    ui.report = null;
    ui.notice = "foreign_url";
    render();
    return;
  }
  ui.busy = true;
  ui.notice = msg("loading", { url: url.pathname });
  render();
  let text;
  try {
    text = await fetchText(url);
  } catch (error) {
    ui.busy = false;
    ui.notice = msg("fetch_failed", { url: url.pathname, why: error.message });
    render();
    return;
  }
  ui.busy = false;
  const textarea = document.getElementById("record");
  textarea.value = text;
  textarea.scrollTop = 0;
  await verifyText(text, url);
}

function start() {
  const textarea = document.getElementById("record");
  document.getElementById("form").addEventListener("submit", (event) => {
    event.preventDefault();
    verifyText(textarea.value);
  });
  document.getElementById("file").addEventListener("change", async (event) => {
    const file = event.target.files?.[0];
    if (!file) return;
    const text = await file.text();
    textarea.value = text;
    await verifyText(text);
    event.target.value = "";
  });
  document.getElementById("lang").addEventListener("click", () => {
    setLang(lang() === "ar" ? "en" : "ar");
    relabel();
  });
  window.addEventListener("hashchange", loadFromHash);
  // `?lang=en` in a shared link chooses the language, and is remembered like the switch.
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked === "ar" || asked === "en") setLang(asked);
  relabel();
  document.body.dataset.ready = "true";
  loadFromHash();
}

if (document.getElementById("verify-app")) start();
