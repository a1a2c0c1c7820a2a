#!/usr/bin/env python3
"""The Scrapy spider a Python user would write for the crawl benchmark's site, set up like `gvingest fetch`.

  crawl_spider.py LISTING_URL      (run with the bench venv's python: benchmarks/python/setup.sh)

Starts at the listing page, follows every course link on it, and reads each course page's code and title
with XPath. Settings match the gvingest crawl it is compared with: 16 requests in flight, 16 per host, no
delay, no AutoThrottle, robots.txt obeyed, no HTTP cache, gvingest's retries (4 attempts on connection errors,
timeouts, 408, 429 and 5xx), its 30 s request timeout, 5 redirects and 10 MiB bodies. Prints one JSON object:
pages fetched, courses read, failures and Scrapy's own elapsed time; exits 1 when a page failed.
"""
import json
import sys

import scrapy
from scrapy.crawler import CrawlerProcess

SETTINGS = {
    "CONCURRENT_REQUESTS": 16,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 16,
    "DOWNLOAD_DELAY": 0,
    "AUTOTHROTTLE_ENABLED": False,
    "ROBOTSTXT_OBEY": True,
    "HTTPCACHE_ENABLED": False,
    "RETRY_ENABLED": True,
    "RETRY_TIMES": 3,
    "RETRY_HTTP_CODES": [408, 429] + list(range(500, 600)),
    "DOWNLOAD_TIMEOUT": 30,
    "REDIRECT_MAX_TIMES": 5,
    "DOWNLOAD_MAXSIZE": 10 << 20,
    "LOG_LEVEL": "WARNING",
    # Nothing here talks to the telnet console; it would only open another port.
    "TELNETCONSOLE_ENABLED": False,
}


class CatalogSpider(scrapy.Spider):
    name = "catalog"

    def __init__(self, listing, **kwargs):
        super().__init__(**kwargs)
        self.start_urls = [listing]

    def parse(self, response):
        for href in response.xpath("//a[contains(@href, '/catalog/course/')]/@href").getall():
            yield response.follow(href, callback=self.parse_course)

    def parse_course(self, response):
        heading = response.xpath("normalize-space(//h1)").get()
        code, _, title = heading.partition(" - ")
        yield {"code": code, "title": title, "url": response.url}


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: crawl_spider.py LISTING_URL")
    process = CrawlerProcess(settings=SETTINGS)
    crawler = process.create_crawler(CatalogSpider)
    process.crawl(crawler, listing=sys.argv[1])
    process.start()
    stats = crawler.stats.get_stats()
    pages = stats.get("downloader/response_status_count/200", 0)
    failed = stats.get("log_count/ERROR", 0) + stats.get("retry/max_reached", 0)
    print(json.dumps({
        "pagesFetched": pages,
        "courses": stats.get("item_scraped_count", 0),
        "requests": stats.get("downloader/request_count", 0),
        "robotsTxtStatus": next((key.rsplit("/", 1)[1] for key in stats if key.startswith("robotstxt/response_status_count/")), None),
        "retries": stats.get("retry/count", 0),
        "failed": failed,
        "elapsedSeconds": round(stats.get("elapsed_time_seconds", 0), 3),
    }))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
