#!/usr/bin/env python3
"""Render the hand-authored spec (spec.py) into fixture HTML pages and golden JSON.

The goldens come straight from the authored expected text in spec.py; nothing
here parses HTML.  HTML is produced FROM the expected values.
"""
import argparse, json, os, re, sys
from urllib.parse import urljoin

sys.path.insert(0, os.path.dirname(__file__))
from spec import COURSES, SUBJECTS, CUR, OLD, NEXT, NEXT_CUR

FIXTURES = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(FIXTURES, "gvsu")
BASE = "https://www.gvsu.edu"

ENT = {"\u00e9": "&eacute;", "\u2019": "&rsquo;", "\u2014": "&#8212;", "\u2013": "&ndash;",
       "\u201c": "&ldquo;", "\u201d": "&rdquo;", "\u00a0": "&nbsp;", "\u00e1": "&aacute;",
       "\u00ed": "&iacute;"}
LINK = re.compile(r"\[\[([^\]|]+)(?:\|([^\]]+))?\]\]")


def esc(s, cp=False):
    s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    if cp:
        return s.replace("\u00a0", "&nbsp;")
    return "".join(ENT.get(ch, ch) for ch in s)


def norm(s):
    return re.sub(r"\s+", " ", s.replace("\u00a0", " ")).strip()


def stem_of(code):
    return norm(code).lower().replace(" ", "-")


def default_href(code):
    return f"/catalog/course/{stem_of(code)}.htm"


def render_marked(s, cp=False):
    out, pos = [], 0
    for m in LINK.finditer(s):
        out.append(esc(s[pos:m.start()], cp))
        code, href = m.group(1), m.group(2) or default_href(m.group(1))
        out.append(f'<a href="{href}">{esc(code, cp)}</a>')
        pos = m.end()
    out.append(esc(s[pos:], cp))
    return "".join(out)


def plain(s):
    return norm(LINK.sub(lambda m: m.group(1), s))


def links(s, canonical):
    return [{"code": norm(m.group(1)), "url": urljoin(canonical, m.group(2) or default_href(m.group(1)))}
            for m in LINK.finditer(s)]


HEADER = """<div id="header">
  <a href="/">Grand Valley State University</a>
  <ul class="nav">
    <li><a href="/catalog/">Catalog Home</a></li>
    <li><a href="/catalog/search.htm">Search the Catalog</a></li>
    <li><a href="https://www.gvsu.edu/admissions/">Admissions</a></li>
    <li><a href="/registrar/">Registrar</a></li>
  </ul>
</div>"""


def footer(back=None):
    b = f'  <p><a href="/catalog/subject/{back[0]}.htm">Back to {esc(back[1])}</a></p>\n' if back else ""
    return (f'<div id="footer">\n{b}'
            '  <p>Grand Valley State University &middot; 1 Campus Drive, Allendale, MI 49401 &middot; '
            '<a href="mailto:registrar@gvsu.edu">registrar@gvsu.edu</a></p>\n'
            '  <p>&copy; 2024 Grand Valley State University. <a href="https://www.gvsu.edu/privacy.htm">Privacy</a></p>\n'
            '</div>')


def _dump_value(v):
    # lists of objects: one compact object per line; everything else: indent 2
    if isinstance(v, list) and v:
        items = ",\n".join("    " + json.dumps(x, ensure_ascii=False) for x in v)
        return "[\n" + items + "\n  ]"
    if isinstance(v, dict) and v:
        items = ",\n".join(f"    {json.dumps(k, ensure_ascii=False)}: {json.dumps(x, ensure_ascii=False)}"
                            for k, x in v.items())
        return "{\n" + items + "\n  }"
    return json.dumps(v, ensure_ascii=False)


def write_json(path, obj):
    body = ",\n".join(f"  {json.dumps(k)}: {_dump_value(v)}" for k, v in obj.items())
    text = "{\n" + body + "\n}\n"
    assert json.loads(text) == obj
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def course_stem(c):
    return f"{c['subj'].lower()}-{c['num']}{(c.get('suffix') or '').lower()}"


def render_course(c, subj_info, goldens=True):
    cp = c.get("cp1252", False)
    stem = course_stem(c)
    code = f"{c['subj']} {c['num']}{c.get('suffix') or ''}"
    year = c.get("year")
    catalog = OLD if year else CUR
    canonical = f"{BASE}/catalog/{year + '/' if year else ''}course/{stem}.htm"
    heading = c.get("heading", "dash")
    sep = c.get("h1_sep", " ")
    h1code = f"{c['subj']}{sep}{c['num']}{c.get('suffix') or ''}"
    h1 = {"dash": f"{h1code} - {c['title']}", "colon": f"{h1code}: {c['title']}",
          "space": f"{h1code} {c['title']}"}[heading]

    paras = c["desc"] if isinstance(c["desc"], list) else [c["desc"]]
    tail = []
    if c.get("contact"):
        tail.append(f"({c['contact']})")
    if c.get("offered"):
        tail.append(f"Offered {c['offered']}.")
    if c.get("prereq"):
        tail.append(f"{c.get('plabel', 'Prerequisite')}: {c['prereq']}")
    if c.get("coreq"):
        tail.append(f"{c.get('clabel', 'Corequisite')}: {c['coreq']}")
    last = paras[-1]
    if tail:
        last = last + c.get("sep0", " ") + " ".join(tail)
    html_paras = [render_marked(p, cp) for p in paras[:-1]] + [render_marked(last, cp)]
    if c.get("wrap"):
        html_paras = [p.replace(". ", ".\n    ") for p in html_paras]

    blocks = [f"  <p>{esc(catalog, cp)}</p>", f"  <h1>{esc(h1, cp)}</h1>"]
    blocks += [f"  <p>{p}</p>" for p in html_paras]
    if c["credits"] is not None:
        if c.get("credits_style") == "div":
            blocks.append(f'  <div class="credits"><b>Credits:</b>&nbsp;{esc(c["credits"], cp)}</div>')
        else:
            blocks.append(f"  <p><strong>Credits:</strong> {esc(c['credits'], cp)}</p>")
    for k, v in c.get("fields", []):
        blocks.append(f"  <p><strong>{esc(k, cp)}:</strong> {esc(v, cp)}</p>")

    meta = ('<meta http-equiv="Content-Type" content="text/html; charset=windows-1252">' if cp
            else '<meta charset="utf-8">')
    title_tag = f"{code} - {c['title']} - Grand Valley State University"
    page = (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n{meta}\n'
            f"<title>{esc(title_tag, cp)}</title>\n"
            f'<link rel="canonical" href="{canonical}">\n</head>\n<body>\n{HEADER}\n'
            f'<div id="content">\n' + "\n".join(blocks) + "\n</div>\n"
            f"{footer((subj_info['slug'], subj_info['name']))}\n</body>\n</html>\n")
    with open(os.path.join(OUT, "course", stem + ".html"), "wb") as f:
        f.write(page.encode("cp1252" if cp else "utf-8"))
    if not goldens:
        return

    golden = {
        "catalog": norm(catalog),
        "subject": c["subj"],
        "number": c["num"],
        "suffix": c.get("suffix"),
        "title": norm(c["title"]),
        "credits": c["credits"],
        "contactHours": c.get("contact"),
        "offered": c.get("offered"),
        "description": "\n\n".join(norm(p) for p in paras),
        "prerequisite": plain(c["prereq"]) if c.get("prereq") else None,
        "corequisite": plain(c["coreq"]) if c.get("coreq") else None,
        "prerequisiteLinks": links(c["prereq"], canonical) if c.get("prereq") else [],
        "fields": {k: norm(v) for k, v in c.get("fields", [])},
    }
    write_json(os.path.join(OUT, "course", stem + ".golden.json"), golden)


def render_subject(s, goldens=True):
    canonical = f"{BASE}/catalog/subject/{s['slug']}.htm"
    courses = [c for c in COURSES if c["subj"] == s["code"]]
    sections = s.get("sections") or [(None, lambda c: True)]
    body, gold = [], []
    for head, pred in sections:
        if head:
            body.append(f"<h2>{esc(head)}</h2>")
        body.append("<ul>")
        for c in courses:
            if not pred(c):
                continue
            stem = course_stem(c)
            code = f"{c['subj']} {c['num']}{c.get('suffix') or ''}"
            if stem in s["relative"]:
                href = f"../course/{stem}.htm"
            elif stem in s["absolute"]:
                href = f"{BASE}/catalog/course/{stem}.htm"
            else:
                href = f"/catalog/course/{stem}.htm"
            text = f"{c['subj']}{c.get('list_sep', ' ')}{c['num']}{c.get('suffix') or ''} - {c['title']}"
            body.append(f' <li><a href="{href}">{esc(text)}</a></li>')
            gold.append({"code": code, "title": norm(c["title"]), "url": urljoin(canonical, href)})
        body.append("</ul>")
    link_url, link_text = s["intro_link"]
    page = (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f"<title>{esc(s['name'])} - Grand Valley State University</title>\n"
            f'<link rel="canonical" href="{canonical}">\n</head>\n<body>\n{HEADER}\n'
            f'<div id="content">\n<p>{esc(CUR)}</p>\n<h1>{esc(s["name"])} ({s["code"]})</h1>\n'
            f'<p>{esc(s["intro"])} Visit the <a href="{link_url}">{esc(link_text)}</a> for advising information.</p>\n'
            + "\n".join(body) + "\n</div>\n"
            '<div id="footer">\n  <a href="/catalog/">Catalog home</a> <a href="https://www.gvsu.edu/">GVSU</a>\n'
            '  <p>&copy; 2024 Grand Valley State University</p>\n</div>\n</body>\n</html>\n')
    with open(os.path.join(OUT, "subject", s["slug"] + ".html"), "w", encoding="utf-8") as f:
        f.write(page)
    if not goldens:
        return
    write_json(os.path.join(OUT, "subject", s["slug"] + ".golden.json"),
               {"subject": s["name"], "code": s["code"], "courses": gold})


def code_of(c):
    return f"{c['subj']} {c['num']}{c.get('suffix') or ''}"


def next_edition(courses):
    """The first edition's courses with NEXT's removals, renumberings and changes applied, and its additions."""
    known = {code_of(c) for c in courses}
    for code in list(NEXT["removed"]) + list(NEXT["renumbered"]) + list(NEXT["changed"]):
        assert code in known, f"NEXT names {code}, which the first edition does not have"
    result = []
    for c in courses:
        code = code_of(c)
        if code in NEXT["removed"]:
            continue
        c = dict(c)
        if code in NEXT["renumbered"]:
            c["num"] = NEXT["renumbered"][code]
        c.update(NEXT["changed"].get(code, {}))
        result.append(c)
    return result + list(NEXT["added"])


def write_index(courses):
    """A mirror index (as `gvingest fetch --record` writes it), so `--replay` serves the edition offline."""
    pages = {}
    for c in courses:
        stem = course_stem(c)
        entry = {"contentType": "text/html; charset=" + ("windows-1252" if c.get("cp1252") else "utf-8"),
                 "file": f"course/{stem}.html", "status": 200}
        pages[f"{BASE}/catalog/course/{stem}.htm"] = entry
        if c.get("year"):
            pages[f"{BASE}/catalog/{c['year']}/course/{stem}.htm"] = entry
    for s in SUBJECTS:
        pages[f"{BASE}/catalog/subject/{s['slug']}.htm"] = {"contentType": "text/html; charset=utf-8",
                                                           "file": f"subject/{s['slug']}.html", "status": 200}
    index = {"pages": dict(sorted(pages.items())), "schemaVersion": 1,
             "startUrls": [f"{BASE}/catalog/subject/{s['slug']}.htm" for s in SUBJECTS]}
    with open(os.path.join(OUT, "index.json"), "w", encoding="utf-8") as f:
        f.write(json.dumps(index, indent=2, sort_keys=True) + "\n")


def main():
    global OUT, CUR, COURSES
    parser = argparse.ArgumentParser(description="Render the GVSU fixture catalog (spec.py) into pages, goldens and a mirror index.")
    parser.add_argument("--edition", choices=["first", "next"], default="first",
                        help="first: Fixtures/gvsu, the pages with their goldens (default); next: Fixtures/gvsu-next, "
                             "the later edition (NEXT in spec.py) with its mirror index.json, no goldens")
    parser.add_argument("out", nargs="?", help="the output directory (default: Fixtures/gvsu or Fixtures/gvsu-next)")
    arguments = parser.parse_args()
    goldens = arguments.edition == "first"
    if not goldens:
        COURSES, CUR = next_edition(COURSES), NEXT_CUR
    OUT = arguments.out or os.path.join(FIXTURES, "gvsu" if goldens else "gvsu-next")
    os.makedirs(os.path.join(OUT, "course"), exist_ok=True)
    os.makedirs(os.path.join(OUT, "subject"), exist_ok=True)
    by_code = {s["code"]: s for s in SUBJECTS}
    stems = [course_stem(c) for c in COURSES]
    assert len(stems) == len(set(stems)), "duplicate course stems"
    for c in COURSES:
        render_course(c, by_code[c["subj"]], goldens)
    for s in SUBJECTS:
        render_subject(s, goldens)
    if not goldens:
        write_index(COURSES)
    print(f"{len(COURSES)} courses, {len(SUBJECTS)} subjects -> {OUT}")


if __name__ == "__main__":
    main()
