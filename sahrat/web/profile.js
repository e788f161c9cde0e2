// A player's profile (#account&people=profile[&player=<id>]): name, avatar,
// member since, games and rating per game, the last games with their replay
// and Verify; your own lets you change your name (once in 30 days) and avatar.

import { h, fill, toast } from "./dom.js";
import { t, formatDate } from "./i18n.js";
import { api } from "./api.js";
import { field, errorBox } from "./auth.js";
import { tp, peopleError } from "./i18n-people.js";
import { avatarImg } from "./people.js";

export class ProfileView {
  constructor(app, player) {
    this.app = app;
    this.player = player; // an id or a name; null: one's own
    this.profile = null;
    this.error = null;
    this.el = h("section", { class: "profile", id: "profile" });
    this.unlisten = null;
    if (player) this.load();
    else {
      // One's own: known once the server said who we are.
      this.unlisten = app.account.on(() => this.own());
      this.own();
    }
    this.render();
  }

  destroy() {
    if (this.unlisten) this.unlisten();
  }

  own() {
    const me = this.app.account.me;
    if (!me || (this.profile && this.profile.id === me.id) || this.loading === me.id) return;
    if (this.app.account.guest) {
      this.render();
      return;
    }
    this.loading = me.id;
    this.load(me.id);
  }

  async load(who = this.player) {
    const { ok, data } = await api("GET", `/api/players/${encodeURIComponent(who)}`);
    this.profile = ok ? data : null;
    this.error = ok ? null : data;
    this.loading = null;
    this.render();
  }

  render() {
    if (!this.player && this.app.account.me && this.app.account.guest) {
      const register = h("button", { type: "button", class: "btn primary", dataset: { action: "register" }, on: { click: () => this.app.go("register") } }, t("auth.register"));
      return fill(this.el, h("div", { class: "panel" }, h("p", { class: "hint guest-profile" }, tp("profile.guest")), register));
    }
    if (this.error) {
      const words = this.error.code === "no_such_player" ? tp("profile.notFound") : peopleError(this.error);
      return fill(this.el, h("p", { class: "notice error", dataset: { code: this.error.code } }, words));
    }
    const p = this.profile;
    if (!p) return fill(this.el, h("p", { class: "hint" }, t("page.loading")));
    const head = h(
      "div",
      { class: "panel profile-head" },
      avatarImg(p.avatar, "large"),
      h(
        "div",
        { class: "profile-who" },
        h("h1", { class: "page-title" }, h("bdi", { class: "profile-name" }, p.name)),
        h("p", { class: "hint" }, `${tp("profile.memberSince")} ${formatDate(p.member_since)}`),
        p.you ? null : this.actions(p),
      ),
    );
    fill(this.el, head, this.gamesPanel(p), this.lastPanel(p), p.you ? this.editPanel(p) : null);
  }

  actions(p) {
    if (this.app.account.guest) return null;
    const send = async (method, path, body, done) => {
      const { ok, data } = await api(method, path, body);
      toast(ok ? done(data) : peopleError(data), ok ? "info" : "error");
    };
    return h(
      "div",
      { class: "page-actions" },
      h("button", { type: "button", class: "btn small primary", dataset: { action: "befriend" }, on: { click: () => send("POST", "/api/friends", { player: p.id }, (d) => tp(d.status === "friends" ? "friends.nowFriends" : "friends.sent")) } }, tp("profile.addFriend")),
      h("button", { type: "button", class: "btn small warn", dataset: { action: "block" }, on: { click: () => send("PUT", `/api/blocks/${encodeURIComponent(p.id)}`, undefined, () => tp("friends.blocked")) } }, tp("profile.block")),
    );
  }

  gamesPanel(p) {
    const cards = ["jackaroo", "buraco"].map((game) => {
      const g = p.games[game] || { played: 0, won: 0, rating: null };
      const r = g.rating;
      return h(
        "div",
        { class: "game-stats", dataset: { game } },
        h("h2", { class: "panel-title" }, t(`game.${game}`)),
        h(
          "dl",
          { class: "facts" },
          h("dt", {}, tp("profile.played")),
          h("dd", { dataset: { stat: "played" } }, String(g.played)),
          h("dt", {}, tp("profile.won")),
          h("dd", { dataset: { stat: "won" } }, String(g.won)),
          h("dt", {}, tp("board.rating")),
          h(
            "dd",
            { dataset: { stat: "rating" } },
            r ? String(r.rating) : tp("profile.noRating"),
            r && r.provisional ? h("span", { class: "badge provisional-badge", title: tp("rating.provisionalAbout") }, tp("rating.provisional")) : null,
          ),
          r && r.rank ? [h("dt", {}, tp("profile.rank")), h("dd", { dataset: { stat: "rank" } }, `#${r.rank}`)] : null,
        ),
      );
    });
    return h("div", { class: "panel game-stats-row" }, cards);
  }

  lastPanel(p) {
    const rows = p.last_games.map((game) =>
      h(
        "li",
        { class: ["last-game", game.result], dataset: { table: game.table } },
        h("span", { class: "last-what" }, t(`game.${game.game}`)),
        h("span", { class: ["badge", game.result === "won" ? "good" : "bad"] }, tp(`profile.${game.result}.game`)),
        game.left ? h("span", { class: "badge" }, tp("profile.left")) : null,
        h("small", { class: "hint" }, formatDate(game.finished_at)),
        h("span", { class: "rating-change" }, game.rated ? signed(game.rating_change) : tp("profile.unrated")),
        h("span", { class: "last-links" },
          h("a", { href: `#replay=${encodeURIComponent(game.table)}`, class: "btn small", dataset: { action: "replay" } }, t("end.replay")),
          h("a", { href: game.verify, class: "btn small", target: "_blank", rel: "noopener", dataset: { action: "verify" } }, t("fair.verify"))),
      ),
    );
    return h(
      "section",
      { class: "panel" },
      h("h2", { class: "panel-title" }, tp("profile.lastGames")),
      rows.length ? h("ul", { class: "last-games" }, rows) : h("p", { class: "hint" }, tp("profile.noGames")),
    );
  }

  editPanel(p) {
    const name = h("input", { type: "text", name: "name", value: p.name, dir: "auto", maxlength: 20, autocomplete: "nickname" });
    const error = errorBox();
    const next = p.name_change_at && p.name_change_at * 1000 > Date.now() ? p.name_change_at : null;
    const save = async (body) => {
      const { ok, data } = await api("PATCH", "/api/me", body);
      if (!ok) {
        error.hidden = false;
        error.dataset.code = data.code;
        error.textContent = peopleError(data);
        return;
      }
      this.profile = data;
      toast(tp("profile.saved"));
      this.app.account.refresh();
      this.render();
    };
    const picker = h(
      "div",
      { class: "avatar-picker", role: "radiogroup", "aria-label": tp("profile.avatar") },
      p.avatars.map((a) =>
        h(
          "button",
          { type: "button", role: "radio", class: ["avatar-choice", a === p.avatar ? "on" : ""], "aria-checked": String(a === p.avatar), "aria-label": a, dataset: { avatar: a }, on: { click: () => save({ avatar: a }) } },
          avatarImg(a),
        ),
      ),
    );
    const form = h(
      "form",
      { class: "name-form", novalidate: true, on: { submit: (event) => { event.preventDefault(); save({ name: name.value }); } } },
      field(tp("profile.name"), name, next ? tp("profile.nameNext", { date: formatDate(next) }) : tp("profile.nameOnce")),
      h("button", { type: "submit", class: "btn", dataset: { action: "rename" }, disabled: !!next }, tp("profile.saveName")),
    );
    return h(
      "section",
      { class: "panel profile-edit" },
      h("h2", { class: "panel-title" }, tp("profile.edit")),
      h("h3", { class: "field-label" }, tp("profile.avatar")),
      picker,
      form,
      error,
    );
  }
}

function signed(n) {
  const text = n > 0 ? `+${n}` : String(n);
  return h("bdi", { class: n > 0 ? "gain" : n < 0 ? "loss" : "even" }, text);
}


