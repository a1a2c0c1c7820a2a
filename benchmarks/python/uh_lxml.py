#!/usr/bin/env python3
"""What a Python user would write instead of `gvingest parse --json` for the UH Acalog pages: lxml and XPath.

  uh_lxml.py DIR                         prints a JSON array of course records, sorted by id
  uh_lxml.py DIR --check GVINGEST_JSON   prints how far the records agree with `gvingest parse --json DIR`
                                         (exit 1 when code, title or credits agree for fewer than --min-agreement)

Each page is read as bytes, its charset chosen the way gvingest chooses it (byte order mark, then a <meta> in
the first 4 KiB, then UTF-8: the UH pages declare none and are UTF-8) and handed to lxml.html with that encoding.
The course block is found with the XPaths gvingest's Acalog parser uses; the text after the heading is split into
labelled fields ("Credit Hours:", "Prerequisite:", "Description", "TCCNS Equivalent: …") with white space collapsed,
credits read as numbers, the level taken from the course number in the four-digit numbering gvingest infers
from UH's numbers (doctoral only where the title says so), and the
codes a prerequisite names picked out with a regular expression. Unlike gvingest it does not parse prerequisites
into trees, build reverse links or record where each field came from: the benchmark says so.
"""
import argparse
import json
import os
import re
import sys

import lxml.html

COURSE_BLOCK = "//td[contains(concat(' ', normalize-space(@class), ' '), ' coursepadding ')]"
HEADING = "(.//h3 | .//h2 | .//h4)[1]"
CATALOG_NAME = "preceding::text()[contains(., 'Catalog')][not(ancestor::a)][not(ancestor::option)][1]"
DECLARED_URL = [
    "/html/head/link[@rel='canonical']/@href",
    "/html/head/meta[@property='og:url']/@content",
    "//div[@class='edu-uh-publications-metadata']/span[@title='scrape_url']/text()",
]

EMPHASIS = {"strong", "b", "em", "i"}
SKIPPED = {"script", "style", "noscript", "template", "head", "title"}
BLOCKS = {
    "p", "div", "hr", "li", "ul", "ol", "dl", "dt", "dd", "table", "tr", "td", "th", "tbody", "thead", "tfoot",
    "h1", "h2", "h3", "h4", "h5", "h6", "section", "article", "header", "footer", "main", "nav", "aside",
    "blockquote", "pre", "form", "fieldset", "address", "figure", "figcaption", "caption", "body", "html",
}

ROLES = {}
for role, labels in {
    "credits": ["credits", "credit", "credit hours", "credit hour", "hours", "units", "semester hours",
                "semester credit hours", "cr"],
    "prerequisite": ["prerequisite", "prerequisites", "prereq", "prereqs", "pre-requisite", "pre-requisites"],
    "corequisite": ["corequisite", "corequisites", "coreq", "coreqs", "co-requisite", "co-requisites"],
    "description": ["description", "course description"],
    "offered": ["offered", "typically offered", "terms offered", "term offered", "when offered", "semesters offered",
                "course offered"],
    "contactHours": ["contact hours"],
}.items():
    for label in labels:
        ROLES[label] = role

LEVELS = [(0, 999, "Developmental"), (1000, 4999, "Undergraduate"), (5000, None, "Graduate")]
DOCTORAL_WORD = re.compile(r"\b(doctoral|doctorate)\b", re.IGNORECASE)

SPACE = re.compile(r"\s+")
SPACE_RUNS = re.compile(r"(\s+)")
HEADING_CODE = re.compile(r"^([A-Z][A-Z&]{1,5}) ?([A-Z]?\d{1,4})([A-Z])?(?=$|[ \-\u2013\u2014:.])")
HEADING_SEPARATORS = "-\u2013\u2014:."
CODE_IN_TEXT = re.compile(r"\b([A-Z]{2,5}) ?(\d{4}[A-Z]?)\b")
NUMBER = re.compile(r"\d+(?:\.\d+)?")
META_CHARSET = re.compile(rb"<meta[^>]*?charset\s*=\s*[\"']?\s*([A-Za-z0-9_.:-]+)", re.IGNORECASE)
WINDOWS_1252 = {"windows-1252", "cp1252", "x-cp1252", "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "l1",
                "us-ascii", "ascii", "ansi_x3.4-1968", "cp819", "ibm819", "iso-ir-100"}
PARSERS = {}


def collapse(text):
    return SPACE.sub(" ", text).strip()


# gvingest's light cleaning: invisible characters dropped, curly quotes and primes made ASCII.
TYPOGRAPHY = str.maketrans({0x00AD: None, 0x200B: None, 0x200C: None, 0x200D: None, 0x2060: None, 0xFEFF: None,
                            0x2018: "'", 0x2019: "'", 0x201A: "'", 0x201B: "'", 0x2032: "'",
                            0x201C: '"', 0x201D: '"', 0x201E: '"', 0x201F: '"', 0x2033: '"'})


def clean(text):
    """Cleaned prose: paragraph ("\\n\\n") and line breaks kept, white space collapsed within lines."""
    paragraphs = ("\n".join(line for line in (collapse(l) for l in paragraph.split("\n")) if line)
                  for paragraph in text.translate(TYPOGRAPHY).split("\n\n"))
    return "\n\n".join(p for p in paragraphs if p)


def clean_line(text):
    return None if text is None else collapse(text.translate(TYPOGRAPHY))


def charset(data):
    if data.startswith(b"\xef\xbb\xbf"):
        return "utf-8"
    if data.startswith(b"\xff\xfe"):
        return "utf-16le"
    if data.startswith(b"\xfe\xff"):
        return "utf-16be"
    match = META_CHARSET.search(data, 0, 4096)
    if match:
        label = match.group(1).decode("ascii").lower()
        if label in WINDOWS_1252:
            return "windows-1252"
        # A page cannot be UTF-16 if its <meta> was readable as ASCII (HTML's rule, gvingest's too).
        return "utf-8" if label.startswith("utf-16") else label
    return "utf-8"


def parse_document(data):
    encoding = charset(data)
    if encoding not in PARSERS:
        PARSERS[encoding] = lxml.html.HTMLParser(encoding=encoding)
    return lxml.html.document_fromstring(data, parser=PARSERS[encoding])


# Reading a course body: the text after the heading as events, then lines, then labelled segments.

def hidden(element):
    if element.get("hidden") is not None:
        return True
    style = (element.get("style") or "").lower().replace(" ", "")
    return "display:none" in style or "visibility:hidden" in style


def flatten(element, events):
    tag = element.tag if isinstance(element.tag, str) else None
    if tag is None or tag in SKIPPED or hidden(element):
        return
    if tag == "br":
        events.append(("br", None))
        return
    closing = None
    if tag in EMPHASIS:
        events.append(("em", tag))
        closing = ("/em", None)
    elif tag == "a" and element.get("href") is not None:
        events.append(("a", element.get("href")))
        closing = ("/a", None)
    elif tag in BLOCKS:
        events.append(("block", None))
        closing = ("block", None)
    if element.text:
        events.append(("text", element.text))
    for child in element:
        flatten(child, events)
        if child.tail:
            events.append(("text", child.tail))
    if closing:
        events.append(closing)


def body_events(heading):
    events = [("text", heading.tail)] if heading.tail else []
    for sibling in heading.itersiblings():
        flatten(sibling, events)
        if sibling.tail:
            events.append(("text", sibling.tail))
    # Acalog's page tools ("Back to Top", "Print-Friendly Page") follow the course on a full page; they are not part of it.
    for index, (kind, href) in enumerate(events):
        if kind == "a" and (href == "#top" or href.endswith(("&print", "?print"))):
            return events[:index]
    return events


def lines_of(events):
    """Lines of (text, emphasis group, link) tokens, each with the break before it: 'line' or 'paragraph'."""
    lines, tokens, depth, group, link, pending = [], [], 0, 0, None, "paragraph"

    def close(kind):
        nonlocal tokens, pending
        if any(text.strip() for text, _, _ in tokens):
            lines.append((pending, tokens))
            pending = kind
        elif kind == "paragraph" or pending == "line":
            pending = "paragraph"
        tokens = []

    for kind, value in events:
        if kind == "text":
            tokens.append((value, group if depth else None, link))
        elif kind == "em":
            if depth == 0:
                group += 1
            depth += 1
        elif kind == "/em":
            depth = max(0, depth - 1)
        elif kind == "a":
            link = value
        elif kind == "/a":
            link = None
        elif kind == "br":
            close("line")
        else:
            close("paragraph")
    close("paragraph")
    return lines


def units_of(tokens):
    units = []
    for token in tokens:
        if units and units[-1][-1][1] == token[1]:
            units[-1].append(token)
        else:
            units.append([token])
    return units


def colon_label(text):
    if not text.endswith(":"):
        return None
    body = collapse(text[:-1])
    if body and body[0].isalpha() and len(body) <= 60 and len(body.split(" ")) <= 8:
        return body
    return None


def bare_label(text):
    words = text.split(" ")
    if 1 <= len(words) <= 4 and text[0].isupper() and all(c.isalpha() or c in " &/()-'" for c in text):
        return text
    return None


SMALL_WORDS = {"of", "and", "or", "for", "to", "the", "in", "a", "an", "by", "per"}


def text_label(text):
    colon = text.find(":")
    if colon <= 0 or colon > 40 or not text[0].isupper():
        return None
    body = text[:colon]
    words = body.split()
    if len(words) > 6:
        return None
    for word in words:
        if word in SMALL_WORDS or word.startswith("("):
            continue
        if not word[0].isupper() or not all(c.isalpha() or c in "().-/&'" for c in word):
            return None
    return body


class Segment:
    """A labelled field or prose, its text built with white space collapsed and line breaks kept."""
    label_style = "markup"

    def __init__(self, label=None, emphasized=False):
        self.label, self.emphasized, self.parts, self.links = label, emphasized, [], []
        self.pending_space, self.pending_break = False, None

    def add_break(self, kind):
        if self.parts:
            self.pending_break = "paragraph" if "paragraph" in (kind, self.pending_break) else "line"
            self.pending_space = False

    def add(self, tokens):
        for text, _, link in tokens:
            if link is not None and link not in self.links:
                self.links.append(link)
            for piece in SPACE_RUNS.split(text):
                if not piece:
                    continue
                if piece.isspace():
                    if self.parts and self.pending_break is None:
                        self.pending_space = True
                    continue
                if self.pending_break:
                    self.parts.append("\n\n" if self.pending_break == "paragraph" else "\n")
                    self.pending_break, self.pending_space = None, False
                elif self.pending_space:
                    self.parts.append(" ")
                    self.pending_space = False
                self.parts.append(piece)

    @property
    def has_text(self):
        return bool(self.parts)

    def text(self):
        return "".join(self.parts)


def segments_of(lines):
    segments, current, continuation = [], None, False

    def finish():
        nonlocal current, continuation
        if current is not None and (current.label is not None or current.text()):
            segments.append(current)
        current, continuation = None, False

    def start(segment):
        nonlocal current
        finish()
        current = segment

    for breaking, tokens in lines:
        if current is not None and current.label is not None and not continuation:
            finish()
        if current is not None and current.has_text:
            current.add_break(breaking)
        line_has_content = False
        for unit in units_of(tokens):
            text = collapse("".join(t[0] for t in unit))
            empty = not text
            emphasized = unit[0][1] is not None
            has_link = any(t[2] is not None for t in unit)
            if emphasized:
                label = None
                if text and not has_link:
                    label = colon_label(text) or (None if line_has_content else bare_label(text))
                if label is not None:
                    start(Segment(label))
                    line_has_content = True
                    continue
                if current is not None and current.label is not None and not current.has_text \
                        and current.label_style != "text":
                    current.add(unit)
                    finish()
                    line_has_content = True
                    continue
                if not empty and (current is None or (current.label is None and not current.has_text)):
                    start(Segment(None, emphasized=True))
                    current.add(unit)
                    finish()
                    line_has_content = True
                    continue
            elif not empty and not line_has_content:
                label = text_label(text)
                if label is not None:
                    segment = Segment(label)
                    segment.label_style = "text"
                    first = True
                    for token_text, group, link in unit:
                        if first and ":" in token_text:
                            token_text = token_text.split(":", 1)[1]
                            first = False
                        elif first:
                            continue
                        segment.add([(token_text, group, link)])
                    start(segment)
                    line_has_content = True
                    continue
            if empty:
                if current is not None:
                    current.add(unit)
                continue
            if current is None:
                current = Segment()
            current.add(unit)
            line_has_content = True
        if current is not None and current.label is not None and not current.has_text:
            continuation = True
    finish()
    return segments



def role_of(label):
    key = label.lower()
    if key.endswith("(s)"):
        key = key[:-3]
    return ROLES.get(collapse(key.replace(".", "").replace(":", "")), "other")


def credit_range(text):
    numbers = [float(n) for n in NUMBER.findall(text or "")]
    if not numbers:
        return None
    low, high = min(numbers[:2]), max(numbers[:2])
    as_int = lambda value: int(value) if value == int(value) else value
    return as_int(low), as_int(high)


def level_of(number, title):
    if DOCTORAL_WORD.search(title):
        return "Doctoral"
    digits = re.sub(r"\D", "", number)
    if not digits:
        return None
    value = int(digits)
    for low, high, level in LEVELS:
        if value >= low and (high is None or value <= high):
            return level
    return None


def course_record(heading, page_url, path):
    title_text = collapse(heading.text_content())
    match = HEADING_CODE.match(title_text)
    if not match:
        return None
    subject, number, suffix = match.groups()
    title = title_text[match.end():].lstrip(" ")
    if title and title[0] in HEADING_SEPARATORS:
        title = title[1:].lstrip(" ")
    title = clean_line(title)
    record = {
        "id": "%s-%s%s" % (subject.lower(), number.lower(), (suffix or "").lower()),
        "subject": subject, "number": int(re.sub(r"\D", "", number) or 0), "numberText": number, "suffix": suffix,
        "name": "%s %s%s" % (subject, number, suffix or ""), "title": title,
        "credits": None, "creditRange": None, "creditsText": None, "level": level_of(number, title),
        "description": "", "prerequisiteString": None, "prerequisiteCourses": [], "prerequisiteLinks": [],
        "corequisiteString": None, "offered": None, "contactHours": None, "fields": {}, "notes": [],
        "catalog": None, "url": page_url, "sourceUrl": "file://" + os.path.abspath(path),
    }
    catalog = heading.xpath(CATALOG_NAME)
    if catalog:
        record["catalog"] = clean_line(catalog[0])
    segments = segments_of(lines_of(body_events(heading)))
    has_description_label = any(s.label is not None and role_of(s.label) == "description" for s in segments)
    description = []
    for segment in segments:
        text = clean(segment.text())
        if segment.label is None:
            if segment.emphasized and record["prerequisiteString"] is None and segment.links:
                record["prerequisiteString"] = text
            elif segment.emphasized or has_description_label:
                record["notes"].append(text)
            else:
                description.append(text)
            continue
        role = role_of(segment.label)
        if role == "credits" and record["creditsText"] is None:
            record["creditsText"] = text or None
        elif role == "prerequisite" and record["prerequisiteString"] is None:
            record["prerequisiteString"] = text or None
            record["prerequisiteLinks"] = segment.links
        elif role == "corequisite" and record["corequisiteString"] is None:
            record["corequisiteString"] = text or None
        elif role in ("offered", "contactHours") and record[role] is None:
            record[role] = text or None
        elif role == "description":
            if text:
                description.append(text)
        elif role not in ("credits", "prerequisite", "corequisite", "offered", "contactHours"):
            record["fields"][segment.label] = text
    record["description"] = "\n\n".join(description)
    for field in ("creditsText", "prerequisiteString", "corequisiteString", "offered"):
        record[field] = clean_line(record[field])
    credits = credit_range(record["creditsText"])
    if credits:
        record["creditRange"] = {"min": credits[0], "max": credits[1]}
        record["credits"] = credits[0] if credits[0] == credits[1] else None
    if record["prerequisiteString"]:
        record["prerequisiteCourses"] = sorted({"%s %s" % found.groups()
                                                for found in CODE_IN_TEXT.finditer(record["prerequisiteString"])})
    return record


def read_pages(directory):
    paths = sorted(os.path.join(root, name) for root, _, names in os.walk(directory)
                   for name in names if name.endswith((".html", ".htm")))
    records = {}
    for path in paths:
        with open(path, "rb") as handle:
            document = parse_document(handle.read())
        page_url = None
        for xpath in DECLARED_URL:
            found = document.xpath(xpath)
            if found and collapse(found[0]).startswith(("http://", "https://")):
                page_url = collapse(found[0])
                break
        for block in document.xpath(COURSE_BLOCK):
            heading = block.xpath(HEADING)
            record = course_record(heading[0], page_url, path) if heading else None
            # A course on two pages is one course: the first page read keeps it, as in gvingest.
            if record is not None and record["id"] not in records:
                records[record["id"]] = record
    return [records[key] for key in sorted(records)], len(paths)


def check(ours, gvingest_json, minimum):
    with open(gvingest_json, encoding="utf-8") as handle:
        theirs = {record["name"]: record for record in json.load(handle)}
    mine = {record["name"]: record for record in ours}
    both = sorted(set(mine) & set(theirs))
    print("courses: lxml %d, gvingest %d, both %d" % (len(mine), len(theirs), len(both)))

    core = sum(1 for code in both if all(mine[code][f] == theirs[code][f] for f in ("title", "credits")))
    core_rate = core / max(1, len(set(mine) | set(theirs)))
    print("code + title + credits agree: %d of %d courses (%.2f %%)" % (core, len(set(mine) | set(theirs)),
                                                                     core_rate * 100))
    for field in ("title", "credits", "creditRange", "level", "description", "prerequisiteString",
                  "prerequisiteCourses", "corequisiteString", "fields", "notes", "catalog", "url"):
        agree = sum(1 for code in both if mine[code][field] == theirs[code][field])
        print("  %-19s %5d of %d (%.2f %%)" % (field, agree, len(both), agree / max(1, len(both)) * 100))
    print("  (gvingest writes prerequisiteString back from its parsed tree and takes prerequisiteCourses from it;")
    print("   here they are the label's text and the codes a regular expression finds in it)")
    for code in [c for c in both if mine[c]["title"] != theirs[c]["title"] or mine[c]["credits"] != theirs[c]["credits"]][:5]:
        print("  differs: %s: %r %r / gvingest %r %r" % (code, mine[code]["title"], mine[code]["credits"],
                                                        theirs[code]["title"], theirs[code]["credits"]))
    return core_rate >= minimum


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory")
    parser.add_argument("--check", metavar="GVINGEST_JSON", help="compare with the output of gvingest parse --json")
    parser.add_argument("--min-agreement", type=float, default=0.99)
    options = parser.parse_args()
    if not os.path.isdir(options.directory):
        sys.exit("uh_lxml.py: no such directory: %s" % options.directory)
    records, pages = read_pages(options.directory)
    if options.check:
        print("pages: %d" % pages)
        sys.exit(0 if check(records, options.check, options.min_agreement) else 1)
    json.dump(records, sys.stdout, ensure_ascii=False, indent=2, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
