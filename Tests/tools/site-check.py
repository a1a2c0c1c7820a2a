#!/usr/bin/env python3
"""Checks a site `gvingest site` wrote. Prints one JSON object; exits 1 when a check fails.

  site-check.py check SITE [--every N]
      Every page through html5lib's strict HTML5 parser (with --every, only every N-th course page; the others are
      read for their links); every href and src resolved (files and #fragments); no resource from elsewhere;
      landmarks, one h1 and headings in order, labelled controls, lang and viewport.
  site-check.py browse SITE --query Q --expect CODE [--changes] [--screenshot PNG COURSE_FILE]
      Drives Debian's chromium through chromedriver (selenium): types Q into the search page a key at a time (the
      latency of each keystroke, as the page measures it), opens the result for CODE with the keyboard, follows a
      link of its prerequisite map, opens the newest "what changed" page (--changes), and fails on any console error.
  site-check.py filters SITE
      In chromium: the unpacked search index against catalog.json, course by course; then search.html with every
      filter and each order set from the URL: every result passes the filters, in the order asked, counts beside the
      values, and a change of a filter kept in the URL.
  site-check.py axe SITE AXE_JS PAGE...
      Runs axe-core (AXE_JS, its axe.min.js) in chromium on each PAGE (a path under SITE, with a query if any), light
      and dark (prefers-color-scheme), 1280 and 390 px wide; fails on any serious or critical violation.
  site-check.py rank SITE --query Q
      Opens search.html?q=Q, presses "Show more" until every result is shown, and prints the codes in the order
      shown, the status line, the presses, and the course Enter opens.
  site-check.py phone SITE COURSE_FILE
      Opens a course page at a phone's width (390 CSS pixels) and measures its prerequisite map: drawn at its own size
      and scrolling sideways in its figure, the page itself no wider than the screen.
"""
import html, json, os, re, sys, unicodedata
from urllib.parse import urlsplit, unquote

import html5lib

XHTML = "{http://www.w3.org/1999/xhtml}"
SVG = "{http://www.w3.org/2000/svg}"


def pages(site):
    for folder, _, names in os.walk(site):
        for name in sorted(names):
            if name.endswith(".html"):
                yield os.path.join(folder, name)


# A tag's start or end, or an id, href or src attribute, as gvingest writes them (double quotes, escaped text).
ANCHOR = re.compile(r'<(/?)([A-Za-z][\w-]*)|\s(id|href|src)="([^"]*)"')


def anchors(text):
    """Ids and every (tag, attribute, url, in XHTML) of a page html5lib does not read (`check --every`): the pages are
    gvingest's own, so their attributes are found by one regular expression, and their links checked all the same."""
    ids, links, tag, svg = set(), [], None, 0
    for match in ANCHOR.finditer(text):
        closing, name, attribute, value = match.groups()
        if name:
            tag = name.lower()
            if tag == "svg":
                svg += -1 if closing else 1
        elif attribute == "id":
            ids.add(html.unescape(value))
        else:
            links.append((tag, attribute, html.unescape(value), svg == 0))
    return ids, links


def check(site, every=1):
    """`every`: html5lib reads every page but course pages, and every `every`-th course page (in name order): course
    pages are made by one template, and html5lib's strict parse of 4,000 of them was half a minute of CPU."""
    site = os.path.abspath(site)
    errors, ids, links, page_links, courses = [], {}, 0, {}, 0
    for path in pages(site):
        rel = os.path.relpath(path, site)
        with open(path, "rb") as f:
            data = f.read()
        course = rel.startswith("course" + os.sep)
        courses += course
        if course and (courses - 1) % every:
            ids[path], page_links[path] = anchors(data.decode("utf-8"))
            continue
        parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=True)
        try:
            tree = parser.parse(data)
        except html5lib.html5parser.ParseError as error:
            errors.append(f"{rel}: not valid HTML5: {error} (line {parser.errors[-1][0] if parser.errors else '?'})")
            tree = html5lib.parse(data)
        ids[path] = {e.get("id") for e in tree.iter() if e.get("id")}
        page_links[path] = [(e.tag.split("}")[-1], attribute, e.get(attribute), e.tag.startswith(XHTML))
                            for e in tree.iter() if isinstance(e.tag, str) for attribute in ("href", "src") if e.get(attribute) is not None]
        tags = [e.tag.replace(XHTML, "") for e in tree.iter() if isinstance(e.tag, str)]
        for landmark in ("header", "nav", "main", "footer"):
            if landmark not in tags:
                errors.append(f"{rel}: no <{landmark}>")
        levels = [int(t[1]) for t in tags if re.fullmatch(r"h[1-6]", t)]
        if levels.count(1) != 1 or levels[0] != 1:
            errors.append(f"{rel}: needs exactly one h1, first: {levels}")
        for before, after in zip(levels, levels[1:]):
            if after > before + 1:
                errors.append(f"{rel}: heading h{after} follows h{before}")
        html = tree.getroot() if hasattr(tree, "getroot") else tree
        if not html.get("lang"):
            errors.append(f"{rel}: <html> has no lang")
        if not any(e.get("name") == "viewport" for e in tree.iter(XHTML + "meta")):
            errors.append(f"{rel}: no viewport meta")
        labelled = {e.get("for") for e in tree.iter(XHTML + "label")}
        for tag in ("input", "select", "textarea"):
            for e in tree.iter(XHTML + tag):
                if e.get("id") not in labelled and not e.get("aria-label"):
                    errors.append(f"{rel}: <{tag} name={e.get('name')}> has no label")
    for path, found in page_links.items():
        rel = os.path.relpath(path, site)
        for tag, attribute, url, xhtml in found:
            links += 1
            parts = urlsplit(url)
            if parts.scheme in ("http", "https") or url.startswith("//"):
                # Only a link a person follows may leave the site; nothing the page loads.
                if not (tag == "a" and xhtml):
                    errors.append(f"{rel}: <{tag} {attribute}={url}> loads from elsewhere")
                continue
            if parts.scheme == "data" and tag == "link":
                continue
            if parts.scheme or url.startswith("/"):
                errors.append(f"{rel}: <{tag} {attribute}={url}> is not a relative link")
                continue
            target = os.path.normpath(os.path.join(os.path.dirname(path), unquote(parts.path))) if parts.path else path
            if not os.path.isfile(target) or not target.startswith(os.path.abspath(site)):
                errors.append(f"{rel}: <{tag} {attribute}={url}> does not resolve")
            elif parts.fragment and target in ids and parts.fragment not in ids[target]:
                errors.append(f"{rel}: <{tag} {attribute}={url}>: no id {parts.fragment} there")
    return {"pages": len(page_links), "links": links, "errors": errors[:50], "errorCount": len(errors)}


def severe(driver, errors):
    for entry in driver.get_log("browser"):
        if entry["level"] == "SEVERE":
            errors.append(f"console: {entry['message']}")


def rank(site, query):
    from urllib.parse import quote
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    driver, errors, result = chromium(), [], {}
    try:
        driver.get("file://" + os.path.abspath(site) + "/search.html?q=" + quote(query))
        presses = 0
        more = driver.find_element(By.ID, "more")
        while more.is_displayed() and presses < 1000:
            more.click()
            presses += 1
        codes = [a.text.split(":")[0] for a in driver.find_elements(By.CSS_SELECTOR, "#results li a")]
        result.update({"codes": codes, "status": driver.find_element(By.ID, "status").text, "presses": presses,
                       "more": more.is_displayed(), "focused": driver.switch_to.active_element.text})
        severe(driver, errors)
        driver.find_element(By.ID, "q").send_keys(Keys.ENTER)
        WebDriverWait(driver, 10).until(lambda d: "/course/" in d.current_url)
        result["opened"] = driver.find_element(By.TAG_NAME, "h1").text
        severe(driver, errors)
    finally:
        driver.quit()
    result.update({"errors": errors, "errorCount": len(errors)})
    return result


def phone(site, course):
    from selenium.webdriver.common.by import By

    driver, errors = chromium(), []
    try:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
        driver.get("file://" + os.path.abspath(site) + "/" + course)
        result = driver.execute_script("""
            var svg = document.querySelector("svg.map"), figure = svg.closest("figure");
            figure.scrollLeft = 60;
            return {svgWidth: svg.getBoundingClientRect().width, drawnWidth: svg.width.baseVal.value,
                    figureWidth: figure.clientWidth, figureScrollWidth: figure.scrollWidth, scrolled: figure.scrollLeft,
                    pageWidth: document.documentElement.scrollWidth, screenWidth: window.innerWidth};
        """)
        severe(driver, errors)
    finally:
        driver.quit()
    result.update({"errors": errors, "errorCount": len(errors)})
    return result


def browse(site, query, expect, changes, screenshot):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    driver = chromium()
    errors, visited, result = [], [], {}
    root = "file://" + os.path.abspath(site) + "/"

    def console():
        for entry in driver.get_log("browser"):
            if entry["level"] == "SEVERE":
                errors.append(f"console: {entry['message']}")

    def h1():
        return driver.find_element(By.TAG_NAME, "h1").text

    try:
        driver.get(root + "search.html")
        box = driver.find_element(By.ID, "q")
        if driver.switch_to.active_element != box:
            errors.append("the search box does not have the focus")
        latencies = []
        for key in query:
            box.send_keys(key)
            latencies.append(float(driver.find_element(By.ID, "results").get_attribute("data-ms")))
        wanted = driver.find_elements(By.XPATH, f"//ol[@id='results']/li/a[starts-with(., '{expect}:')]")
        if not wanted:
            errors.append(f"no result {expect} for {query!r}: {driver.find_element(By.ID, 'status').text}")
        result["latencyMs"] = {"max": max(latencies), "median": sorted(latencies)[len(latencies) // 2], "each": latencies}
        result["url"] = driver.current_url.split("/")[-1]
        console()
        # The keyboard: the arrow down key reaches the results, Tab walks them, Enter opens the one for CODE.
        box.send_keys(Keys.ARROW_DOWN)
        for _ in range(60):
            if driver.switch_to.active_element.text.startswith(expect + ":"):
                break
            driver.switch_to.active_element.send_keys(Keys.TAB)
        driver.switch_to.active_element.send_keys(Keys.ENTER)
        WebDriverWait(driver, 10).until(lambda d: "/course/" in d.current_url)
        visited.append(h1())
        if not h1().startswith(expect + ":"):
            errors.append(f"opened {h1()!r}, not {expect}")
        console()
        nodes = driver.find_elements(By.CSS_SELECTOR, "svg.map a")
        if not nodes:
            errors.append(f"{expect}'s page has no map link")
        else:
            code = nodes[0].find_element(By.CSS_SELECTOR, "text").text
            nodes[0].click()
            WebDriverWait(driver, 10).until(lambda d: d.find_element(By.TAG_NAME, "h1").text.startswith(code + ":"))
            visited.append(h1())
            console()
        if changes:
            driver.get(root + "changes.html")
            driver.find_element(By.CSS_SELECTOR, "main li a").click()
            WebDriverWait(driver, 10).until(lambda d: "/changes/" in d.current_url)
            result["changes"] = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "main h2")]
            console()
        if screenshot:
            driver.set_window_size(900, 1330)
            driver.get(root + screenshot[1])
            driver.save_screenshot(screenshot[0])
            console()
    finally:
        driver.quit()
    result.update({"visited": visited, "errors": errors, "errorCount": len(errors)})
    return result


def chromium(width=1000, height=1000):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={width},{height}"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(60)
    driver.set_script_timeout(120)
    # A window is at least 500 px wide: a phone's width is emulated instead.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1,
                                                                  "mobile": width < 600})
    return driver


def axe(site, script, paths):
    with open(script, encoding="utf-8") as f:
        source = f.read()
    version = re.search(r"axe v([0-9.]+)", source[:200])
    root = "file://" + os.path.abspath(site) + "/"
    errors, runs, counts = [], [], {}
    for width in (1280, 390):
        driver = chromium(width, 900)
        try:
            for scheme in ("light", "dark"):
                driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
                for path in paths:
                    driver.get(root + path)
                    if driver.execute_script(f"return matchMedia('(prefers-color-scheme: {scheme})').matches") is not True:
                        errors.append(f"{path}: the page is not {scheme}")
                    if driver.execute_script("return window.innerWidth") != width:
                        errors.append(f"{path}: the page is {driver.execute_script('return window.innerWidth')} px wide, not {width}")
                    driver.execute_script(source)
                    found = driver.execute_async_script(
                        "var done = arguments[arguments.length - 1];"
                        "axe.run(document, {resultTypes: ['violations']}).then(function (r) {"
                        "  done(r.violations.map(function (v) { return {id: v.id, impact: v.impact, nodes: v.nodes.length,"
                        "    target: v.nodes[0] && v.nodes[0].target.join(' '), summary: v.nodes[0] && v.nodes[0].failureSummary}; }));"
                        "}, function (e) { done([{id: 'axe-error', impact: 'critical', nodes: 0, target: String(e)}]); });")
                    runs.append({"page": path, "scheme": scheme, "width": width, "violations": found})
                    for v in found:
                        counts[v["impact"]] = counts.get(v["impact"], 0) + 1
                        if v["impact"] in ("serious", "critical"):
                            errors.append(f"{path} ({scheme}, {width} px): {v['impact']} {v['id']} on {v['nodes']} element(s), "
                                          f"first {v['target']}: {v['summary']}")
        finally:
            driver.quit()
    return {"axe": version.group(1) if version else "?", "runs": len(runs), "impacts": counts,
            "minor": sorted({f"{v['impact']} {v['id']}" for r in runs for v in r["violations"]}), "errors": errors[:50],
            "errorCount": len(errors)}


def filters(site):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    site = os.path.abspath(site)
    with open(os.path.join(site, "catalog.json"), encoding="utf-8") as f:
        catalog = json.load(f)
    courses = catalog["courses"] if isinstance(catalog, dict) else catalog
    errors, result = [], {}
    driver = chromium(1280, 900)
    try:
        driver.get("file://" + site + "/search.html")
        index = {row[1] + "\t" + row[0]: row for row in driver.execute_script("return window.GV_INDEX")}
        result["indexed"] = len(index)
        if len(index) != len(courses):
            errors.append(f"{len(index)} courses in the index, {len(courses)} in catalog.json")
        for course in courses:
            # SearchKeys.fold: accents dropped, lower case, runs of other characters than letters and digits as one space.
            def fold(text):
                text = "".join(ch for ch in unicodedata.normalize("NFD", text) if not unicodedata.category(ch).startswith("M"))
                return " ".join(re.findall(r"[^\W_]+", text.lower()))
            words = []
            for word in fold(course["description"]).split():
                if word not in words:
                    words.append(word)
            row = index.get(course["name"] + "\t" + re.sub(r"[^A-Za-z0-9-]", lambda m: "".join(f"_{b:02x}" for b in m.group().encode()), course["id"]))
            if row is None:
                errors.append(f"{course['name']} ({course['id']}) is not in the index")
                continue
            terms = "".join(letter for letter, word in (("F", "fall"), ("W", "winter"), ("S", "spring"), ("U", "summer"))
                            if word in (course.get("offered") or "").lower())
            expected = [course["name"], course["title"], course["subject"], course.get("level") or "", words, terms,
                        fold(course["name"]), fold(course["title"])]
            got = [row[1], row[2], row[3], row[4], row[6].split(" ") if row[6] else [], row[7], row[9], row[10]]
            if got != expected:
                errors.append(f"{course['name']}: index {got!r:.300}, catalog.json {expected!r:.300}")
        subject = max({c["subject"] for c in courses}, key=lambda s: sum(c["subject"] == s for c in courses))
        numbers = sorted(c["number"] for c in courses if c["subject"] == subject)
        low, high = numbers[len(numbers) // 4], numbers[3 * len(numbers) // 4]
        for order in ("code", "title", "credits", ""):
            driver.get(f"file://{site}/search.html?subject={subject}&from={low}&to={high}&sort={order}")
            rows = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "#results li a")]
            codes = [text.split(":")[0] for text in rows]
            by_code = {c["name"]: c for c in courses}
            picked = [by_code[code] for code in codes if code in by_code]
            wanted = [c for c in courses if c["subject"] == subject and low <= c["number"] <= high]
            if not picked or any(c["subject"] != subject or not low <= c["number"] <= high for c in picked):
                errors.append(f"sort={order}: results outside {subject} {low}–{high}: {codes[:10]}")
            if len(picked) != min(len(wanted), 50):
                errors.append(f"sort={order}: {len(picked)} results, {len(wanted)} courses match")
            keys = {"code": lambda c: (c["number"], c["name"]), "title": lambda c: c["title"].lower(),
                    "credits": lambda c: c.get("credits") or 0}
            if order and [keys[order](c) for c in picked] != sorted(keys[order](c) for c in picked):
                errors.append(f"sort={order}: not in {order} order: {codes[:10]}")
            result.setdefault("orders", {})[order or "relevance"] = codes[:5]
        label = Select(driver.find_element(By.ID, "subject")).first_selected_option.text
        result["subjectOption"] = label
        if not re.search(r"\(\d+\)$", label):
            errors.append(f"no count beside the subject: {label!r}")
        Select(driver.find_element(By.ID, "sort")).select_by_value("title")
        result["url"] = driver.current_url.split("/")[-1]
        if "sort=title" not in result["url"] or f"subject={subject}" not in result["url"]:
            errors.append(f"the URL does not keep the filters: {result['url']}")
        for entry in driver.get_log("browser"):
            if entry["level"] == "SEVERE":
                errors.append(f"console: {entry['message']}")
    finally:
        driver.quit()
    result.update({"errors": errors[:30], "errorCount": len(errors)})
    return result


def main(argv):
    if argv[:1] == ["check"]:
        result = check(argv[1], int(argv[argv.index("--every") + 1]) if "--every" in argv else 1)
    elif argv[:1] == ["filters"]:
        result = filters(argv[1])
    elif argv[:1] == ["axe"]:
        result = axe(argv[1], argv[2], argv[3:])
    elif argv[:1] == ["rank"]:
        result = rank(argv[1], argv[argv.index("--query") + 1])
    elif argv[:1] == ["phone"]:
        result = phone(argv[1], argv[2])
    else:
        site, query, expect = argv[1], argv[argv.index("--query") + 1], argv[argv.index("--expect") + 1]
        shot = argv[argv.index("--screenshot") + 1: argv.index("--screenshot") + 3] if "--screenshot" in argv else None
        result = browse(site, query, expect, "--changes" in argv, shot)
    print(json.dumps(result, indent=1))
    return 1 if result["errorCount"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
