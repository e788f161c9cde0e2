// The lobby's coin parts: the coin panel (balance, the daily gift, "play now"
// at a stake) and the create form's choice of a free or a coin table;
// guests are told why they can't play for coins.

import { h, fill, toast } from "./dom.js";
import { t } from "./i18n.js";
import { games } from "./rules.js";
import { coins, coinSettings, formatCoins, loadCoinSettings, stakePicker } from "./coins.js";
import { accountError } from "./auth.js";

const MINUTE = 60;

/** "3 h 12 min" until `seconds` from `now`. */
function timeUntil(seconds, now) {
  const left = Math.max(0, Math.ceil((seconds - now) / MINUTE));
  if (left <= 0) return t("daily.soon");
  const hours = Math.floor(left / 60);
  const time = hours ? t("daily.hm", { h: hours, m: left % 60 }) : t("daily.m", { m: left });
  return t("daily.next", { time });
}

/** The stake to offer first: the largest the balance pays for, else the smallest. */
function fittingStake(stakes, balance) {
  const affordable = stakes.filter((stake) => balance === null || stake <= balance);
  return affordable.length ? affordable[0] : stakes[0];
}

export class CoinPanel {
  /** `ctx`: {account, now() (server epoch seconds), playNow(game, stake), go(page)}. */
  constructor(ctx) {
    this.ctx = ctx;
    this.stake = null;
    this.el = h("section", { class: "panel coin-panel", id: "coin-panel", hidden: true });
    this.ticker = null;
    ctx.account.on(() => this.render());
    loadCoinSettings().then(() => this.render());
  }

  render() {
    const settings = coinSettings();
    const { account } = this.ctx;
    clearInterval(this.ticker);
    this.ticker = null;
    // A server without coins, or not yet known who we are: nothing to offer.
    this.el.hidden = !settings || !account.me;
    if (this.el.hidden) return;
    const title = h("h2", { class: "panel-title" }, t("coins.panel"));
    if (account.guest) {
      fill(
        this.el,
        title,
        h("p", { class: "hint" }, t("coins.guestNo", { n: formatCoins(settings.starting_grant) })),
        h("button", { type: "button", class: "btn primary", dataset: { action: "register" }, on: { click: () => this.ctx.go("register") } }, t("auth.register")),
      );
      return;
    }
    const balance = account.balance;
    if (this.stake === null || !settings.stakes.includes(this.stake)) this.stake = fittingStake(settings.stakes, balance);
    const short = balance !== null && this.stake > balance;
    fill(
      this.el,
      h("div", { class: "coin-head" }, title, h("span", { class: "coin-balance" }, t("coins.balance"), " ", balance === null ? "…" : coins(balance))),
      this.dailyGrant(),
      h("p", { class: "hint" }, t("coins.about"), " ", t("coins.feePercent", { n: settings.fee_percent })),
      h(
        "div",
        { class: "field" },
        h("span", { class: "field-label" }, t("coins.stake")),
        stakePicker(settings.stakes, this.stake, (stake) => {
          this.stake = stake;
          this.render();
        }, { disabledAbove: balance }),
      ),
      short ? h("p", { class: "notice error short-note" }, t("coins.short")) : null,
      h(
        "div",
        { class: "hero-actions" },
        games().map(({ name }) =>
          h(
            "button",
            { type: "button", class: "btn primary", dataset: { playNowCoins: name }, on: { click: () => this.ctx.playNow(name, this.stake) } },
            t("coins.playNow", { game: t("game." + name) }),
          ),
        ),
      ),
    );
  }

  dailyGrant() {
    const grant = this.ctx.account.me && this.ctx.account.me.daily_grant;
    if (!grant) return null;
    if (grant.claimable) {
      return h(
        "button",
        { type: "button", class: "btn primary alt daily", dataset: { action: "daily" }, on: { click: (e) => this.claim(e.currentTarget) } },
        t("daily.claim", { n: formatCoins(grant.amount) }),
      );
    }
    const line = h("p", { class: "daily-next hint", dataset: { next: String(grant.next_at) } });
    const tick = () => {
      line.textContent = timeUntil(grant.next_at, this.ctx.now());
      // The gift is due: ask the server again, which says whether it is claimable.
      if (grant.next_at <= this.ctx.now()) this.ctx.account.refresh();
    };
    tick();
    this.ticker = setInterval(() => (this.el.isConnected ? tick() : clearInterval(this.ticker)), 30_000);
    return line;
  }

  async claim(button) {
    button.disabled = true;
    const { ok, data } = await this.ctx.account.claimDaily();
    if (ok) toast(t("daily.granted", { n: formatCoins(data.granted), balance: formatCoins(data.balance) }));
    else toast(accountError(data), "error");
  }
}

/**
 * The create form's table kind: free, or coins at a stake (form.stake: null or the stake).
 * `rerender()` after a change. Guests see the coin choice disabled, and why.
 */
export function kindField(form, account, rerender) {
  const settings = coinSettings();
  if (!settings) return null;
  const guest = account.guest;
  if (guest) form.stake = null;
  const pick = (stake) => {
    form.stake = stake;
    rerender();
  };
  const option = (value, label, disabled) =>
    h(
      "button",
      {
        type: "button",
        role: "radio",
        class: ["seg", (value === null) === (form.stake === null) ? "on" : ""],
        "aria-checked": String((value === null) === (form.stake === null)),
        disabled,
        dataset: { kind: value === null ? "free" : "coin" },
        on: { click: () => pick(value === null ? null : fittingStake(settings.stakes, account.balance)) },
      },
      label,
    );
  return h(
    "div",
    { class: "field kind-field" },
    h("span", { class: "field-label" }, t("coins.kind")),
    h("div", { class: "segment", role: "radiogroup", "aria-label": t("coins.kind") }, option(null, t("coins.free"), false), option(0, t("coins.coins"), guest)),
    guest ? h("small", { class: "hint" }, t("coins.guestNoShort")) : null,
    form.stake !== null
      ? [
          stakePicker(settings.stakes, form.stake, pick, { disabledAbove: account.balance }),
          h("small", { class: "hint" }, t("coins.feePercent", { n: settings.fee_percent })),
        ]
      : null,
  );
}

