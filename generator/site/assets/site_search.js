// The home pages' script: the city search (GET /v1/cities?q=); feed links are feed_links.js.
// Everything still works without it: the full city list is in the page, feeds keep https links.
"use strict";
(function () {
  const form = document.getElementById("city-search");
  const input = document.getElementById("city-q");
  const language = document.getElementById("city-lang");
  const results = document.getElementById("city-results");
  form.hidden = false;
  let timer = null;
  let asked = "";

  // The index has a language list; a home page in ar, fa or ur links its own language.
  const pageLanguage = document.documentElement.lang;
  const chosen = () => (language ? language.value : pageLanguage);

  function cityHref(id) {
    const lang = chosen();
    return "/city/" + encodeURIComponent(id) + "/" + (lang === "en" ? "" : lang + "/");
  }

  function show(cities) {
    results.replaceChildren();
    for (const city of cities) {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = cityHref(city.id);
      const own = pageLanguage === "en" ? chosen() : pageLanguage;
      link.textContent = city.names[own];
      link.dir = "auto";
      item.append(link);
      for (const other of ["en", "ar", "fa", "ur"]) {
        if (other === own) continue;
        const name = document.createElement("bdi");  // each name isolated: mixed scripts keep their order
        name.textContent = city.names[other];
        name.lang = other;
        item.append(pageLanguage === "en" ? " · " : " — ", name);
      }
      item.append(" (" + city.country + ")");
      results.append(item);
    }
  }

  async function search() {
    const q = input.value.trim();
    if (q === asked) return;
    asked = q;
    if (!q) { results.replaceChildren(); return; }
    const response = await fetch("/v1/cities?q=" + encodeURIComponent(q));
    if (q !== asked) return;  // a later keystroke has asked again
    show(response.ok ? (await response.json()).cities : []);
  }

  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(search, 150);
  });
  if (language) language.addEventListener("change", function () { asked = ""; search(); });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    const first = results.querySelector("a");
    if (first) location.href = first.href;
  });
})();
