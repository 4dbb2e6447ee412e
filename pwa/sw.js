// Pöytä service worker: precaches the app shell; the API is never cached (always network).
// Bump CACHE_VERSION whenever a shell file changes, so clients install the new shell.
const CACHE_VERSION = "poyta-shell-v13";
const SHELL = [
  "/",
  "/index.html",
  "/app.js",
  "/ui.js",
  "/home.js",
  "/game.js",
  "/api.js",
  "/i18n.js",
  "/markdown.js",
  "/poll.js",
  "/inbox.js",
  "/renderers.js",
  "/settings.js",
  "/replay.js",
  "/welcome.js",
  "/howto.js",
  "/pacing.js",
  "/keep.js",
  "/table.js",
  "/games/sixnimmt/howto.js",
  "/games/sixtysix/howto.js",
  "/games/sticheln/howto.js",
  "/games/hattrick/howto.js",
  "/vendor/qrcode-generator.js",
  "/styles.css",
  "/manifest.webmanifest",
  "/games/sixnimmt/renderer.js",
  "/games/sixtysix/renderer.js",
  "/games/sticheln/renderer.js",
  "/games/hattrick/renderer.js",
  "/icons/icon-192.png",
  "/icons/icon-512.png",
  "/icons/maskable-192.png",
  "/icons/maskable-512.png",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE_VERSION)
    .then((cache) => cache.addAll(SHELL.map((url) => new Request(url, { cache: "reload" }))))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((key) => key.startsWith("poyta-") && key !== CACHE_VERSION)
      .map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  // Never cache the API (nor anything not ours, nor non-GETs): straight to the network.
  if (request.method !== "GET" || url.origin !== self.location.origin || url.pathname.startsWith("/api/")) return;
  if (request.mode === "navigate") {
    // Every page of the app is index.html with a #/route.
    event.respondWith(caches.match("/index.html").then((hit) => hit || fetch(request)));
    return;
  }
  event.respondWith(caches.match(request, { ignoreSearch: true }).then((hit) => hit || fetch(request).then((response) => {
    // Game modules added later (games/<type>.js) are cached on first use.
    if (response.ok && url.pathname.startsWith("/games/")) {
      const copy = response.clone();
      caches.open(CACHE_VERSION).then((cache) => cache.put(request, copy));
    }
    return response;
  })));
});

// "Your turn" notices (payload {title, body, url, game}); one per game, the newest replaces it.
self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch { data = { body: event.data && event.data.text() }; }
  event.waitUntil(self.registration.showNotification(data.title || "Pöytä", {
    body: data.body || "",
    icon: "/icons/icon-192.png",
    badge: "/icons/maskable-192.png",
    tag: data.game ? `game-${data.game}` : undefined,
    data: { url: data.url || "/" },
  }));
});

// Tapping the notice focuses an open app window on that game, else opens one.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin).href;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
    const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
    // navigate() fails on a window the worker does not control yet: open a new one then.
    if (open) return open.focus().then((client) => client.navigate(url)).catch(() => self.clients.openWindow(url));
    return self.clients.openWindow(url);
  }));
});
