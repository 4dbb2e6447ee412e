// Pöytä service worker: precaches the app shell; the API is never cached (always network).
// The server puts CACHE_VERSION and SHELL in front of this script (see
// api/http/resources/pwa/routes.py): SHELL lists the shell's files and every file of each
// registered game's folder, and CACHE_VERSION is a digest of their contents, so that any change
// installs a new shell.

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
  event.respondWith(caches.match(request, { ignoreSearch: true }).then((hit) => hit || fetch(request)));
});

// Notices (payload {title, body, url, game}): "your turn" and reminders open the game, a challenge
// the inbox with its invitation, the digest (game null) home; one per game, the newest replaces it.
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
