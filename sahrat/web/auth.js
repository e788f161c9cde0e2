// Log in and register (#login, #register). Registering sends the guest's own
// token along, so the guest becomes the account: same player, same history;
// its name is offered as the account's name. Every refusal is worded from the
// server's code, in the page's language.

import { h, fill, toast } from "./dom.js";
import { t, has } from "./i18n.js";
import { api } from "./api.js";
import { formatCoins } from "./coins.js";

/** The words for a REST error's data ({code, character, retry_after, …}). */
export function accountError(data) {
  const code = data && data.code;
  const key = `auth.error.${code}`;
  if (!has(key)) return t("auth.error.failed");
  return t(key, {
    character: data.character === undefined ? "" : `\u2068${data.character}\u2069`,
    n: data.retry_after ?? data.need ?? "",
  });
}

/** A labelled input; `hint` under it. */
export function field(label, input, hint) {
  return h("label", { class: "field" }, h("span", { class: "field-label" }, label), input, hint ? h("small", { class: "hint" }, hint) : null);
}

export function errorBox() {
  return h("p", { class: "notice error form-error", role: "alert", hidden: true });
}

export function showError(box, data) {
  box.hidden = false;
  box.dataset.code = data.code;
  box.textContent = accountError(data);
}

export class AuthScreen {
  /** `mode`: "login" or "register"; `app`: {account, conn, go(page)}. */
  constructor(mode, app) {
    this.mode = mode;
    this.app = app;
    this.busy = false;
    const me = app.account.me;
    // A guest keeps their name if they like it: the form starts with it.
    this.values = { name: mode === "register" && me && app.account.guest ? me.name : "", password: "" };
    this.el = h("main", { class: "page auth", id: "auth", dataset: { mode } });
    // Opened by its address before the server said who we are: the name comes with the welcome.
    this.unlisten = app.account.on((account) => {
      if (mode === "register" && account.guest && account.me && !this.values.name) {
        this.values.name = account.me.name;
        this.name.value = account.me.name;
      }
    });
    this.render();
  }

  destroy() {
    this.unlisten();
  }

  relabel() {
    this.render();
  }

  render() {
    const register = this.mode === "register";
    this.name = h("input", {
      type: "text",
      name: "name",
      autocomplete: "username",
      maxlength: "40",
      dir: "auto",
      value: this.values.name,
      on: { input: (e) => (this.values.name = e.target.value) },
    });
    this.password = h("input", {
      type: "password",
      name: "password",
      autocomplete: register ? "new-password" : "current-password",
      value: this.values.password,
      dir: "ltr",
      on: { input: (e) => (this.values.password = e.target.value) },
    });
    this.error = errorBox();
    const tab = (mode) =>
      h(
        "button",
        { type: "button", role: "tab", class: "tab", "aria-selected": String(this.mode === mode), dataset: { tab: mode }, on: { click: () => this.app.go(mode) } },
        t(`auth.${mode}`),
      );
    fill(
      this.el,
      h(
        "section",
        { class: "panel narrow" },
        h("div", { class: "tabs", role: "tablist" }, tab("login"), tab("register")),
        h("h1", { class: "page-title" }, t(register ? "auth.registerTitle" : "auth.loginTitle")),
        register ? h("p", { class: "hint" }, t("auth.registerAbout")) : null,
        h(
          "form",
          { class: "auth-form", novalidate: true, on: { submit: (e) => this.submit(e) } },
          field(t("auth.name"), this.name, register ? t("auth.nameRules") : null),
          field(t("auth.password"), this.password, register ? t("auth.passwordRules") : null),
          this.error,
          h("button", { type: "submit", class: "btn primary", dataset: { action: this.mode } }, t(register ? "auth.registerSubmit" : "auth.loginSubmit")),
        ),
      ),
    );
  }

  async submit(event) {
    event.preventDefault();
    if (this.busy) return;
    const register = this.mode === "register";
    const body = { name: this.values.name.trim(), password: this.values.password };
    if (!body.name || !body.password) {
      showError(this.error, { code: "empty" });
      return;
    }
    this.busy = true;
    // Registering carries the guest's token (api.js sends it): the guest becomes the account.
    const { ok, data } = await api("POST", register ? "/api/accounts" : "/api/sessions", body);
    this.busy = false;
    if (!ok) {
      showError(this.error, data);
      return;
    }
    this.values.password = "";
    this.app.conn.switchToken(data.token);
    this.app.account.welcome(data.player);
    toast(register ? t("auth.registered", { name: data.player.name, n: formatCoins(data.player.balance ?? 0) }) : t("auth.welcomeBack", { name: data.player.name }));
    this.app.go("");
  }
}
