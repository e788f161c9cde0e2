// The WebSocket session: hello/welcome with a token kept in localStorage,
// heartbeats, reconnection with exponential backoff, and a small event bus.
//
// The server re-attaches a seated player as soon as the same token says
// hello again, so a reload or a dropped connection brings the seat back
// without anything special here: we only have to come back quickly.

import { Social } from "./social.js";

const TOKEN_KEY = "sahrat.token";
const PROTOCOL = 1;
// The server pings every 1.5 s; silence this long means the link is dead
// even if the browser has not noticed yet (a sleeping phone, a lost Wi-Fi).
const SILENCE_MS = 8000;
const BACKOFF_FIRST_MS = 500;
const BACKOFF_MAX_MS = 10000;

export function savedToken() {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

function saveToken(token) {
  try {
    if (token) localStorage.setItem(TOKEN_KEY, token);
    else localStorage.removeItem(TOKEN_KEY);
  } catch {
    /* private mode: the session lasts as long as the tab */
  }
}

/** 32 random hex characters from the browser's CSPRNG: our share of the shuffle. */
export function randomSeed() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class Connection {
  constructor(url) {
    this.url = url;
    this.ws = null;
    this.status = "idle"; // idle | connecting | open | closed
    this.player = null;
    this.handlers = new Map();
    this.attempt = 0;
    this.retryTimer = null;
    this.silenceTimer = null;
    this.nextId = 1;
    // Server clock minus ours, in ms, from the pings' timestamps: turn
    // deadlines are the server's epoch seconds.
    this.clockOffset = 0;
    // Friends online and invitations: their handlers register on this connection.
    this.social = new Social(this);
  }

  /** Call `fn(message)` for every message of `type` ("*" for all, "status" for link changes). */
  on(type, fn) {
    if (!this.handlers.has(type)) this.handlers.set(type, new Set());
    this.handlers.get(type).add(fn);
    return () => this.handlers.get(type).delete(fn);
  }

  emit(type, message) {
    for (const fn of this.handlers.get(type) || []) fn(message);
    for (const fn of this.handlers.get("*") || []) fn(message);
  }

  setStatus(status) {
    this.status = status;
    this.emit("status", { type: "status", status });
  }

  start() {
    this.connect();
    // Coming back to the tab or the network: don't wait for the backoff.
    window.addEventListener("online", () => this.retryNow());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.retryNow();
    });
  }

  retryNow() {
    if (this.status === "closed") {
      clearTimeout(this.retryTimer);
      this.connect();
    }
  }

  /**
   * Say hello again as someone else: `token` after a log-in or registration, null for a
   * fresh guest (log-out, a refused token). A socket greets once, so this opens a new one.
   */
  switchToken(token) {
    saveToken(token);
    clearTimeout(this.retryTimer);
    clearTimeout(this.silenceTimer);
    const old = this.ws;
    this.ws = null; // its close is not a lost link: no backoff
    this.player = null;
    if (old) old.close();
    this.attempt = 0;
    this.connect();
  }

  connect() {
    this.setStatus("connecting");
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      const hello = { type: "hello" };
      const token = savedToken();
      if (token) hello.token = token;
      this.raw(hello);
      this.heard();
    });
    ws.addEventListener("message", (event) => {
      // A socket we replaced (switchToken) may still deliver a frame or two: not ours any more.
      if (this.ws === ws) this.receive(event.data);
    });
    ws.addEventListener("close", () => {
      if (this.ws === ws) this.lost();
    });
    ws.addEventListener("error", () => ws.close());
  }

  heard() {
    clearTimeout(this.silenceTimer);
    this.silenceTimer = setTimeout(() => this.ws && this.ws.close(), SILENCE_MS);
  }

  lost() {
    clearTimeout(this.silenceTimer);
    this.ws = null;
    this.player = null;
    this.setStatus("closed");
    // Exponential backoff with jitter, so a restarted server is not stormed.
    const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** this.attempt);
    this.attempt += 1;
    this.retryTimer = setTimeout(() => this.connect(), delay * (0.75 + Math.random() / 2));
  }

  receive(text) {
    this.heard();
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (!message || typeof message.type !== "string") return;
    if (message.type === "ping") {
      if (typeof message.t === "number") this.clockOffset = message.t - Date.now();
      this.raw({ type: "pong" });
      return;
    }
    if (message.type === "error" && message.code === "bad_token" && this.status !== "open") {
      // Our token was forged, revoked or expired: forget it and carry on as a new guest.
      this.emit(message.type, message);
      this.switchToken(null);
      return;
    }
    if (message.type === "welcome") {
      saveToken(message.token);
      this.player = message.player;
      this.attempt = 0;
      this.setStatus("open");
    }
    this.emit(message.type, message);
  }

  raw(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify({ v: PROTOCOL, ...message }));
      return true;
    }
    return false;
  }

  /** Send a protocol message once introduced; returns its id (echoed by an error). */
  send(type, fields = {}) {
    if (this.status !== "open") return null;
    const id = this.nextId++;
    this.raw({ type, id, ...fields });
    return id;
  }

  /** The server's clock, in epoch seconds. */
  serverNow() {
    return (Date.now() + this.clockOffset) / 1000;
  }
}
