// The service worker that makes Sahrat installable and able to open without
// a network: it keeps a copy of the client's static files (/static/…) and of
// the page itself, fetched fresh whenever the network answers (network first,
// so a new version is never hidden behind an old copy).
//
// It never touches the API (/api/…), the WebSocket (/ws) or anything but a
// GET: a game is live or it is nothing, and its answers must never be replayed.
// While online it lets page loads go straight to the server; offline, the
// copy of "/" opens.

const CACHE = "sahrat-static-v1";
const SHELL = ["/", "/static/style.css", "/static/table.css", "/static/account.css", "/static/app.js", "/static/favicon.svg"];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => Promise.all(SHELL.map((path) => cache.add(path).catch(() => null))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    if (url.pathname === "/" && !self.navigator.onLine) event.respondWith(caches.match("/").then((hit) => hit || fetch(request)));
    return;
  }
  if (!url.pathname.startsWith("/static/")) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(request, copy));
        }
        return response;
      })
      .catch(() => caches.match(request).then((hit) => hit || Response.error())),
  );
});
