// People: the leaderboard, profiles and friends screens, reached at
// #account&people=leaderboard|profile|friends (&player=<id> for someone's
// profile). They come up through the account page's address, so the app's own
// pages need no new entry; the header's buttons and the account page link here.

import { h, fill } from "./dom.js";
import { tp } from "./i18n-people.js";
import { LeaderboardView } from "./leaderboard.js";
import { ProfileView } from "./profile.js";
import { FriendsView } from "./friends.js";

const VIEWS = { leaderboard: LeaderboardView, profile: ProfileView, friends: FriendsView };

let styled = false;

/** people.css, linked once (the page's stylesheets are index.html's; this one is ours). */
export function peopleStyles() {
  if (styled || document.querySelector("link[data-people]")) return;
  styled = true;
  document.head.appendChild(h("link", { rel: "stylesheet", href: "/static/people.css", dataset: { people: "" } }));
}

/** The people view the address asks for: {view, player}, or null. */
export function peopleView(hash = location.hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const view = params.get("people");
  return Object.hasOwn(VIEWS, view) ? { view, player: params.get("player") } : null;
}

/** The address (for app.go) of a people view. */
export function peopleHash(view, player) {
  return `account&people=${view}` + (player ? `&player=${encodeURIComponent(player)}` : "");
}

/** An avatar picture: one of the shipped SVGs. */
export function avatarImg(name, size = "small") {
  const safe = /^[a-z]{2,12}$/.test(name || "") ? name : "sun";
  return h("img", { class: ["avatar", size], src: `/static/avatars/${safe}.svg`, alt: "", width: 40, height: 40, dataset: { avatar: safe } });
}

/** A player's name and avatar, opening their profile. */
export function personButton(app, person) {
  return h(
    "button",
    { type: "button", class: "person", dataset: { player: person.id }, on: { click: () => app.go(peopleHash("profile", person.id)) } },
    avatarImg(person.avatar),
    h("bdi", { class: "person-name" }, person.name),
  );
}

export class PeopleScreen {
  /** `where`: peopleView()'s answer; `app`: {account, go(page)}. */
  constructor(where, app) {
    peopleStyles();
    this.app = app;
    this.where = where;
    this.el = h("main", { class: "page people-page", id: "people", dataset: { view: where.view } });
    this.view = new VIEWS[where.view](app, where.player);
    this.render();
  }

  render() {
    const own = this.where.view !== "profile" || !this.where.player || this.where.player === this.app.account.me?.id;
    const tab = (view, key) =>
      h(
        "button",
        {
          type: "button",
          class: "tab",
          role: "tab",
          "aria-selected": String(own && this.where.view === view),
          dataset: { people: view },
          on: { click: () => this.app.go(peopleHash(view)) },
        },
        tp(key),
      );
    const nav = h(
      "nav",
      { class: "tabs people-nav", role: "tablist", "aria-label": tp("people.nav") },
      tab("leaderboard", "people.leaderboard"),
      tab("profile", "people.profile"),
      tab("friends", "people.friends"),
    );
    fill(this.el, nav, this.view.el);
  }

  relabel() {
    this.render();
    this.view.render();
  }

  destroy() {
    if (this.view.destroy) this.view.destroy();
  }
}
