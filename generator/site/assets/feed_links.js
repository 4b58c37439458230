// Feed links: webcal:// (subscribe) and https:// (download), from each link's data-path, on the site's public
// origin when the operator set PUBLIC_ORIGIN (rendered in below: never the address this page happens to be read on,
// such as an app's own port behind the proxy), else on this host.  Without the script the links keep the relative
// https address the page was rendered with.
"use strict";
(function () {
  const origin = {{ public_origin | tojson }} || location.protocol + "//" + location.host;
  const host = origin.slice(origin.indexOf("//") + 2);
  for (const link of document.querySelectorAll("a.webcal")) {
    link.href = "webcal://" + host + link.dataset.path;
  }
  for (const link of document.querySelectorAll("a.https")) {
    link.href = origin + link.dataset.path;
  }
})();
