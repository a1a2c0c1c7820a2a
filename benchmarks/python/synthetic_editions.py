"""Writes EDITIONS folders of GVSU-style course pages, COURSES each, for benchmarks/backfill-editions.sh.

Each edition after the first removes 2 % of the courses, adds 3 % new ones, renumbers 1 % (same title and
description under a new code) and edits the description of 5 %, as archived catalogs change year to year.
Usage: synthetic_editions.py DIR EDITIONS COURSES
"""
import random
import sys
from pathlib import Path

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{code} - {title}</title></head>
<body><div id="content"><p>{edition} Undergraduate &amp; Graduate Catalog</p>
<h1>{code} - {title}</h1>
<p>{description} Prerequisite: {prerequisite}.</p>
<p><strong>Credits:</strong> {credits}</p></div></body></html>
"""
SUBJECTS = [f"{a}{b}{c}" for a in "ABCDEFGH" for b in "AEIOU" for c in "MNRST"][:120]
WORDS = "analysis of systems design theory practice methods history culture data models computing science".split()


def main(root: Path, editions: int, count: int) -> None:
    rng = random.Random(34)
    numbers = iter(rng.sample(range(100, 1000), 900) * 200)
    def code():
        return f"{rng.choice(SUBJECTS)} {next(numbers)}"
    def words(n):
        return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize()
    courses = {}
    while len(courses) < count:
        courses[code()] = {"title": words(4), "description": words(30) + ".", "credits": rng.choice([1, 3, 4])}
    for index in range(editions):
        if index:
            keys = list(courses)
            for key in rng.sample(keys, count * 2 // 100):
                del courses[key]
            for key in rng.sample(list(courses), count // 100):
                new = code()
                if new not in courses:
                    courses[new] = courses.pop(key)
            for key in rng.sample(list(courses), count * 5 // 100):
                courses[key] = dict(courses[key], description=courses[key]["description"] + " " + words(6) + ".")
            while len(courses) < count * (101 + index) // 100:
                courses.setdefault(code(), {"title": words(4), "description": words(30) + ".", "credits": 3})
        label = f"{2010 + index}-{2011 + index}"
        folder = root / label
        folder.mkdir(parents=True, exist_ok=True)
        codes = sorted(courses)
        for key, course in courses.items():
            page = PAGE.format(code=key, edition=label, prerequisite=rng.choice(codes), **course)
            (folder / (key.replace(" ", "-").lower() + ".html")).write_text(page)
        print(f"{label}={folder}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))
