#!/usr/bin/env python3
"""Reads an Atom feed as a feed reader does, with feedparser (PyPI). Prints one JSON object: whether it read cleanly
(bozo), and each entry's title, link and content as feedparser gives them (type and value, sanitized as readers show
them).

  feed-check.py FEED
"""
import json, sys

import feedparser


def main(path):
    feed = feedparser.parse(path)
    entries = [{"title": e.get("title"), "link": e.get("link"),
                "content": [{"type": c.get("type"), "value": c.get("value")} for c in e.get("content", [])]}
               for e in feed.entries]
    print(json.dumps({"bozo": bool(feed.bozo), "version": feed.version, "entries": entries}, indent=1))
    return 1 if feed.bozo else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
