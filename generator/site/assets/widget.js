// Embed the prayer-times widget: <script src="ORIGIN/widget.js" data-city="karbala" data-lang="ar" async></script>
// The script only inserts an iframe of ORIGIN/widget/?<its data- attributes> after itself and sets the
// frame's height from the frame's messages (origin and shape checked); it reads nothing of the page.
// data-jamaat-round="fajr:5" becomes jamaatRound=fajr:5 (the DOM's dataset spelling).
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !script.src) return;
  var link = document.createElement("a"); // the script's origin, read by a link (ES5: no URL objects)
  link.href = script.src;
  var origin = link.protocol + "//" + link.host;
  var query = Object.keys(script.dataset).map(function (name) {
    return encodeURIComponent(name) + "=" + encodeURIComponent(script.dataset[name]);
  }).join("&");
  var titles = TITLES;
  var frame = document.createElement("iframe");
  frame.src = origin + "/widget/?" + query;
  frame.title = titles[script.dataset.lang] || titles.en;
  frame.setAttribute("scrolling", "no");
  frame.style.width = "100%";
  frame.style.height = "320px";
  frame.style.border = "0";
  frame.style.display = "block";
  script.parentNode.insertBefore(frame, script.nextSibling);
  window.addEventListener("message", function (event) {
    var message = event.data;
    if (event.origin !== origin || event.source !== frame.contentWindow) return;
    if (!message || message.source !== "shia-times-widget" || typeof message.height !== "number") return;
    if (message.height > 0 && message.height < 4000) frame.style.height = Math.ceil(message.height) + "px";
  });
})();
