// Installable: the service worker (sw.js, static files only) is registered
// for the whole site once the page has loaded, so the first visit is not
// slowed. Where service workers are missing (a plain http address other than
// localhost), the site simply works as before.

export function registerWorker() {
  if (!("serviceWorker" in navigator)) return;
  const go = () => navigator.serviceWorker.register("/static/sw.js", { scope: "/" }).catch(() => {});
  if (document.readyState === "complete") go();
  else window.addEventListener("load", go, { once: true });
}
