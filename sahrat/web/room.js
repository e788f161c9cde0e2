// The waiting room of a table before its first deal: the seats (who
// partners whom), the private table's code and link, the host's controls
// (seat assignment, turn time, bots, start), and the shuffle's commitment
// while the seeds are collected.

import { tw } from "./i18n-watch.js";
import { tp } from "./i18n-people.js";
import { h, fill, toast } from "./dom.js";
import { t } from "./i18n.js";
import { TURN_TIMES } from "./rules.js";
import { seatChip } from "./seats.js";
import { gameParts } from "./games.js";
import { coins } from "./coins.js";

/** "Team A/B" of a seat: partners sit opposite (seat parity), none at two seats. */
export function teamOf(game, seatCount, seat) {
  if (seatCount === 2) return null;
  return seat % 2;
}

/** A seat's colour, as its game draws it. */
export function seatColour(game, seat) {
  return gameParts(game).seatColour(seat);
}

export class Room {
  constructor(conn, app) {
    this.conn = conn;
    this.app = app;
    this.el = h("section", { class: "room" });
    this.msg = null;
    this.draft = null; // the host's seat assignment being edited: player ids per seat
    // Friends coming online or leaving change the invite list.
    conn.social.on(() => {
      if (this.msg && this.el.isConnected) this.render();
    });
  }

  /** The waiting room's "invite a friend": the friends online who are not here yet. */
  inviteList(table) {
    const social = this.conn.social;
    const here = new Set(this.msg.seats.filter((seat) => !seat.empty).map((seat) => seat.player));
    const friends = [...social.online.values()].filter((f) => !here.has(f.player));
    const rows = friends.map((f) =>
      h(
        "li",
        { dataset: { player: f.player } },
        h("bdi", { class: "person-name" }, f.name),
        h("button", { type: "button", class: "btn small primary", dataset: { action: "invite", player: f.player }, on: { click: () => social.invite(f.player) } }, tp("invite.send")),
      ),
    );
    return h(
      "section",
      { class: "invite-friends", dataset: { table: table.id } },
      h("h2", { class: "panel-title" }, tp("invite.friends")),
      rows.length ? h("ul", { class: "invite-list" }, rows) : h("p", { class: "hint" }, tp("invite.none")),
    );
  }

  update(msg) {
    const changed = !this.msg || JSON.stringify(this.msg.seats) !== JSON.stringify(msg.seats);
    this.msg = msg;
    if (changed) this.draft = null;
    this.render();
  }

  /** Player ids per seat, when the server tells them (needed for `assign`). */
  ids() {
    const seats = this.msg.seats;
    if (seats.some((seat) => !seat.empty && typeof seat.player !== "string")) return null;
    return seats.map((seat) => (seat.empty ? null : seat.player));
  }

  render() {
    const msg = this.msg;
    const table = msg.table;
    const me = this.conn.player ? this.conn.player.id : null;
    const isHost = table.kind === "private" && table.host === me;
    const seatCount = msg.seats.length;
    const parts = [];

    if (table.status === "seeding") {
      parts.push(
        h(
          "div",
          { class: "notice seeding" },
          h("strong", {}, t("room.seeding")),
          h("p", {}, t("room.seedingAbout")),
          msg.commitment ? h("code", { class: "hash", dir: "ltr", title: t("fair.commitment") }, msg.commitment) : null,
        ),
      );
    }

    if (table.code) {
      const link = `${location.origin}/#code=${table.code}`;
      parts.push(
        h(
          "div",
          { class: "invite" },
          h("span", { class: "field-label" }, t("room.code")),
          h("code", { class: "table-code", dir: "ltr" }, table.code),
          h("input", { type: "text", class: "invite-link", readonly: true, value: link, dir: "ltr", "aria-label": t("room.link") }),
          h(
            "button",
            {
              type: "button",
              class: "btn small",
              on: {
                click: async () => {
                  try {
                    await navigator.clipboard.writeText(link);
                    toast(t("room.copied"));
                  } catch {
                    toast(link);
                  }
                },
              },
            },
            t("room.copy"),
          ),
        ),
      );
    }

    // Seats laid out as around a table: partners face each other.
    const ids = this.ids();
    if (isHost && ids && !this.draft) this.draft = [...ids];
    const present = msg.seats.filter((seat) => !seat.empty);
    const grid = h("div", { class: ["room-seats", seatCount === 2 ? "two" : "four"] });
    msg.seats.forEach((seat, index) => {
      const team = teamOf(table.game, seatCount, seat.seat);
      const cell = h(
        "div",
        { class: ["room-seat", `pos-${index}`, team === null ? "" : `team-${team}`], dataset: { seat: String(seat.seat) } },
        h(
          "span",
          { class: "seat-title" },
          t("room.seat", { n: index + 1 }),
          team === null ? "" : ` · ${t(team ? "room.teamB" : "room.teamA")}`,
        ),
        seatChip(seat, { you: seat.seat === msg.you, colour: seatColour(table.game, seat.seat) }),
        // Every seat of a coin table puts the same stake in.
        table.stake > 0 ? h("span", { class: "seat-stake", dataset: { stake: String(table.stake) } }, t("coins.stake"), " ", coins(table.stake)) : null,
      );
      // A spectator watches the room fill: it takes no seat from here.
      if (seat.empty && table.status === "waiting" && !isHost && !msg.spectator) {
        cell.append(
          h(
            "button",
            { type: "button", class: "btn small", dataset: { sit: String(seat.seat) }, on: { click: () => this.conn.send("sit", { seat: seat.seat }) } },
            t("room.sitHere"),
          ),
        );
      }
      if (isHost && this.draft && table.status === "waiting") {
        cell.append(
          h(
            "label",
            { class: "assign" },
            h("span", { class: "sr-only" }, t("room.whoSits", { n: index + 1 })),
            h(
              "select",
              {
                name: `assign-${index}`,
                "aria-label": t("room.whoSits", { n: index + 1 }),
                on: { change: (e) => this.pick(index, e.target.value || null) },
              },
              h("option", { value: "", selected: this.draft[index] === null }, t("seat.empty")),
              present.map((p) =>
                h("option", { value: p.player, selected: this.draft[index] === p.player }, p.name),
              ),
            ),
          ),
        );
      }
      grid.append(cell);
    });
    parts.push(h("h2", { class: "panel-title" }, t("room.seats")), grid);
    const seated = this.msg.seats.some((seat) => !seat.empty && seat.player === me);
    const account = this.conn.player && this.conn.player.guest === false;
    if (table.status === "waiting" && seated && account && !msg.spectator && msg.seats.some((seat) => seat.empty))
      parts.push(this.inviteList(table));

    const controls = [];
    if (isHost && table.status === "waiting") {
      if (this.draft) {
        const dirty = JSON.stringify(this.draft) !== JSON.stringify(ids);
        controls.push(
          h(
            "button",
            { type: "button", class: "btn", dataset: { action: "assign" }, disabled: !dirty, on: { click: () => this.conn.send("assign", { order: this.draft }) } },
            t("room.assign"),
          ),
        );
      } else {
        controls.push(h("p", { class: "hint" }, t("room.assignNeedsIds")));
      }
      controls.push(
        h(
          "label",
          { class: "inline-field" },
          h("span", {}, t("create.turn")),
          h(
            "select",
            { name: "turn_time", on: { change: (e) => this.conn.send("turn_time", { seconds: Number(e.target.value) }) } },
            [...new Set([...TURN_TIMES, table.turn_seconds])]
              .sort((a, b) => a - b)
              .map((n) => h("option", { value: String(n), selected: n === table.turn_seconds }, t("lobby.seconds", { n }))),
          ),
        ),
      );
      controls.push(...spectatorToggles(msg, this.conn));
    } else {
      controls.push(h("span", { class: "meta" }, t("room.turnTime", { n: table.turn_seconds })));
    }
    const free = msg.seats.some((seat) => seat.empty);
    if (table.status === "waiting" && free && table.stake > 0) {
      controls.push(h("p", { class: "hint no-bots" }, t("coins.noBots")));
    } else if (table.status === "waiting" && free && !msg.spectator && (table.kind !== "private" || isHost)) {
      controls.push(
        h("button", { type: "button", class: "btn", dataset: { action: "bots" }, on: { click: () => this.conn.send("bots") } }, t("room.bots")),
      );
    }
    if (isHost && table.status === "waiting") {
      controls.push(
        h(
          "button",
          { type: "button", class: "btn primary", dataset: { action: "start" }, disabled: free, on: { click: () => this.conn.send("start") } },
          t("room.start"),
        ),
      );
    }
    if (table.status === "waiting") {
      const waitingFor = table.kind === "private" ? (isHost ? "room.hostHint" : "room.waitHost") : "room.waitFull";
      controls.push(h("p", { class: "hint" }, t(waitingFor)));
      // "Play now" never strands anyone: the server seats bots when nobody comes.
      if (table.kind === "free" && free) controls.push(h("p", { class: "hint autofill" }, t("room.autofill")));
    }
    // The host sees who left (their seat may be free again, or a bot's).
    if (isHost && this.leftNames) controls.push(h("p", { class: "hint left-list" }, t("left.list", { names: this.leftNames })));
    parts.push(h("div", { class: "room-controls" }, controls));
    fill(this.el, parts);
  }

  pick(index, player) {
    const draft = this.draft;
    const old = draft.indexOf(player);
    // Moving a player into a seat swaps them with whoever sat there.
    if (player !== null && old >= 0 && old !== index) draft[old] = draft[index];
    else if (player === null) {
      // Emptying a seat: its player goes to the first free seat, never off the table.
      const was = draft[index];
      draft[index] = null;
      const spot = draft.findIndex((p, i) => p === null && i !== index);
      if (was !== null && spot >= 0) draft[spot] = was;
      else draft[index] = was;
    }
    if (player !== null) draft[index] = player;
    this.render();
  }
}

/** The host's choices about spectators: may the table be watched (with its code), may
 * spectators write in the table chat. Each change is one `spectators` message. */
function spectatorToggles(msg, conn) {
  const now = msg.spectators || { allow: false, chat: false };
  const toggle = (name, key, checked) =>
    h(
      "label",
      { class: "inline-field watch-toggle" },
      h("input", { type: "checkbox", name, checked, on: { change: (e) => conn.send("spectators", { [key]: e.target.checked }) } }),
      h("span", {}, tw(`watch.${name}`)),
    );
  return [toggle("allow", "allow", !!now.allow), toggle("chat", "chat", !!now.chat)];
}
