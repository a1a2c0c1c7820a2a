#!/usr/bin/env python3
"""Consistency checks for the recorded GVSU catalog fixtures.

Run from anywhere:  python3 Fixtures/gvsu/check_fixtures.py
Exits non-zero and lists every problem found.

This does not parse pages into goldens. It checks that the goldens are well-formed,
that the pages and goldens agree on file names, URLs and link lists, that every
golden string appears somewhere in the page text, and that the required
variety items are present.
"""
import json
import os
import re
import sys
from collections import Counter
from html.parser import HTMLParser
from urllib.parse import urljoin

ROOT = os.path.dirname(os.path.abspath(__file__))
COURSE_DIR = os.path.join(ROOT, "course")
SUBJECT_DIR = os.path.join(ROOT, "subject")

COURSE_KEYS = ["catalog", "subject", "number", "suffix", "title", "credits", "contactHours",
               "offered", "description", "prerequisite", "corequisite", "prerequisiteLinks", "fields"]
SUBJECT_KEYS = ["subject", "code", "courses"]
SUBJECTS = {"CIS": "computer-information-systems", "MTH": "mathematics", "STA": "statistics",
            "WRT": "writing", "BIO": "biology", "CHM": "chemistry"}
CANON_COURSE = re.compile(r"^https://www\.gvsu\.edu/catalog/(?:(\d{4}-\d{4})/)?course/([a-z]+-\d+[a-z]?)\.htm$")
CANON_SUBJECT = re.compile(r"^https://www\.gvsu\.edu/catalog/subject/([a-z-]+)\.htm$")
COURSE_URL = re.compile(r"^https://www\.gvsu\.edu/catalog/(?:\d{4}-\d{4}/)?course/([a-z]+-\d+[a-z]?)\.htm$")

errors = []


def err(msg):
    errors.append(msg)


def norm(s):
    return re.sub(r"\s+", " ", s.replace("\u00a0", " ")).strip()


class Page(HTMLParser):
    """Collects canonical link, meta charset, h1 text, content text and content anchors."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.canonical = None
        self.charset = None
        self.depth_content = 0  # >0 while inside <div id="content">
        self.div_depth = 0
        self.content_start = None
        self.text = []
        self.h1 = None
        self._in_h1 = False
        self._h1buf = []
        self.anchors = []  # (href, text) inside content
        self.blocks = []  # raw text of each block element inside content
        self._a = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "link" and a.get("rel") == "canonical":
            self.canonical = a.get("href")
        if tag == "meta":
            if "charset" in a:
                self.charset = a["charset"].lower()
            elif a.get("http-equiv", "").lower() == "content-type":
                m = re.search(r"charset=([\w-]+)", a.get("content", ""))
                self.charset = m.group(1).lower() if m else None
        if tag == "div":
            self.div_depth += 1
            if a.get("id") == "content":
                self.content_start = self.div_depth
        if self.content_start in (None, -1):
            return
        if tag in ("p", "div", "h1", "h2", "li", "ul"):
            self.text.append("\n")
            self.blocks.append("")
        if tag == "h1":
            self._in_h1, self._h1buf = True, []
        if tag == "a":
            self._a = [a.get("href"), []]

    def handle_endtag(self, tag):
        if tag == "div":
            if self.content_start is not None and self.div_depth == self.content_start:
                self.content_start = -1  # finished; -1 keeps it "not None" but stops collection below
            self.div_depth -= 1
        if self.content_start in (None, -1):
            return
        if tag == "h1" and self._in_h1:
            self._in_h1 = False
            self.h1 = "".join(self._h1buf)
        if tag == "a" and self._a:
            self.anchors.append((self._a[0], norm("".join(self._a[1]))))
            self._a = None

    def handle_data(self, data):
        if self.content_start in (None, -1):
            return
        self.text.append(data)
        if self.blocks:
            self.blocks[-1] += data
        if self._in_h1:
            self._h1buf.append(data)
        if self._a:
            self._a[1].append(data)


def parse_page(raw, name):
    try:
        text = raw.decode("utf-8")
        is_utf8 = True
    except UnicodeDecodeError:
        text = raw.decode("cp1252")
        is_utf8 = False
    p = Page()
    p.feed(text)
    p.close()
    if p.content_start is None:
        err(f"{name}: no <div id=\"content\">")
    p.is_utf8 = is_utf8
    p.raw_text = text
    p.content_text = norm("".join(p.text))
    return p


def load_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except Exception as e:  # noqa: BLE001
        err(f"{os.path.relpath(path, ROOT)}: invalid JSON: {e}")
        return None


def is_str_or_null(v):
    return v is None or (isinstance(v, str) and v == v.strip() and v != "")


def stems(dirname):
    files = sorted(os.listdir(dirname))
    html = {f[:-5] for f in files if f.endswith(".html")}
    gold = {f[:-12] for f in files if f.endswith(".golden.json")}
    other = [f for f in files if not (f.endswith(".html") or f.endswith(".golden.json"))]
    return html, gold, other


def main():
    course_html, course_gold, other = stems(COURSE_DIR)
    for f in other:
        err(f"course/{f}: unexpected file")
    for s in sorted(course_html - course_gold):
        err(f"course/{s}.html: missing golden")
    for s in sorted(course_gold - course_html):
        err(f"course/{s}.golden.json: golden without page")
    subj_html, subj_gold, other = stems(SUBJECT_DIR)
    for f in other:
        err(f"subject/{f}: unexpected file")
    for s in sorted(subj_html - subj_gold):
        err(f"subject/{s}.html: missing golden")
    for s in sorted(subj_gold - subj_html):
        err(f"subject/{s}.golden.json: golden without page")
    if subj_html != set(SUBJECTS.values()):
        err(f"subject pages {sorted(subj_html)} != expected {sorted(SUBJECTS.values())}")

    goldens = {}
    pages = {}
    cp1252_pages = []
    per_subject = Counter()
    grad = []
    variety = Counter()

    # ------------------------------------------------------------ course pages
    for stem in sorted(course_html & course_gold):
        name = f"course/{stem}"
        raw = open(os.path.join(COURSE_DIR, stem + ".html"), "rb").read()
        p = parse_page(raw, name + ".html")
        pages[stem] = p
        g = load_json(os.path.join(COURSE_DIR, stem + ".golden.json"))
        if g is None:
            continue
        goldens[stem] = g
        if not isinstance(g, dict) or list(g.keys()) != COURSE_KEYS:
            err(f"{name}.golden.json: keys {list(g.keys()) if isinstance(g, dict) else type(g)} != {COURSE_KEYS}")
            continue

        # encoding
        if not p.is_utf8:
            cp1252_pages.append(stem)
            if p.charset != "windows-1252":
                err(f"{name}.html: not UTF-8 but declares charset {p.charset!r}")
        elif p.charset != "utf-8":
            err(f"{name}.html: valid UTF-8 but declares charset {p.charset!r}")

        # types
        for k in ("catalog", "subject", "number", "title", "description"):
            if not isinstance(g[k], str) or not g[k]:
                err(f"{name}.golden.json: {k} must be a non-empty string")
        for k in ("suffix", "credits", "contactHours", "offered", "prerequisite", "corequisite"):
            if not is_str_or_null(g[k]):
                err(f"{name}.golden.json: {k} must be null or a trimmed non-empty string")
        if not isinstance(g["prerequisiteLinks"], list) or not all(
                isinstance(x, dict) and list(x.keys()) == ["code", "url"] for x in g["prerequisiteLinks"]):
            err(f"{name}.golden.json: prerequisiteLinks must be a list of {{code, url}}")
            continue
        if not isinstance(g["fields"], dict) or not all(isinstance(v, str) for v in g["fields"].values()):
            err(f"{name}.golden.json: fields must be an object of strings")
            continue
        for k in ("catalog", "title", "credits", "contactHours", "offered", "prerequisite", "corequisite"):
            v = g[k]
            if isinstance(v, str) and v != norm(v):
                err(f"{name}.golden.json: {k} not whitespace-normalised")
        for para in g["description"].split("\n\n"):
            if para != norm(para):
                err(f"{name}.golden.json: description paragraph not normalised: {para[:40]!r}")
        if not re.fullmatch(r"\d+", g["number"] or ""):
            err(f"{name}.golden.json: number must be digits")
        if g["suffix"] is not None and not re.fullmatch(r"[A-Z]", g["suffix"]):
            err(f"{name}.golden.json: suffix must be one capital letter")
        if g["contactHours"] is not None and not re.fullmatch(r"\d+-\d+-\d+", g["contactHours"]):
            err(f"{name}.golden.json: contactHours must look like 3-0-0")
        if g["subject"] not in SUBJECTS:
            err(f"{name}.golden.json: unknown subject {g['subject']}")

        # stem / canonical
        expect_stem = f"{g['subject']}-{g['number']}{g['suffix'] or ''}".lower()
        if expect_stem != stem:
            err(f"{name}: golden subject/number/suffix give stem {expect_stem}")
        m = CANON_COURSE.match(p.canonical or "")
        if not m:
            err(f"{name}.html: bad canonical {p.canonical!r}")
        else:
            if m.group(2) != stem:
                err(f"{name}.html: canonical stem {m.group(2)} != file stem")
            year = m.group(1) or "2024-2025"
            if not g["catalog"].startswith(year + " "):
                err(f"{name}: catalog {g['catalog']!r} does not match canonical year {year}")

        # golden text must appear in the page's content text
        text = p.content_text
        code = f"{g['subject']} {g['number']}{g['suffix'] or ''}"
        for k in ("catalog", "title", "offered", "prerequisite", "corequisite"):
            if g[k] and g[k] not in text:
                err(f"{name}: golden {k} not found in page text: {g[k]!r}")
        for para in g["description"].split("\n\n"):
            if para not in text:
                err(f"{name}: description paragraph not found in page text: {para[:50]!r}")
        if g["credits"] is not None and f"Credits: {g['credits']}" not in text:
            err(f"{name}: 'Credits: {g['credits']}' not in page")
        if g["credits"] is None and "Credits:" in text:
            err(f"{name}: golden credits null but page has Credits:")
        if g["contactHours"] and f"({g['contactHours']})" not in text:
            err(f"{name}: contact hours not in page")
        for k, v in g["fields"].items():
            if f"{k}: {v}" not in text:
                err(f"{name}: field {k!r} not in page")
        h1 = norm(p.h1 or "")
        if norm(h1.replace(code, "", 1)).lstrip(":-").strip() != g["title"] or not h1.startswith(code):
            err(f"{name}: h1 {h1!r} does not match code/title")
        if g["offered"] is not None and f"Offered {g['offered']}." not in text:
            err(f"{name}: 'Offered {g['offered']}.' not in page")
        for label in ("Offered ", "Prerequisite", "Corequisite", "(3-0-0)", "(2-0-2)"):
            if label in g["description"]:
                err(f"{name}: description still contains {label!r}")
        if g["prerequisite"] and g["corequisite"] and "Corequisite" in g["prerequisite"]:
            err(f"{name}: prerequisite runs into corequisite")

        # block structure: catalog, h1, description paragraph(s) + trailing sentences,
        # Credits, fields -- nothing else, and the golden accounts for every sentence.
        blocks = [norm(b) for b in p.blocks if norm(b)]
        paras = g["description"].split("\n\n")
        expect = [g["catalog"], h1] + paras[:-1]
        tail = re.escape(paras[-1])
        if g["contactHours"]:
            tail += re.escape(f" ({g['contactHours']})")
        if g["offered"]:
            tail += re.escape(f" Offered {g['offered']}.")
        if g["prerequisite"]:
            tail += r" (?:Prerequisites?|Prerequisite\(s\)): " + re.escape(g["prerequisite"])
        if g["corequisite"]:
            tail += r" Corequisites?: " + re.escape(g["corequisite"])
        after = ([f"Credits: {g['credits']}"] if g["credits"] is not None else []) + \
            [f"{k}: {v}" for k, v in g["fields"].items()]
        n = len(expect)
        if (blocks[:n] != expect or len(blocks) != n + 1 + len(after)
                or not re.fullmatch(tail, blocks[n]) or blocks[n + 1:] != after):
            err(f"{name}: page blocks do not match golden:\n  page={blocks}\n  tail regex={tail}")

        # prerequisite links: in order among the content anchors, texts inside the prerequisite
        resolved = [(urljoin(p.canonical or "", h or ""), t) for h, t in p.anchors]
        idx = 0
        for link in g["prerequisiteLinks"]:
            want = (link["url"], link["code"])
            while idx < len(resolved) and resolved[idx] != want:
                idx += 1
            if idx == len(resolved):
                err(f"{name}: prerequisite link {want} not found (in order) among page anchors")
                break
            idx += 1
            if not g["prerequisite"] or link["code"] not in g["prerequisite"]:
                err(f"{name}: link code {link['code']} not in prerequisite text")
        n_prereq_anchor = sum(1 for u, t in resolved if COURSE_URL.match(u))  # course anchors in content
        coreq_codes = 0
        if g["corequisite"]:
            coreq_codes = sum(1 for u, t in resolved if COURSE_URL.match(u) and t in g["corequisite"])
        if n_prereq_anchor != len(g["prerequisiteLinks"]) + coreq_codes:
            err(f"{name}: {n_prereq_anchor} course anchors in content, golden lists "
                f"{len(g['prerequisiteLinks'])} prerequisite + {coreq_codes} corequisite links")
        # every course anchor in the content must point at a fixture page
        for u, t in resolved:
            mm = COURSE_URL.match(u)
            if mm and mm.group(1) not in course_html:
                err(f"{name}: link {u} has no fixture page course/{mm.group(1)}.html")

        per_subject[g["subject"]] += 1
        if int(g["number"]) >= 500:
            grad.append(stem)
            if g["prerequisite"] and "Graduate standing or permission of instructor." == g["prerequisite"]:
                variety["grad standing prereq"] += 1
        # variety bookkeeping
        variety[f"credits={g['credits']}"] += 1
        if g["contactHours"]:
            variety[f"contact={g['contactHours']}"] += 1
        if g["suffix"]:
            variety["suffix"] += 1
        if g["catalog"].startswith("2019-2020"):
            variety["2019 catalog"] += 1
        if g["prerequisite"] is None:
            variety["no prereq"] += 1
        if g["corequisite"]:
            variety["coreq"] += 1
        if g["fields"]:
            variety["fields"] += 1
        if "\n\n" in g["description"]:
            variety["two paragraphs"] += 1
        raw_h1 = re.search(r"<h1>(.*?)</h1>", p.raw_text, re.S).group(1)
        if re.match(r"^[A-Z]{3}\s\d+[A-Z]?: ", raw_h1):
            variety["colon heading"] += 1
        elif not re.search(r" - ", raw_h1):
            variety["bare heading"] += 1
        for ent in ("&amp;", "&nbsp;", "&eacute;", "&rsquo;", "&#8212;"):
            if ent in re.sub(r"<p>\d{4}-\d{4} Undergraduate &amp; Graduate Catalog</p>", "", p.raw_text.split('<div id="footer">')[0]):
                variety[ent] += 1
        pre = g["prerequisite"] or ""
        for phrase in ("minimum grade of C", "permission of instructor", "junior standing",
                       "admission to the CIS major", "MTH 122 or placement", ";", "("):
            if phrase in pre:
                variety["prereq:" + phrase] += 1
        if re.fullmatch(r"[A-Z]{3} \d{3}[A-Z]?\.", pre):
            variety["simple prereq"] += 1

    # ------------------------------------------------------------ cp1252
    if len(cp1252_pages) != 1:
        err(f"expected exactly one non-UTF-8 (windows-1252) page, found {cp1252_pages}")
    for stem in cp1252_pages:
        raw = open(os.path.join(COURSE_DIR, stem + ".html"), "rb").read()
        txt = raw.decode("cp1252")
        for ch in "\u2019\u201c\u201d\u00e9":
            if ch not in txt:
                err(f"course/{stem}.html: cp1252 page lacks {ch!r}")
        if "charset=windows-1252" not in txt or 'meta charset="utf-8"' in txt:
            err(f"course/{stem}.html: cp1252 page must declare windows-1252 via http-equiv")
        g = goldens.get(stem)
        if g and not any(ch in g["description"] for ch in "\u2019\u201c\u201d\u00e9"):
            err(f"course/{stem}.golden.json: description should contain the decoded characters")

    # ------------------------------------------------------------ subject pages
    listed = Counter()
    for slug in sorted(subj_html & subj_gold):
        name = f"subject/{slug}"
        raw = open(os.path.join(SUBJECT_DIR, slug + ".html"), "rb").read()
        p = parse_page(raw, name + ".html")
        if not p.is_utf8 or p.charset != "utf-8":
            err(f"{name}.html: must be UTF-8 with meta charset")
        g = load_json(os.path.join(SUBJECT_DIR, slug + ".golden.json"))
        if g is None:
            continue
        if not isinstance(g, dict) or list(g.keys()) != SUBJECT_KEYS:
            err(f"{name}.golden.json: keys != {SUBJECT_KEYS}")
            continue
        if SUBJECTS.get(g["code"]) != slug:
            err(f"{name}.golden.json: code {g['code']} does not belong to slug {slug}")
        m = CANON_SUBJECT.match(p.canonical or "")
        if not m or m.group(1) != slug:
            err(f"{name}.html: bad canonical {p.canonical!r}")
        if norm(p.h1 or "") != f"{g['subject']} ({g['code']})":
            err(f"{name}.html: h1 {p.h1!r} != '{g['subject']} ({g['code']})'")
        if not all(isinstance(c, dict) and list(c.keys()) == ["code", "title", "url"] for c in g["courses"]):
            err(f"{name}.golden.json: courses entries must be {{code, title, url}}")
            continue
        page_links = [(urljoin(p.canonical or "", h), t) for h, t in p.anchors
                      if COURSE_URL.match(urljoin(p.canonical or "", h or ""))]
        gold_links = [(c["url"], f"{c['code']} - {c['title']}") for c in g["courses"]]
        if page_links != gold_links:
            err(f"{name}: course links in page differ from golden:\n  page={page_links}\n  gold={gold_links}")
        non_course = [h for h, t in p.anchors if not COURSE_URL.match(urljoin(p.canonical or "", h or ""))]
        if not non_course and "<a href" not in p.raw_text.split('<div id="content">')[0]:
            err(f"{name}.html: expected some non-course links")
        for c in g["courses"]:
            mm = COURSE_URL.match(c["url"])
            if not mm:
                err(f"{name}: url {c['url']} is not a course URL")
                continue
            st = mm.group(1)
            listed[st] += 1
            if st not in course_html:
                err(f"{name}: listed {c['url']} has no file course/{st}.html")
                continue
            cg = goldens.get(st)
            if cg:
                if cg["subject"] != g["code"]:
                    err(f"{name}: lists {st} of subject {cg['subject']}")
                if f"{cg['subject']} {cg['number']}{cg['suffix'] or ''}" != c["code"]:
                    err(f"{name}: code {c['code']} != course golden code")
                if cg["title"] != c["title"]:
                    err(f"{name}: title {c['title']!r} != course golden title {cg['title']!r}")
        hrefs = [h for h, t in p.anchors if COURSE_URL.match(urljoin(p.canonical or "", h or ""))]
        variety["listing relative"] += sum(1 for h in hrefs if not h.startswith(("/", "http")))
        variety["listing absolute"] += sum(1 for h in hrefs if h.startswith("https://"))
        variety["listing site-absolute"] += sum(1 for h in hrefs if h.startswith("/"))

    for st in sorted(course_html):
        if listed[st] != 1:
            err(f"course/{st}.html is listed {listed[st]} times by subject pages (want 1)")

    # ------------------------------------------------------------ counts and variety
    total = sum(per_subject.values())
    for subj in SUBJECTS:
        if per_subject[subj] < 10:
            err(f"subject {subj}: only {per_subject[subj]} course pages (want >= 10)")
    if total < 66:
        err(f"only {total} course pages (want >= 66)")
    if len(grad) < 6:
        err(f"only {len(grad)} graduate courses (want >= 6)")
    required = ["credits=1-3", "credits=3 or 4", "credits=None", "contact=3-0-0", "contact=2-0-2",
                "suffix", "2019 catalog", "no prereq", "coreq", "two paragraphs", "colon heading",
                "bare heading", "&amp;", "&nbsp;", "&eacute;", "&rsquo;", "&#8212;", "simple prereq",
                "prereq:minimum grade of C", "prereq:permission of instructor", "prereq:junior standing",
                "prereq:admission to the CIS major", "prereq:MTH 122 or placement", "prereq:;", "prereq:(",
                "grad standing prereq", "listing relative", "listing absolute"]
    for r in required:
        if variety[r] < 1:
            err(f"variety item missing: {r}")
    if variety["fields"] < 8:
        err(f"only {variety['fields']} pages with extra fields (want about 8)")
    if variety["listing absolute"] != 1:
        err(f"want exactly one absolute listing href, found {variety['listing absolute']}")

    # ------------------------------------------------------------ README references
    readme = os.path.join(ROOT, "README.md")
    if not os.path.exists(readme):
        err("README.md missing")
    else:
        for ref in set(re.findall(r"(?:course|subject)/[a-z0-9-]+\.html", open(readme, encoding="utf-8").read())):
            if not os.path.exists(os.path.join(ROOT, ref)):
                err(f"README.md mentions {ref}, which does not exist")

    print(f"course pages: {total} ({', '.join(f'{k} {per_subject[k]}' for k in SUBJECTS)}); "
          f"graduate: {len(grad)}; subject pages: {len(subj_html)}; "
          f"pages with extra fields: {variety['fields']}; cp1252 page: {', '.join(cp1252_pages) or '-'}")
    if errors:
        print(f"\n{len(errors)} problem(s):")
        for e in errors:
            print(" -", e)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
