"""Writes a gvingest run's outputs into Firestore with Google's own Python client and its BulkWriter: the same
documents `gvingest publish` writes (the app's fields with the app's types, the richer fields, timestamps), for
benchmarks/firestore-publish.sh. FIRESTORE_EMULATOR_HOST points the client at the emulator.

Usage: firestore_bulkwriter.py OUT_DIR PROJECT [--unthrottled]      prints {"documents": N, "elapsedSeconds": S}
       firestore_bulkwriter.py --count PROJECT COLLECTION             prints the collection's document count
"""
import datetime
import json
import sys
import time

from google.cloud import firestore
from google.cloud.firestore_v1.bulk_writer import BulkWriterOptions

APP_STRINGS = ["subject", "name", "title", "description", "rubricsUrl", "level", "transitionPlanUrl", "prerequisiteString"]
RICHER = ["id", "numberText", "creditsText", "creditRange", "url", "prerequisiteCourses", "corequisiteString",
          "corequisiteCourses", "offered", "catalog", "system", "suffix"]


def stamp(text):
    return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.timezone.utc)


def course_document(record):
    document = {key: record.get(key) or "" for key in APP_STRINGS}
    document["number"] = int(record["number"])
    document["credits"] = int(record["credits"])
    document["createdAt"] = stamp(record["createdAt"])
    document["updatedAt"] = stamp(record["updatedAt"])
    for key in RICHER:
        if key in record:
            document[key] = record[key]
    return document


def news_document(item):
    return {"title": item["title"], "description": item["description"], "content": item["content"],
            "featured": item["featured"], "thumbnail": item.get("thumbnail"), "createdAt": stamp(item["createdAt"]),
            "courseId": item["courseId"], "kind": item["kind"], "link": item.get("link")}


def main():
    if sys.argv[1] == "--count":
        client = firestore.Client(project=sys.argv[2])
        print(sum(1 for _ in client.collection(sys.argv[3]).list_documents()))
        return
    out, project = sys.argv[1], sys.argv[2]
    started = time.monotonic()
    with open(f"{out}/catalog.json", encoding="utf-8") as file:
        courses = json.load(file)["courses"]
    with open(f"{out}/news.json", encoding="utf-8") as file:
        news = json.load(file)["news"]
    client = firestore.Client(project=project)
    options = None
    if "--unthrottled" in sys.argv:
        # The 500/50/5 ramp-up off: as fast as the client can send.
        options = BulkWriterOptions(initial_ops_per_second=1_000_000, max_ops_per_second=1_000_000)
    writer = client.bulk_writer(options=options)
    for record in courses:
        writer.set(client.collection("courses").document(record["id"]), course_document(record))
    for item in news:
        writer.set(client.collection("news").document(item["id"]), news_document(item))
    writer.close()
    print(json.dumps({"documents": len(courses) + len(news), "elapsedSeconds": round(time.monotonic() - started, 3)}))


if __name__ == "__main__":
    main()
