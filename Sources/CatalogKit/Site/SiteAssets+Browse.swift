extension SiteAssets {
    /// The search page's filters, their counts and the sorting, for search.js (`window.GV_BROWSE`): kept apart from the
    /// matching and ranking of words.
    static let browseScript = """
    // Filters (subject, level, credits, offered term, number range), a count for each value, and the order of results.
    (function () {
      "use strict";
      var index = window.GV_INDEX || [];
      function field(id) { return document.getElementById(id); }
      // Each filter with counts: the value a course has (term: the letters of its terms, any of them).
      var facets = [
        { id: "subject", values: function (c) { return [c[3]]; } },
        { id: "level", values: function (c) { return [c[4]]; } },
        { id: "credits", values: function (c) { return [c[5]]; } },
        { id: "term", values: function (c) { return c[7].split(""); } }
      ];
      var chosen = {}, from = NaN, to = NaN;

      function passes(c, skipped) {
        for (var f = 0; f < facets.length; f++) {
          var facet = facets[f], value = chosen[facet.id];
          if (facet !== skipped && value && facet.values(c).indexOf(value) < 0) return false;
        }
        return !(c[8] < from || c[8] > to);
      }

      window.GV_BROWSE = {
        names: ["q", "subject", "level", "credits", "term", "from", "to", "sort"],
        // Reads the filters once a search, not once a course.
        read: function () {
          facets.forEach(function (facet) { chosen[facet.id] = field(facet.id).value; });
          from = parseInt(field("from").value, 10);
          to = parseInt(field("to").value, 10);
          if (isNaN(from)) from = -Infinity;
          if (isNaN(to)) to = Infinity;
        },
        active: function () {
          return facets.some(function (facet) { return chosen[facet.id]; }) || from > -Infinity || to < Infinity;
        },
        keep: function (c) { return passes(c, null); },
        // Beside each value, how many of the courses the words match it would leave, with the other filters as they are.
        count: function (matched) {
          facets.forEach(function (facet) {
            var counts = {}, select = field(facet.id);
            for (var m = 0; m < matched.length; m++) {
              var c = index[matched[m][2]];
              if (!passes(c, facet)) continue;
              facet.values(c).forEach(function (v) { counts[v] = (counts[v] || 0) + 1; });
            }
            for (var o = 1; o < select.options.length; o++) {
              var option = select.options[o];
              if (!option.hasAttribute("data-label")) option.setAttribute("data-label", option.textContent);
              option.textContent = option.getAttribute("data-label") + " (" + (counts[option.value] || 0) + ")";
            }
          });
        },
        // Relevance keeps search.js's order; code, title and credits sort by that, ties by code.
        order: function (hits) {
          var how = field("sort").value;
          function code(a, b) { return a[3] < b[3] ? -1 : a[3] > b[3] ? 1 : (a[8] - b[8]) || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0); }
          function credits(c) { var n = parseFloat(c[5]); return isNaN(n) ? Infinity : n; }
          var by = {
            code: code,
            title: function (a, b) { return a[2].localeCompare(b[2]) || code(a, b); },
            credits: function (a, b) { return (credits(a) - credits(b)) || code(a, b); }
          }[how];
          if (by) hits.sort(function (x, y) { return by(index[x[2]], index[y[2]]); });
        }
      };
    })();

    """
}
