// So Clover! table: the service worker. It keeps copies of the static files (the
// stylesheet, the scripts, htmx, the icons: everything under /static/)
// and of nothing else. Pages, room reads, the API, the live streams and every form
// or action are per seat (a Spectator's hold the solution): it never touches them.
//
// Its scope is the whole site: it is served at /sw.js (app/web/install.py), not at
// /static/sw.js. A service worker handles the requests of the pages it controls,
// whatever their URL, and controls only the pages inside its scope: one scoped to
// /static/ would control no page of the table and so never see a request for its
// stylesheet or scripts. Scoped to /, it sees every request of every page, and for
// anything but a GET under /static/ of this site it returns without calling
// respondWith, so the browser sends that request to the network exactly as if there
// were no worker (no copy, no delay, streams untouched).
//
// Bump VERSION when the list below changes: the new worker fills a new cache and
// deletes every other one when it takes over.
"use strict";

const VERSION = "3";
const CACHE = "soclover-static-" + VERSION;
const SHELL = [
  "/static/table.css",
  "/static/table.js",
  "/static/theme.js",
  "/static/install.js",
  "/static/share.js",
  "/static/vendor/htmx-2.0.11.min.js",
  "/static/vendor/htmx-ext-sse-2.2.4.min.js",
  "/static/clover.svg",
  "/static/icons/clover-192.png",
  "/static/icons/clover-512.png",
  "/static/icons/clover-maskable.svg",
  "/static/icons/clover-maskable-192.png",
  "/static/icons/clover-maskable-512.png",
  "/static/icons/apple-touch-icon.png",
];
// Files whose names carry their version never change: the copy answers at once. The
// others (table.css, table.js...) change with each release under the same name, so the
// network answers first and the copy only when the network fails, and a page never
// gets last release's script with this release's HTML.
const IMMUTABLE = /^\/static\/vendor\/.*-\d+\.\d+\.\d+\.min\.js$/;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      // one missing file must not keep the worker from installing
      .then((cache) => Promise.all(SHELL.map((url) => cache.add(url).catch(() => undefined))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

// The API's docs (Swagger UI, about 2 MB) are for developers at a computer: a phone
// that once opened /docs keeps no copy of them beside the game's files.
const NOT_KEPT = /^\/static\/(vendor\/swagger-ui-|api-docs\.js)/;

function isStatic(request) {
  if (request.method !== "GET") return false;
  const url = new URL(request.url);
  return (
    url.origin === self.location.origin &&
    url.pathname.startsWith("/static/") &&
    !NOT_KEPT.test(url.pathname)
  );
}

self.addEventListener("fetch", (event) => {
  if (!isStatic(event.request)) return; // the network's, untouched
  const path = new URL(event.request.url).pathname;
  event.respondWith(IMMUTABLE.test(path) ? cacheFirst(event) : networkFirst(event));
});

async function cacheFirst(event) {
  const copy = await caches.match(event.request, { cacheName: CACHE });
  return copy || networkFirst(event);
}

async function networkFirst(event) {
  const request = event.request;
  try {
    const response = await fetch(request);
    // whole answers of this site only: no error, no partial content, nothing opaque
    if (response.status === 200 && response.type === "basic") {
      const copy = response.clone();
      event.waitUntil(caches.open(CACHE).then((cache) => cache.put(request, copy)));
    }
    return response;
  } catch (offline) {
    const copy = await caches.match(request, { cacheName: CACHE });
    if (copy) return copy;
    throw offline;
  }
}
