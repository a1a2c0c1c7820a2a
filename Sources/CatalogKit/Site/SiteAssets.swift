/// The site's style sheet and search script, written as they are: no framework, nothing fetched from elsewhere.
enum SiteAssets {
    static let css = """
    :root { --ink: #1b1b1b; --muted: #555; --line: #c8c8c8; --accent: #0b57a4; --bad: #a40b0b; }
    * { box-sizing: border-box; }
    body { margin: 0 auto; max-width: 72rem; padding: 0 1rem 2rem; font: 16px/1.5 system-ui, sans-serif; color: var(--ink); }
    a { color: var(--accent); }
    .skip { position: absolute; left: -999px; }
    .skip:focus { left: 1rem; top: 1rem; background: #fff; padding: .5rem; }
    header { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; border-bottom: 1px solid var(--line); padding: .5rem 0; }
    header .site { font-weight: bold; margin: 0; }
    nav ul { list-style: none; display: flex; flex-wrap: wrap; gap: .25rem 1rem; margin: 0; padding: 0; }
    header form { margin-left: auto; }
    input, select, button { font: inherit; padding: .25rem .4rem; max-width: 100%; }
    :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
    table { border-collapse: collapse; width: 100%; }
    th, td { text-align: left; vertical-align: top; padding: .25rem .5rem; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
    .wide { overflow-x: auto; }
    .columns { columns: 12rem; }
    dl.facts { display: grid; grid-template-columns: minmax(8rem, max-content) 1fr; gap: .25rem 1rem; }
    dl.facts dd { margin: 0; } dl.facts dd p, dl.facts dd p:first-child { margin: 0 0 .5rem; }
    dl.record dt { font-family: monospace; } dl.record dd { margin: 0 0 .3rem 1.5rem; overflow-wrap: anywhere; }
    .missing { color: var(--muted); }
    td.drop { color: var(--bad); font-weight: bold; }
    del { color: var(--bad); } ins { color: #0a6b2a; }
    figure { margin: 1rem 0; overflow-x: auto; }
    svg.map { display: block; max-width: none; font: 13px system-ui, sans-serif; }
    svg.map rect { fill: #eef4fb; stroke: var(--accent); }
    svg.map a:hover rect, svg.map a:focus rect { fill: #cfe1f5; }
    svg.map .self rect { fill: var(--accent); } svg.map .self text { fill: #fff; font-weight: bold; }
    svg.map .missing rect, svg.map .more rect { fill: #f4f4f4; stroke: var(--line); stroke-dasharray: 4 3; }
    svg.map text { text-anchor: middle; fill: var(--ink); }
    svg.map line { stroke: #7a8fa6; marker-end: url(#arrow); } svg.map marker path { fill: #7a8fa6; }
    svg.map line.joins { marker-end: none; } svg.map line.concurrent { stroke-dasharray: 5 4; }
    svg.map .alt rect { fill: #fff6df; stroke: #8a5a00; } svg.map .alt text { font-size: 11px; font-style: italic; }
    #results li { margin: .4rem 0; } #results small { color: var(--muted); }
    .filters label { margin-right: .25rem; } .filters select { margin-right: 1rem; }
    @media (max-width: 40rem) { header form { margin-left: 0; width: 100%; } dl.facts { grid-template-columns: 1fr; } dl.facts dt { font-weight: bold; } }

    """

    static let searchScript = """
    // Search as you type over window.GV_INDEX (CatalogSite.searchIndex), ranked as `gvingest search` ranks
    // (CatalogSearch, SearchTier): exact code, start of a code, exact title, start of the title, every word in the
    // title, every word anywhere; ties to the shorter title, then code order (the index's order).
    (function () {
      "use strict";
      var index = window.GV_INDEX || [];
      var form = document.getElementById("search"), status = document.getElementById("status"), results = document.getElementById("results");
      var more = document.getElementById("more");
      var fields = ["q", "subject", "level", "credits"].map(function (id) { return document.getElementById(id); });
      var keys = index.map(function (c) {
        var compact = c[7].replace(/ /g, "");
        return { compact: compact, title: c[8], titleWords: " " + c[8], anywhere: " " + c[7] + " " + compact + " " + c[8] + " " + c[9] };
      });
      var page = 50, shown = page, hits = [];

      // SearchKeys.fold: lower case, accents dropped, every run of other characters than letters and digits a space.
      function fold(text) {
        return text.normalize("NFD").replace(/\\p{M}/gu, "").toLowerCase().replace(/[^\\p{L}\\p{N}]+/gu, " ").trim();
      }

      // SearchKeys.tier: 0 (best) to 5, or -1 for no match.
      function tier(k, query, compact, words) {
        if (k.compact === compact) return 0;
        if (k.compact.indexOf(compact) === 0) return 1;
        if (k.title === query) return 2;
        if (k.title.indexOf(query) === 0) return 3;
        if (words.every(function (w) { return k.titleWords.indexOf(w) >= 0; })) return 4;
        if (words.every(function (w) { return k.anywhere.indexOf(w) >= 0; })) return 5;
        return -1;
      }

      function show(focusFrom) {
        for (var n = results.children.length; n < Math.min(shown, hits.length); n++) {
          var c = index[hits[n][2]], li = document.createElement("li"), a = document.createElement("a"), small = document.createElement("small");
          a.href = "course/" + c[0] + ".html";
          a.textContent = c[1] + ": " + c[2];
          small.textContent = " " + [c[3], c[4], c[6]].filter(Boolean).join(" · ");
          li.appendChild(a);
          li.appendChild(small);
          results.appendChild(li);
          if (n === focusFrom) a.focus();
        }
        var left = hits.length - results.children.length;
        more.hidden = left <= 0;
        more.textContent = "Show " + Math.min(page, left) + " more (" + left + " not shown)";
      }

      function run(event) {
        var started = event && event.timeStamp ? event.timeStamp : performance.now();
        var query = fold(fields[0].value), subject = fields[1].value, level = fields[2].value, credits = fields[3].value;
        var compact = query.replace(/ /g, ""), words = query ? query.split(" ").map(function (w) { return " " + w; }) : [];
        hits = [];
        if (query || subject || level || credits) {
          for (var i = 0; i < index.length; i++) {
            var c = index[i];
            if ((subject && c[3] !== subject) || (level && c[4] !== level) || (credits && c[5] !== credits)) continue;
            var t = query ? tier(keys[i], query, compact, words) : 6;
            if (t >= 0) hits.push([t, t < 6 ? c[2].length : 0, i]);
          }
          hits.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1] || a[2] - b[2]; });
        }
        shown = page;
        results.textContent = "";
        show(-1);
        status.textContent = query || subject || level || credits
          ? hits.length + (hits.length === 1 ? " course" : " courses") + (hits.length > shown ? ", the first " + shown + " shown" : "")
          : "Type a code, a title or words of a description.";
        var params = new URLSearchParams();
        ["q", "subject", "level", "credits"].forEach(function (name, n) { if (fields[n].value) params.set(name, fields[n].value); });
        try { history.replaceState(null, "", location.pathname + (params.toString() ? "?" + params : "")); } catch (e) { /* some file:// pages */ }
        results.setAttribute("data-ms", (performance.now() - started).toFixed(2));
      }

      var params = new URLSearchParams(location.search);
      ["q", "subject", "level", "credits"].forEach(function (name, n) { if (params.has(name)) fields[n].value = params.get(name); });
      form.addEventListener("input", run);
      form.addEventListener("change", run);
      // The next page of results; the focus moves to the first of them, so a keyboard user reads on from there.
      more.addEventListener("click", function () {
        var from = results.children.length;
        shown += page;
        show(from);
        status.textContent = hits.length + " courses" + (hits.length > results.children.length ? ", " + results.children.length + " shown" : "");
      });
      // Enter opens the first result; the arrow down key moves to the results.
      form.addEventListener("submit", function (event) {
        event.preventDefault();
        var first = results.querySelector("a");
        if (first) location.href = first.href;
      });
      fields[0].addEventListener("keydown", function (event) {
        var first = results.querySelector("a");
        if (event.key === "ArrowDown" && first) { event.preventDefault(); first.focus(); }
      });
      run();
      fields[0].focus();
    })();

    """
}
