// The screen's service worker (scope /screen/): the screen page and the API answers it reads are
// fetched from the network first and kept; without network the kept copy answers, marked with the
// header x-screen-offline: 1 (the screen then says how old its times are once they pass a day).
// Only this origin's GET requests under /screen/, /v1/ and /today/v1/ without If-None-Match are touched; nothing
// else is kept.
// ECMAScript 5.1 and promises, as the page's own script (docs/site.md, "Old TVs"): a TV whose engine has
// service workers (Chromium 40 on) runs this too.
"use strict";
var CACHE = "screen-v1";
var KEPT = ["/screen/", "/v1/", "/today/v1/"];

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.map(function (name) {
      return name.indexOf("screen-") === 0 && name !== CACHE ? caches["delete"](name) : null;
    }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (!KEPT.some(function (prefix) { return url.pathname.indexOf(prefix) === 0; })) return;
  // A conditional request (a hosted profile's page asking whether it was edited) is the network's to answer: a 304
  // is not an answer to keep, and a kept copy cannot say whether the profile changed.
  if (request.headers.has("If-None-Match")) return;
  event.respondWith(networkFirst(request));
});

function fromCache(cache, request, response) {
  return cache.match(request.url, { ignoreVary: true }).then(function (kept) {
    if (!kept) return response || Response.error();
    var headers = new Headers(kept.headers);
    headers.set("x-screen-offline", "1");
    return kept.blob().then(function (body) { // a blob, not the body's stream: streams in a Response are Chromium 52
      return new Response(body, { status: kept.status, statusText: kept.statusText, headers: headers });
    });
  });
}

function networkFirst(request) {
  return caches.open(CACHE).then(function (cache) {
    return fetch(request).then(function (response) {
      if (!response.ok) return fromCache(cache, request, response);
      return cache.put(request.url, response.clone()).then(function () { return response; });
    }, function () {
      return fromCache(cache, request, null);
    });
  });
}
