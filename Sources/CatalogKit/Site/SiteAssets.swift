/// The site's style sheet and search script, written as they are: no framework, nothing fetched from elsewhere.
enum SiteAssets {
    static let css = """
    :root { color-scheme: light dark; --ink: #1b1b1b; --muted: #555; --line: #c8c8c8; --accent: #0b57a4; --bad: #a40b0b; --good: #0a6b2a;
      --page: #fff; --box: #eef4fb; --box-hover: #cfe1f5; --subtle: #f4f4f4; --edge: #7a8fa6; }
    @media (prefers-color-scheme: dark) {
      :root { --ink: #e8e8e8; --muted: #b4b4b4; --line: #4a4a4a; --accent: #8cc4ff; --bad: #ff9b94; --good: #7fdc9c;
        --page: #141517; --box: #1d2a3a; --box-hover: #2a4160; --subtle: #222; --edge: #8fa6c0; }
    }
    * { box-sizing: border-box; }
    body { margin: 0 auto; max-width: 72rem; padding: 0 1rem 2rem; font: 16px/1.5 system-ui, sans-serif; color: var(--ink); background: var(--page); }
    a { color: var(--accent); }
    .skip { position: absolute; left: -999px; }
    .skip:focus { left: 1rem; top: 1rem; background: var(--page); padding: .5rem; }
    header { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; border-bottom: 1px solid var(--line); padding: .5rem 0; }
    header .site { font-weight: bold; margin: 0; } header .site a { display: inline-block; padding: .15rem 0; min-height: 28px; }
    nav ul { list-style: none; display: flex; flex-wrap: wrap; gap: .25rem .5rem; margin: 0; padding: 0; }
    nav a { display: inline-block; min-height: 28px; padding: .15rem .4rem; line-height: 1.5; }
    header form { margin-left: auto; }
    input, select, button { font: inherit; padding: .25rem .4rem; max-width: 100%; }
    :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
    table { border-collapse: collapse; width: 100%; }
    th, td { text-align: left; vertical-align: top; padding: .25rem .5rem; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
    .wide { overflow-x: auto; }
    .columns { columns: 12rem; }
    dl.facts { display: grid; grid-template-columns: minmax(8rem, max-content) 1fr; gap: .25rem 1rem; }
    dl.facts dd { margin: 0; } dl.facts dd p, dl.facts dd p:first-child { margin: 0 0 .5rem; }
    .crumbs { margin: .75rem 0 0; color: var(--muted); } .lead { font-size: 1.1rem; color: var(--muted); margin-top: 0; }
    .beside { display: grid; grid-template-columns: 1fr minmax(14rem, 22rem); gap: 0 2rem; align-items: start; }
    .beside dl.facts { margin: 0; } .requisites { margin-bottom: 1rem; }
    ul.named, ul.required-by { list-style: none; padding: 0; margin: 0; } ul.named li, ul.required-by li { margin: .2rem 0; }
    ul.named { border-left: 3px solid var(--line); padding-left: .75rem; }
    ul.required-by { columns: 18rem; }
    details.maintainer { margin-top: 2rem; border-top: 1px solid var(--line); padding-top: .5rem; color: var(--muted); }
    details.maintainer summary { cursor: pointer; padding: .25rem 0; }
    dl.record dt { font-family: monospace; } dl.record dd { margin: 0 0 .3rem 1.5rem; overflow-wrap: anywhere; }
    .missing { color: var(--muted); }
    td.drop { color: var(--bad); font-weight: bold; }
    del { color: var(--bad); } ins { color: var(--good); }
    figure { margin: 1rem 0; overflow-x: auto; }
    svg.map { display: block; max-width: none; font: 13px system-ui, sans-serif; }
    svg.map rect { fill: var(--box); stroke: var(--accent); }
    svg.map a:hover rect, svg.map a:focus rect { fill: var(--box-hover); }
    svg.map .self rect { fill: var(--accent); } svg.map .self text { fill: var(--page); font-weight: bold; }
    svg.map .missing rect, svg.map .more rect { fill: var(--subtle); stroke: var(--line); stroke-dasharray: 4 3; }
    svg.map text { text-anchor: middle; fill: var(--ink); }
    svg.map line { stroke: var(--edge); marker-end: url(#arrow); } svg.map marker path { fill: var(--edge); }
    svg.map line.joins { marker-end: none; } svg.map line.concurrent { stroke-dasharray: 5 4; }
    svg.map .alt rect { fill: var(--alt); stroke: var(--alt-edge); } svg.map .alt text { font-size: 11px; font-style: italic; }
    ul.news { list-style: none; padding: 0; } ul.news li { margin: .75rem 0; min-height: 50px; }
    ul.news img { float: left; margin: .2rem .75rem 0 0; border-radius: 4px; }
    ul.news li::after { content: ""; display: block; clear: both; }
    #results li { margin: .4rem 0; } #results small { color: var(--muted); }
    .filters label { margin-right: .25rem; } .filters select { margin-right: 1rem; max-width: calc(100% - 1rem); }
    .filters select, .filters input { min-height: 32px; margin-bottom: .4rem; } .filters input[type=number] { width: 5.5rem; }
    .filters .range { margin-right: 1rem; }
    @media (max-width: 40rem) {
      body { padding: 0 .75rem 1.5rem; }
      header { gap: 0 .5rem; padding: .25rem 0; }
      header .site { width: 100%; font-size: .95rem; }
      nav a { padding: .15rem .3rem; }
      header form { margin-left: 0; width: 100%; display: flex; gap: .4rem; }
      header form label { position: absolute; left: -999px; }
      header form input { flex: 1; min-width: 0; min-height: 32px; } header form button { min-height: 32px; }
      dl.facts { grid-template-columns: 1fr; } dl.facts dt { font-weight: bold; }
      .beside { grid-template-columns: 1fr; }
    }
    @media print {
      :root { color-scheme: light; --ink: #000; --muted: #333; --line: #999; --accent: #0b57a4; --page: #fff; --box: #fff; --subtle: #fff; --edge: #555; }
      header nav, header form, .skip, footer, details.maintainer, .crumbs { display: none; }
      body { max-width: none; padding: 0; font-size: 11pt; color: #000; background: #fff; }
      a { color: inherit; text-decoration: none; }
      .beside { grid-template-columns: 1fr 16rem; }
      section, figure { break-inside: avoid; }
      .source a::after { content: " (" attr(href) ")"; }
    }

    """

    static let searchScript = """
    // Search as you type over window.GV_INDEX (CatalogSite.compactSearchIndex): [file, code, title, subject, level, credits,
    // description key words, terms, number, code key, title key] per course, ranked as `gvingest search` ranks
    // (CatalogSearch, SearchTier): exact code, start of a code, exact title, start of the title, every word in the
    // title, every word anywhere; ties to the shorter title, then code order (the index's order). The filters, their
    // counts and the other orders are window.GV_BROWSE's (browse.js).
    (function () {
      "use strict";
      var index = window.GV_INDEX || [];
      var form = document.getElementById("search"), status = document.getElementById("status"), results = document.getElementById("results");
      var browse = window.GV_BROWSE, names = browse.names;
      var more = document.getElementById("more");
      var fields = names.map(function (id) { return document.getElementById(id); });
      var keys = index.map(function (c) {
        var compact = c[9].replace(/ /g, "");
        return { compact: compact, title: c[10], titleWords: " " + c[10], anywhere: " " + c[9] + " " + compact + " " + c[10] + " " + c[6] };
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

      // CourseRecord.creditsPhrase: "1 credit", "3 credits", "1–3 credits"; a label that is no number as it is.
      function creditsPhrase(label) {
        var bounds = label.split("-"), numbers = bounds.every(function (b) { return b !== "" && !isNaN(Number(b)); });
        if (!label || !numbers || bounds.length > 2) return label;
        return bounds.length === 1 ? label + (Number(label) === 1 ? " credit" : " credits") : bounds[0] + "–" + bounds[1] + " credits";
      }

      function show(focusFrom) {
        for (var n = results.children.length; n < Math.min(shown, hits.length); n++) {
          var c = index[hits[n][2]], li = document.createElement("li"), a = document.createElement("a"), small = document.createElement("small");
          a.href = "course/" + c[0] + ".html";
          a.textContent = c[1] + ": " + c[2];
          small.textContent = " " + [c[3], c[4], creditsPhrase(c[5])].filter(Boolean).join(" · ");
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
        var query = fold(fields[0].value);
        var compact = query.replace(/ /g, ""), words = query ? query.split(" ").map(function (w) { return " " + w; }) : [];
        var matched = [];
        hits = [];
        browse.read();
        var asked = query || browse.active();
        for (var i = 0; i < index.length; i++) {
          var t = query ? tier(keys[i], query, compact, words) : 6;
          if (t >= 0) matched.push([t, t < 6 ? index[i][2].length : 0, i]);
        }
        browse.count(matched);
        if (asked) {
          hits = matched.filter(function (hit) { return browse.keep(index[hit[2]]); });
          hits.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1] || a[2] - b[2]; });
          browse.order(hits);
        }
        shown = page;
        results.textContent = "";
        show(-1);
        status.textContent = asked
          ? hits.length + (hits.length === 1 ? " course" : " courses") + (hits.length > shown ? ", the first " + shown + " shown" : "")
          : "Type a code, a title or words of a description.";
        var params = new URLSearchParams();
        names.forEach(function (name, n) { if (fields[n].value) params.set(name, fields[n].value); });
        try { history.replaceState(null, "", location.pathname + (params.toString() ? "?" + params : "")); } catch (e) { /* some file:// pages */ }
        results.setAttribute("data-ms", (performance.now() - started).toFixed(2));
      }

      var params = new URLSearchParams(location.search);
      names.forEach(function (name, n) { if (params.has(name)) fields[n].value = params.get(name); });
      form.addEventListener("input", run);
      form.addEventListener("change", run);
      // The next page of results; the focus moves to the first of them, so a keyboard user reads on from there.
      more.addEventListener("click", function () {
        var from = results.children.length;
        shown += page;
        show(from);
        status.textContent = hits.length + " courses" + (hits.length > results.children.length ? ", " + results.children.length + " shown" : "");
      });
      // Enter opens the first result; the arrow down key moves to the results. The form has more than one field, so
      // Enter in the box submits nothing by itself: the box listens for it.
      form.addEventListener("submit", function (event) {
        event.preventDefault();
        var first = results.querySelector("a");
        if (first) location.href = first.href;
      });
      fields[0].addEventListener("keydown", function (event) {
        var first = results.querySelector("a");
        if (event.key === "Enter" && first) { event.preventDefault(); location.href = first.href; }
        if (event.key === "ArrowDown" && first) { event.preventDefault(); first.focus(); }
      });
      run();
      fields[0].focus();
    })();

    """
}
