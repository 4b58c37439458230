// Feed links on this host: webcal:// (subscribe) and https:// (download), from each link's data-path.
// Without the script the links keep the relative https address the page was rendered with.
"use strict";
(function () {
  for (const link of document.querySelectorAll("a.webcal")) {
    link.href = "webcal://" + location.host + link.dataset.path;
  }
  for (const link of document.querySelectorAll("a.https")) {
    link.href = location.protocol + "//" + location.host + link.dataset.path;
  }
})();
