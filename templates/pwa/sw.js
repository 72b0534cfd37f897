/* Carousel's service worker (rummy/pwa/views.py serves it at /sw.js, scope "/").

   What it caches is an allow-list: the static files and the offline page, nothing else.
   A game page, an HTMX fragment, a form's POST or a socket always goes to the server,
   and when the server cannot be reached a page shows the offline page instead: a stale
   table must never look current. */
"use strict";

const CONFIG = {{ config|safe }};
const CACHE = "carousel-" + CONFIG.version;
// Every cache of ours starts with this; others on the origin are not ours to delete.
const CACHE_PREFIX = "carousel-";
// The proxy answers these when no worker behind it is reachable: as good as offline.
const GATEWAY_DOWN = new Set([502, 503, 504]);

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll([...CONFIG.precache, CONFIG.offline]))
      // A new worker only changes what is cached, never a page: no reason to wait for
      // every tab of the old one to close.
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(
        names
          .filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE)
          .map((name) => caches.delete(name))
      ))
      // Control the pages already open, so the first visit works offline too.
      .then(() => self.clients.claim())
  );
});

function isStatic(url) {
  return url.origin === self.location.origin && url.pathname.startsWith(CONFIG.staticPrefix);
}

// Static files: cache first. In production their names carry their content's hash, so
// a cached copy is never out of date; in development the cache's name changes with
// every edit (CONFIG.version), which has the same effect.
async function staticFile(request) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request);
  if (cached) {
    return cached;
  }
  const response = await fetch(request);
  if (response.ok && response.type === "basic") {
    await cache.put(request, response.clone());
  }
  return response;
}

// Pages: always the network. The offline page only when the server cannot be reached;
// the page itself is never stored, so it can never come back stale.
async function page(event) {
  try {
    const response = await fetch(event.request);
    if (!GATEWAY_DOWN.has(response.status)) {
      event.waitUntil(followLanguage(response));
      return response;
    }
  } catch (error) {
    // The network failed: no answer came, so nothing was sent. The offline page says so.
  }
  const offline = await caches.match(CONFIG.offline);
  return offline || Response.error();
}

// The offline page is cached in the language of the pages the player sees (the server
// says which in Content-Language); after a change of language it is fetched again.
async function followLanguage(response) {
  const language = response.headers.get("Content-Language");
  if (!language) {
    return;
  }
  const cache = await caches.open(CACHE);
  const offline = await cache.match(CONFIG.offline);
  if (!offline || offline.headers.get("Content-Language") !== language) {
    await cache.add(CONFIG.offline).catch(() => {});
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  // Anything but a plain GET (a move, a form) goes to the server untouched.
  if (request.method !== "GET") {
    return;
  }
  const url = new URL(request.url);
  if (isStatic(url)) {
    event.respondWith(staticFile(request));
  } else if (request.mode === "navigate" && url.origin === self.location.origin) {
    event.respondWith(page(event));
  }
  // Everything else (HTMX fragments, JSON, other sites) is not ours to answer.
});

// Only a page of this site may be opened from a notification; anything else opens the
// home page (a payload is data from our server, but never trusted with a foreign URL).
// What is kept is a path that stays on this site however often it is read again: a
// path such as "/.//evil.example/x" or "/%2e//evil.example" parses to the path
// "//evil.example/x", which, read once more (as the tap does), is a protocol-relative
// address on another host.
function sitePath(value) {
  if (typeof value !== "string" || !value.startsWith("/")) {
    return "/";
  }
  const origin = self.location.origin;
  let url;
  try {
    url = new URL(value, origin);
  } catch (error) {
    return "/";
  }
  const path = url.pathname + url.search + url.hash;
  if (url.origin !== origin || !path.startsWith("/") || path.startsWith("//")) {
    return "/";
  }
  return new URL(path, origin).href === url.href ? path : "/";
}

// The payload the sender (rummy.notifications) agreed on:
// {"title": str, "body": str, "url": "/games/12/", "tag": str}.
function notificationFrom(data) {
  const text = (value) => (typeof value === "string" ? value : "");
  return {
    title: text(data.title) || "Carousel",
    options: {
      body: text(data.body),
      // One notification per tag (a game, a kind): a newer one replaces it and, with
      // renotify, still buzzes.
      tag: text(data.tag) || "carousel",
      renotify: true,
      icon: CONFIG.icon,
      badge: CONFIG.badge,
      data: {url: sitePath(data.url)},
    },
  };
}

function onPush(event) {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = {};  // not JSON: still show something rather than nothing
  }
  if (data === null || typeof data !== "object") {
    data = {};
  }
  const notification = notificationFrom(data);
  event.waitUntil(self.registration.showNotification(notification.title, notification.options));
}

// The tap: a tab already at that page comes to the front, else a new one opens there.
async function openFromNotification(path) {
  // sitePath again: a notification shown by an older worker may hold a path it let by.
  const target = new URL(sitePath(path), self.location.origin).href;
  const windows = await self.clients.matchAll({type: "window", includeUncontrolled: true});
  const open = windows.find((client) => client.url === target);
  if (open) {
    return open.focus();
  }
  return self.clients.openWindow(target);
}

function onNotificationClick(event) {
  event.notification.close();
  const data = event.notification.data || {};
  event.waitUntil(openFromNotification(data.url));
}

// Named handlers: the browser test calls onNotificationClick with a real notification,
// since no browser lets a test tap one (tests/e2e/test_pwa.py).
self.addEventListener("push", onPush);
self.addEventListener("notificationclick", onNotificationClick);
