// The lobby: play now, join by code, create a table, and the live list of
// public tables (the server's `lobby` messages).

import { h, fill } from "./dom.js";
import { t } from "./i18n.js";
import {
  TURN_TIMES,
  baseValues,
  gameRules,
  games,
  hasPresets,
  optionWords,
  rulesSummary,
  seatCount,
  startingValues,
} from "./rules.js";
import { stakeLine } from "./coins.js";
import { CoinPanel, kindField } from "./lobby-coins.js";
import { tw, watchStyles } from "./i18n-watch.js";

/** The list after a `lobby_changes` message (`docs/protocol.md` §3), as a new array. */
export function applyLobbyChanges(tables, m) {
  const gone = new Set(m.removed || []);
  const changed = new Map((m.changed || []).map((t) => [t.id, t]));
  const added = m.added || [];
  for (const t of added) gone.add(t.id); // an entry added again replaces the one held
  const kept = tables.filter((t) => !gone.has(t.id)).map((t) => changed.get(t.id) || t);
  return [...added, ...kept];
}

export class Lobby {
  /**
   * `actions`: {playNow(game, stake?), join(tableId), watch(tableId), joinCode(code), create(fields), go(page)};
   * `account`: who we are (account.js), for the coin parts.
   */
  constructor(conn, actions, account) {
    this.conn = conn;
    this.actions = actions;
    this.account = account;
    this.tables = [];
    watchStyles();
    // The form's choices per game (kept when the player looks at another game), built from
    // the games the server lists (rules.js, loaded before the lobby shows).
    const first = games()[0];
    this.form = { game: first ? first.name : null, choices: {}, turn: 15, private: false, stake: null };
    this.el = h("main", { class: "lobby", id: "lobby" });
    this.listEl = h("ul", { class: "table-list" });
    this.formEl = h("form", { class: "panel create-form", on: { submit: (e) => this.submitCreate(e) } });
    this.codeInput = null;
    this.coinPanel = new CoinPanel({
      account,
      now: () => conn.serverNow(),
      playNow: (game, stake) => actions.playNow(game, stake),
      go: (page) => actions.go(page),
    });
    // Registering or logging in opens the coin choice of the form.
    account.on(() => this.renderForm());
    this.render();
  }

  /** The whole list (the answer to `lobby`), at the server's `version`. */
  update(tables, version) {
    this.tables = tables;
    this.version = version;
    this.resyncing = false;
    this.renderList();
  }

  /**
   * A `lobby_changes` message: removed, then changed, then added (newest first, before the
   * rest). One that does not follow our version means we missed some: ask for the whole
   * list again (`resync`). Applying is idempotent, so a change we already hold does no harm.
   */
  applyChanges(m, resync) {
    if (this.version === undefined || m.version !== this.version + 1) {
      // An older one is already in the list we hold; a gap is asked for once.
      if (m.version > (this.version ?? -1) && !this.resyncing) {
        this.resyncing = true;
        resync();
      }
      return;
    }
    this.tables = applyLobbyChanges(this.tables, m);
    this.version = m.version;
    this.renderList();
  }

  render() {
    this.codeInput = h("input", {
      type: "text",
      class: "code-input",
      name: "code",
      maxlength: "8",
      autocomplete: "off",
      spellcheck: "false",
      placeholder: "ABC123",
      "aria-label": t("lobby.codeLabel"),
      dir: "ltr",
    });
    const hero = h(
      "section",
      { class: "hero" },
      h("h1", { class: "hero-title" }, t("app.name")),
      h("p", { class: "hero-sub" }, t("lobby.tagline")),
      h(
        "div",
        { class: "hero-actions" },
        // One button per game the server offers, in its order; every other one in the second colour.
        games().map(({ name }, i) =>
          h(
            "button",
            { type: "button", class: ["btn primary big", i % 2 ? "alt" : ""], dataset: { playNow: name }, on: { click: () => this.actions.playNow(name) } },
            t("lobby.playNow", { game: t("game." + name) }),
          ),
        ),
      ),
      h(
        "form",
        {
          class: "code-form",
          on: {
            submit: (event) => {
              event.preventDefault();
              const code = this.codeInput.value.trim().toUpperCase();
              if (code) this.actions.joinCode(code);
            },
          },
        },
        h("label", { class: "code-label" }, t("lobby.codeLabel"), this.codeInput),
        h("button", { type: "submit", class: "btn" }, t("lobby.joinCode")),
        h(
          "button",
          {
            type: "button",
            class: "btn ghost",
            dataset: { action: "watch-code" },
            on: {
              click: () => {
                const code = this.codeInput.value.trim().toUpperCase();
                if (code) this.actions.watchCode(code);
              },
            },
          },
          tw("watch.withCode"),
        ),
      ),
    );
    this.renderForm();
    const listPanel = h(
      "section",
      { class: "panel tables-panel" },
      h("h2", { class: "panel-title" }, t("lobby.tables")),
      this.listEl,
    );
    this.coinPanel.render();
    fill(this.el, hero, this.coinPanel.el, h("div", { class: "lobby-grid" }, listPanel, this.formEl));
    this.renderList();
  }

  renderList() {
    if (!this.tables.length) {
      fill(this.listEl, h("li", { class: "empty-note" }, t("lobby.noTables")));
      return;
    }
    fill(
      this.listEl,
      this.tables.map((table) => {
        const taken = table.seats - table.free;
        const canJoin = table.status === "waiting" && table.free > 0;
        // A table in play may be watched: its board and moves, no hand.
        const canWatch = table.status === "playing" || table.status === "seeding";
        return h(
          "li",
          { class: ["table-row", table.game], dataset: { table: table.id } },
          h(
            "div",
            { class: "table-main" },
            h("span", { class: "game-name" }, t("game." + table.game)),
            h("span", { class: "rules" }, rulesSummary(table.game, table.options).join(" · ")),
            stakeLine(table),
            h(
              "span",
              { class: "players" },
              table.players.map((p) =>
                h("span", { class: ["player-tag", p.bot ? "bot" : ""], dir: "auto" }, p.bot ? `${p.name} (${t("badge.bot")})` : p.name),
              ),
            ),
          ),
          h(
            "div",
            { class: "table-meta" },
            h("span", { class: "seats-count", title: t("lobby.seats") }, `${taken}/${table.seats}`),
            h("span", { class: "turn-time", title: t("lobby.turnTime") }, t("lobby.seconds", { n: table.turn_seconds })),
            h("span", { class: ["status", table.status] }, t("status." + table.status)),
            canJoin
              ? h("button", { type: "button", class: "btn small", on: { click: () => this.actions.join(table.id) } }, t("lobby.join"))
              : null,
            canWatch
              ? h("button", { type: "button", class: "btn small ghost watch", dataset: { action: "watch" }, on: { click: () => this.actions.watch(table.id) } }, tw("watch.button"))
              : null,
          ),
        );
      }),
    );
  }

  renderForm() {
    const f = this.form;
    const segment = (name, values, current, label, onPick) =>
      h(
        "div",
        { class: "segment", role: "radiogroup", "aria-label": label },
        values.map(([value, text]) =>
          h(
            "button",
            {
              type: "button",
              role: "radio",
              class: ["seg", value === current ? "on" : ""],
              "aria-checked": String(value === current),
              dataset: { [name]: String(value) },
              on: {
                click: () => {
                  onPick(value);
                  this.renderForm();
                },
              },
            },
            text,
          ),
        ),
      );
    const g = gameRules(f.game);
    const c = this.choicesOf(g);
    const parts = [
      h("h2", { class: "panel-title" }, t("create.title")),
      h("div", { class: "field" }, h("span", { class: "field-label" }, t("create.game")),
        segment("game", games().map((game) => [game.name, t("game." + game.name)]), f.game, t("create.game"), (v) => {
          f.game = v;
        })),
    ];
    if (hasPresets(g)) {
      const preset = g.presets[c.preset];
      parts.push(
        h(
          "div",
          { class: "field" },
          h("span", { class: "field-label" }, t("create.preset")),
          h(
            "div",
            { class: "presets" },
            Object.keys(g.presets).map((name) =>
              h(
                "button",
                {
                  type: "button",
                  class: ["preset", c.preset === name ? "on" : ""],
                  "aria-pressed": String(c.preset === name),
                  dataset: { preset: name },
                  on: {
                    click: () => {
                      c.preset = name;
                      c.values = { ...g.presets[name] };
                      this.renderForm();
                    },
                  },
                },
                h("strong", {}, t("preset." + name)),
                h("small", {}, t("preset." + name + ".about")),
              ),
            ),
          ),
        ),
      );
      const changed = Object.keys(g.choices).filter((k) => c.values[k] !== preset[k]);
      parts.push(
        h(
          "details",
          { class: "rules-details", open: changed.length ? true : null },
          h("summary", {}, t("create.customise"), changed.length ? ` (${changed.length})` : ""),
          Object.entries(g.choices).map(([name, values]) => this.optionRow(g.name, name, values, c.values, preset[name])),
        ),
      );
    } else {
      parts.push(
        h(
          "div",
          { class: "rules-list" },
          Object.entries(g.choices).map(([name, values]) => this.optionRow(g.name, name, values, c.values)),
        ),
      );
    }
    parts.push(
      h("div", { class: "field" }, h("span", { class: "field-label" }, t("create.seats")),
        segment("seats", g.seats.map((n) => [n, t("create.seats" + n)]), c.seats, t("create.seats"), (v) => {
          c.seats = v;
        })),
      h(
        "label",
        { class: "field" },
        h("span", { class: "field-label" }, t("create.turn")),
        h(
          "select",
          { name: "turn", on: { change: (e) => (f.turn = Number(e.target.value)) } },
          TURN_TIMES.map((n) => h("option", { value: String(n), selected: n === f.turn }, t("lobby.seconds", { n }))),
        ),
      ),
      kindField(f, this.account, () => this.renderForm()),
      h(
        "label",
        { class: "check" },
        h("input", { type: "checkbox", name: "private", checked: f.private, on: { change: (e) => (f.private = e.target.checked) } }),
        h("span", {}, h("strong", {}, t("create.private")), h("small", {}, t("create.privateAbout"))),
      ),
      h("button", { type: "submit", class: "btn primary", dataset: { action: "create" } }, t("create.submit")),
    );
    fill(this.formEl, parts);
  }

  /** The form's choices for game `g`: its default preset's (or default) values at first. */
  choicesOf(g) {
    const choices = this.form.choices;
    if (!choices[g.name]) {
      const preset = hasPresets(g) ? (g.defaults.preset ?? g.default_preset) : null;
      choices[g.name] = { preset, values: startingValues(g), seats: seatCount(g.name) };
    }
    return choices[g.name];
  }

  /** One option as a select whose choices read as sentences; a preset's value is marked. */
  optionRow(game, name, values, current, presetValue) {
    const select = h(
      "select",
      {
        name,
        on: {
          change: (e) => {
            const raw = e.target.value;
            current[name] = values.find((v) => String(v) === raw);
            this.renderForm();
          },
        },
      },
      values.map((value) =>
        h(
          "option",
          { value: String(value), selected: value === current[name] },
          optionWords(game, name, value) + (presetValue !== undefined && value === presetValue ? ` · ${t("create.presetValue")}` : ""),
        ),
      ),
    );
    return h("label", { class: "option-row" }, h("span", { class: "option-name" }, t(`opt.${game}.${name}`)), select);
  }

  submitCreate(event) {
    event.preventDefault();
    const f = this.form;
    const g = gameRules(f.game);
    const c = this.choicesOf(g);
    // A preset and what differs from it; a game without presets sends every choice.
    const options = c.preset ? { preset: c.preset } : {};
    const base = baseValues(g, options);
    for (const [name, value] of Object.entries(c.values)) {
      if (!c.preset || base[name] !== value) options[name] = value;
    }
    const fields = { game: f.game, seats: c.seats, options, turn_seconds: f.turn, private: f.private };
    // A free table sends no stake at all (the protocol prefers an absent field to null).
    if (f.stake !== null && !this.account.guest) fields.stake = f.stake;
    this.actions.create(fields);
  }
}
