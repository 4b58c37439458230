"""``/sitemap.xml`` and ``/robots.txt`` (issue 21): what a search engine may crawl and where the pages are.

The sitemap follows the Sitemaps protocol 0.9 (sitemaps.org/protocol.html): a ``<urlset>`` in the
namespace ``http://www.sitemaps.org/schemas/sitemap/0.9``, one ``<url><loc>`` per page, each
``<loc>`` an absolute URL of the site's origin (`urls.absolute`), XML-escaped, UTF-8.  A file holds
at most `MAX_URLS` (50,000) URLs and `MAX_BYTES` (50 MiB) uncompressed; beyond either,
``/sitemap.xml`` becomes a ``<sitemapindex>`` of ``/sitemap-1.xml``, ``/sitemap-2.xml``, … (`parts`).
No ``<lastmod>``: a page's bytes change with today, not its content, and a date that is always
today tells a crawler nothing.

Which pages: the addresses build.py pre-renders (`routes.static_pages` for this year ±1) whose
page kind is listed (`Page.listed`); error pages, robots.txt and the sitemap itself are not pages
of the plan's HTML.  Every one is a canonical address, so the sitemap names no duplicate.

robots.txt lets every crawler read every page and names the sitemap; it keeps crawlers off the
JSON/ICS/CSV answers under ``/v1/`` (data, not pages: each costs a render, and 16 methods ×
348 cities × every date would be crawled without end) and off ``/today/`` and ``/_today/``
(the file hosts' stable names and the dated copies of pages).
"""
from __future__ import annotations

from xml.sax.saxutils import escape

from generator.site import urls
from generator.site.page import PageNotFound

SITEMAP_NAMESPACE = "http://www.sitemaps.org/schemas/sitemap/0.9"
MAX_URLS = 50_000  # per file (sitemaps.org)
MAX_BYTES = 50 * 1024 * 1024  # per file, uncompressed (sitemaps.org: 52,428,800 bytes)
SITEMAP = "/sitemap.xml"
PART = "/sitemap-{part}.xml"  # the files of a sitemap index, numbered from 1
ROBOTS = "/robots.txt"
DISALLOWED = ("/v1/", "/today/", "/_today/")  # answers, and the file hosts' copies (see above)
_HEAD = f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{SITEMAP_NAMESPACE}">\n'
_TAIL = "</urlset>\n"


def _entry(path: str, element: str = "url") -> str:
    return f"<{element}><loc>{escape(urls.absolute(path))}</loc></{element}>\n"


def parts(paths: list[str], max_urls: int = MAX_URLS, max_bytes: int = MAX_BYTES) -> list[list[str]]:
    """Split page paths into sitemap files of at most ``max_urls`` URLs and ``max_bytes`` bytes each."""
    room = max_bytes - len(_HEAD.encode()) - len(_TAIL.encode())
    out: list[list[str]] = [[]]
    used = 0
    for path in paths:
        size = len(_entry(path).encode())
        if out[-1] and (len(out[-1]) >= max_urls or used + size > room):
            out.append([])
            used = 0
        out[-1].append(path)
        used += size
    return out


def urlset(paths: list[str]) -> bytes:
    """Return a ``<urlset>`` of the pages at ``paths``."""
    return (_HEAD + "".join(_entry(path) for path in paths) + _TAIL).encode("utf-8")


def render(paths: list[str], part: int | None = None, max_urls: int = MAX_URLS,
           max_bytes: int = MAX_BYTES) -> bytes:
    """Return ``/sitemap.xml`` (``part`` None: the urlset, or the index when the pages need several
    files) or its file number ``part`` (`PageNotFound` when there is no such file)."""
    files = parts(paths, max_urls, max_bytes)
    if part is None:
        if len(files) == 1:
            return urlset(files[0])
        return (f'<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="{SITEMAP_NAMESPACE}">\n'
                + "".join(_entry(PART.format(part=n), "sitemap") for n in range(1, len(files) + 1))
                + "</sitemapindex>\n").encode("utf-8")
    if len(files) == 1 or not 1 <= part <= len(files):
        raise PageNotFound(f"no sitemap file {part}")
    return urlset(files[part - 1])


def part_count(paths: list[str]) -> int:
    """Return how many files the sitemap of ``paths`` takes (1: no index)."""
    return len(parts(paths))


def robots() -> bytes:
    """Return ``/robots.txt``: every page may be crawled, the API answers not; where the sitemap is."""
    lines = ["# Pages for people may be crawled; the API's answers (/v1/) are data, each a render.",
             "User-agent: *", *(f"Disallow: {path}" for path in DISALLOWED), "",
             f"Sitemap: {urls.absolute(SITEMAP)}"]
    return ("\n".join(lines) + "\n").encode("utf-8")
