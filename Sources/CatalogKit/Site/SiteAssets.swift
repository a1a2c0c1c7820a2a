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
    // Search as you type over window.GV_INDEX: [file, code, title, subject, level, credits, description] per course.
    (function () {
      "use strict";
      var index = window.GV_INDEX || [];
      var form = document.getElementById("search"), status = document.getElementById("status"), results = document.getElementById("results");
      var fields = ["q", "subject", "level", "credits"].map(function (id) { return document.getElementById(id); });
      var lowered = index.map(function (c) { return [c[1].replace(/\\s+/g, "").toLowerCase(), c[2].toLowerCase(), c[6].toLowerCase()]; });
      var shown = 50;

      // Every word must match: in the code (best), the title, or the description.
      function score(i, words) {
        var total = 0, l = lowered[i];
        for (var w = 0; w < words.length; w++) {
          var word = words[w], s = l[0].indexOf(word) === 0 ? 6 : l[0].indexOf(word) >= 0 ? 4 : l[1].indexOf(word) >= 0 ? 2 : l[2].indexOf(word) >= 0 ? 1 : 0;
          if (!s) return 0;
          total += s;
        }
        return total;
      }

      function run(event) {
        var started = event && event.timeStamp ? event.timeStamp : performance.now();
        var query = fields[0].value.trim(), subject = fields[1].value, level = fields[2].value, credits = fields[3].value;
        var words = query.toLowerCase().replace(/([a-z])\\s+(\\d)/g, "$1$2").split(/\\s+/).filter(Boolean), hits = [];
        if (words.length || subject || level || credits) {
          for (var i = 0; i < index.length; i++) {
            var c = index[i];
            if ((subject && c[3] !== subject) || (level && c[4] !== level) || (credits && c[5] !== credits)) continue;
            var s = words.length ? score(i, words) : 1;
            if (s) hits.push([s, i]);
          }
          hits.sort(function (a, b) { return b[0] - a[0] || a[1] - b[1]; });
        }
        results.textContent = "";
        hits.slice(0, shown).forEach(function (hit) {
          var c = index[hit[1]], li = document.createElement("li"), a = document.createElement("a"), small = document.createElement("small");
          a.href = "course/" + c[0] + ".html";
          a.textContent = c[1] + ": " + c[2];
          small.textContent = " " + [c[3], c[4], c[5] && c[5] + " credits"].filter(Boolean).join(" · ");
          li.appendChild(a);
          li.appendChild(small);
          results.appendChild(li);
        });
        status.textContent = words.length || subject || level || credits
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
