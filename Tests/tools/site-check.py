#!/usr/bin/env python3
"""Checks a site `gvingest site` wrote. Prints one JSON object; exits 1 when a check fails.

  site-check.py check SITE
      Every page through html5lib's strict HTML5 parser; every href and src resolved (files and #fragments); no
      resource from elsewhere; landmarks, one h1 and headings in order, labelled controls, lang and viewport.
  site-check.py browse SITE --query Q --expect CODE [--changes] [--screenshot PNG COURSE_FILE]
      Drives Debian's chromium through chromedriver (selenium): types Q into the search page a key at a time (the
      latency of each keystroke, as the page measures it), opens the result for CODE with the keyboard, follows a
      link of its prerequisite map, opens the newest "what changed" page (--changes), and fails on any console error.
  site-check.py rank SITE --query Q
      Opens search.html?q=Q, presses "Show more" until every result is shown, and prints the codes in the order
      shown, the status line, the presses, and the course Enter opens.
  site-check.py phone SITE COURSE_FILE
      Opens a course page at a phone's width (390 CSS pixels) and measures its prerequisite map: drawn at its own size
      and scrolling sideways in its figure, the page itself no wider than the screen.
"""
import json, os, re, sys
from urllib.parse import urlsplit, unquote

import html5lib

XHTML = "{http://www.w3.org/1999/xhtml}"
SVG = "{http://www.w3.org/2000/svg}"


def pages(site):
    for folder, _, names in os.walk(site):
        for name in sorted(names):
            if name.endswith(".html"):
                yield os.path.join(folder, name)


def check(site):
    site = os.path.abspath(site)
    errors, ids, links, trees = [], {}, 0, {}
    for path in pages(site):
        rel = os.path.relpath(path, site)
        with open(path, "rb") as f:
            data = f.read()
        parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=True)
        try:
            tree = parser.parse(data)
        except html5lib.html5parser.ParseError as error:
            errors.append(f"{rel}: not valid HTML5: {error} (line {parser.errors[-1][0] if parser.errors else '?'})")
            tree = html5lib.parse(data)
        trees[path] = tree
        ids[path] = {e.get("id") for e in tree.iter() if e.get("id")}
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
    for path, tree in trees.items():
        rel = os.path.relpath(path, site)
        for e in tree.iter():
            if not isinstance(e.tag, str):
                continue
            tag = e.tag.split("}")[-1]
            for attribute in ("href", "src"):
                url = e.get(attribute)
                if url is None:
                    continue
                links += 1
                parts = urlsplit(url)
                if parts.scheme in ("http", "https") or url.startswith("//"):
                    # Only a link a person follows may leave the site; nothing the page loads.
                    if not (tag == "a" and e.tag.startswith(XHTML)):
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
    return {"pages": len(trees), "links": links, "errors": errors[:50], "errorCount": len(errors)}


def chromium():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1000,1000"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(60)
    return driver


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


def main(argv):
    if argv[:1] == ["check"]:
        result = check(argv[1])
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
