// The screen's service worker (scope /screen/): the screen page and the API answers it reads are
// fetched from the network first and kept; without network the kept copy answers, marked with the
// header x-screen-offline: 1 (the screen then says how old its times are once they pass a day).
// Only this origin's GET requests under /screen/, /v1/ and /today/v1/ without If-None-Match are touched; nothing
// else is kept.
// ECMAScript 5.1 and promises, as the page's own script (docs/site.md, "Old TVs"): a TV whose engine has
// service workers (Chromium 40 on) runs this too.
//
// The same script also serves a mosque's short address, /mosque/<id>/screen/ (the app's 302 to that mosque's screen,
// outside /screen/): the screen page registers it a second time with that scope (its header Service-Worker-Allowed: /
// allows a scope outside /screen/; the header names one path, and /screen/ and /mosque/ share only /) and the screen's
// address as ?screen=<address>.  That registration touches nothing but the short address itself: from the network
// first (the 302 as it comes), else a redirect to the screen's address, which the /screen/ registration then answers
// from its kept copy.  The address is followed only if it is this origin's /screen/ for that same mosque (a crafted
// registration cannot redirect anywhere else).  A registration of any other scope touches nothing.
"use strict";
var CACHE = "screen-v1";
var KEPT = ["/screen/", "/v1/", "/today/v1/"];
var SCOPE_PATH = new URL(self.registration.scope).pathname;
var SCREEN = SCOPE_PATH === "/screen/"; // the screen's own registration (generator/site/screen.py SCOPE)
var HOME = /^\/mosque\/[A-Za-z0-9_-]+\/screen\/$/.test(SCOPE_PATH) ? screenOfHome(SCOPE_PATH) : null;

function screenOfHome(scopePath) {
  // The screen's address this registration's short address leads to (?screen= of the script's address), or null
  // (nothing is then answered: the browser asks the network as if there were no worker).
  var given = /[?&]screen=([^&#]*)/.exec(self.location.search);
  var mosque = scopePath.split("/")[2];
  var target;
  try {
    target = new URL(decodeURIComponent(given ? given[1] : ""), self.location.href);
  } catch (e) {
    return null;
  }
  var sameMosque = new RegExp("^\\?(.*&)?mosque=" + mosque + "(&|$)").test(target.search);
  return given && target.origin === self.location.origin && target.pathname === "/screen/" && sameMosque
    ? target.href : null;
}

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
  if (HOME && url.pathname === SCOPE_PATH) event.respondWith(toScreen(request)); // a mosque's short address (above)
  if (!SCREEN) return;
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

function toScreen(request) {
  // The short address: the network's answer when it has one (a navigation's redirect stays opaque: the browser
  // follows it itself), else, and on an error status as for the screen's own pages, the screen's address.
  return fetch(request).then(function (response) {
    return response.ok || response.type === "opaqueredirect" ? response : Response.redirect(HOME, 302);
  }, function () {
    return Response.redirect(HOME, 302);
  });
}
