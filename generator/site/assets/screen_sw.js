// The screen's service worker (scope /screen/): the screen page and the API answers it reads are
// fetched from the network first and kept; without network the kept copy answers, marked with the
// header x-screen-offline: 1 (the screen then says how old its times are once they pass a day).
// Only this origin's GET requests under /screen/, /v1/ and /today/v1/ are touched; nothing else is kept.
"use strict";
const CACHE = "screen-v1";
const KEPT = ["/screen/", "/v1/", "/today/v1/"];

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name.startsWith("screen-") && name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (!KEPT.some((prefix) => url.pathname.startsWith(prefix))) return;
  event.respondWith(networkFirst(request));
});

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  let response = null;
  try {
    response = await fetch(request);
    if (response.ok) {
      await cache.put(request.url, response.clone());
      return response;
    }
  } catch (error) {
    response = null;
  }
  const kept = await cache.match(request.url, { ignoreVary: true });
  if (!kept) return response || Response.error();
  const headers = new Headers(kept.headers);
  headers.set("x-screen-offline", "1");
  return new Response(kept.body, { status: kept.status, statusText: kept.statusText, headers });
}
