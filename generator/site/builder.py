"""The mosque builder (``/mosque/new/``, ``/mosque/new/<lang>/``; issue 27): a form, a live preview, the outputs.

A mosque's committee composes its profile here, with no programming: its names, place, method
(the place's own preselected), every jamaat rule of /v1/prayer-times, reckoning, languages,
announcement, screen options and sources.  The page is pre-rendered and static; its script
(assets/builder.js) only composes queries and reads the API's answers, exactly as the outputs
will (docs/site.md, "The mosque builder"):

* the preview: this month's /v1/prayer-times (``local`` and ``jamaatLocal``) as a table, the screen
  (/screen/?…) in a landscape and a portrait frame, the widget (/widget/?…); a 400 of the API is
  shown beside the field of the parameter it names, its message as the API wrote it;
* the outputs: the screen's address, the widget's one-line embed, the members' feed links (webcal and
  https, with alarm, duration and prayers), a printable month, the profile in the data/mosques format,
  each with a copy button, and a QR code (`QR_PATH`, drawn by the server) where a phone reads it;
* publishing: POST /v1/mosques (runtime/hosted.py) with the profile; the answer's id gives the short
  addresses and the edit link ``/mosque/new/#edit=<id>.<secret>`` (a fragment: never sent to a
  server, so never logged); the same page opened by that link loads the profile and saves (PUT with
  If-Match), lists and restores versions and deletes.

What the page carries is declared elsewhere and only laid out here: the methods and their labels
(/v1/methods), each catalogue city's own method and reckoning (`generator.prayer.place_defaults`),
the fields' limits (`generator.prayer.mosques` and the parameters' declarations, so the form refuses
what the API would) and the words of data/glossary.csv (``builder.*``).
"""
from __future__ import annotations

import re
from datetime import date
from urllib.parse import unquote, urlsplit

import orjson
from markupsafe import Markup

from generator.errors import QueryError
from generator.places import cities
from generator.prayer import announcements, mosques, place_defaults, timetables
from generator.prayer.methods import DEFAULT_METHOD, METHODS
from generator.calendars import hijri
from generator.words import error_words, feed_words, hijri_names
from generator.words import page_words as words
from generator.api import BY_NAME, feed_options
from generator.site import head, responses, urls
from generator.site.page import BadPageQuery, PageNotFound
from generator.site.templating import render_localised_page

PATH = urls.BUILDER_PATH  # English; another language: PATH + "<lang>/" (before /mosque/<id>/: "new" is no id)
PRAYERS = feed_words.PRAYERS
PARTNERS = {"asr": "dhuhr", "isha": "maghrib"}  # a prayer whose jamaat may be "together with" the one before
ROUND_MINUTES = (5, 10, 15, 30)  # the rounding offered per prayer (the API takes 1..30)
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")  # the API's spelling (jamaatWeekly), Monday first
ADJUSTMENTS = ("asr", "highLatitudeRule", "midnight", "tune", "elevation", "imsak")  # a method's options
MORE_RULES = ("jamaatEarliest", "jamaatLatest")  # summer and Ramadan rules are form controls (issue 36)
ALARM_MINUTES = (5, 10, 15, 30)  # the feed's alert choices offered (the API takes 0..120)
FEED_TIMES = feed_options.EVENT_NAMES  # what a member's feed may show (imsak … midnight)
PRAYER_TIMES = BY_NAME["prayer-times"]
QR_PATH = "/qr.svg"  # a QR code of one of this service's addresses (`qr_parse`, `qr_render`)
QR_MAX_CHARS = 2000  # a feed link with every rule fits; version 40 at level M holds 2,331 bytes
# What a QR code may carry: an address of this service's screens, pages, widget or feeds on one of its own hosts (issue
# 34: any well-formed host was drawn, `https://evil.example/mosque/x/` under our name): PUBLIC_ORIGIN's, or the host
# the request was sent to (the builder links the host it is read on: a mirror, another name).  Never an edit link
# (its secret is a fragment; a fragment is refused here), never a path with a dot segment (`/v1/../../login`).
QR_SCHEMES = ("http", "https", "webcal")
QR_PATHS = ("/screen/", "/widget/", "/mosque/", "/city/", "/v1/")
_CONTROL = re.compile(r"[\x00-\x20\x7f-\x9f]")


def _parameter(name: str) -> dict:
    """The OpenAPI declaration of a /v1/prayer-times parameter (schema, example): the form's limits."""
    return next(p for p in PRAYER_TIMES.parameters if p.name == name).openapi()


def _field(name: str, lang: str) -> dict:
    """A text or number field of a /v1/prayer-times parameter: its label (with the API's example) and limits."""
    declared = _parameter(name)
    schema = declared["schema"]
    example = declared.get("example")
    label = words.BUILDER_WORDS[lang][name]
    choices = [{"value": value, "label": words.BUILDER_WORDS[lang][f"choice.{name}.{value}"]}
               for value in schema.get("enum", ())]  # each value in words (glossary builder.choice.*)
    return {"name": name, "id": f"f-{name}",
            "label": label.format(example=words.isolate(str(example), lang)) if "{example}" in label else label,
            "choices": choices, "maxlength": schema.get("maxLength"),
            "min": schema.get("minimum"), "max": schema.get("maximum"),
            "type": "number" if schema.get("type") in ("integer", "number") else "text"}


def city_defaults() -> dict[str, list[str]]:
    """Each catalogue city's own [method, reckoning, midnight, printed] where it is not a place's with no row (the
    script preselects them; the midnight is the ``midnight=`` its pages ask for the method, "" for the method's own;
    printed is the method when a table of it was printed for this very city (data/timetables/index.csv), which the
    picker then names as what it is: "the Sistani office's printed table for Leicester" (issue 36), else "")."""
    out = {}
    spec = [DEFAULT_METHOD, hijri.DEFAULT_CALENDAR, place_defaults.page_midnight(DEFAULT_METHOD, None) or "", ""]
    for city_id in sorted(cities.by_id()):
        own = place_defaults.for_city(city_id)
        printed = own.method if city_id in _printed_cities(own.method) else ""
        defaults = [own.method, own.calendar, place_defaults.page_midnight(own.method, city_id) or "", printed]
        if defaults != spec:
            out[city_id] = defaults
    return out


def _printed_cities(method: str) -> frozenset[str]:
    """The catalogue cities for which ``method``'s authority printed a table of their own."""
    return frozenset(table.city for table in timetables.tables_of(method))


def method_midnights() -> dict[str, str]:
    """The ``midnight=`` of each preset whose authority's midnight is not its API default (the Institute's:
    sunset to fajr), which the script preselects with the method where the place keeps another (issue 33)."""
    return {m: rule for m in METHODS if (rule := place_defaults.page_midnight(m, None)) is not None}


def render(today: date, lang: str = words.DEFAULT_LANGUAGE) -> bytes:
    """Return the HTML of the builder in ``lang`` (`PageNotFound` for another language)."""
    if lang not in words.LANGUAGES:
        raise PageNotFound(f"no language {lang[:10]!r}")
    w = words.WORDS[lang]
    b = words.BUILDER_WORDS[lang]
    methods = responses.api_json("methods", {}, today)["methods"]
    prayer_names = {p: feed_words.PRAYER_NAMES[lang][p] for p in PRAYERS}
    minutes = {n: b["minutes_few" if 3 <= n <= 10 else "minutes"].format(minutes=words.digits(n, lang))
               for n in sorted({*ROUND_MINUTES, *ALARM_MINUTES})}  # Arabic's plural of 3..10
    config = {
        "lang": lang,
        "clock": words.DEFAULT_CLOCK[lang],  # the table's clock, as the mosque's page prints it (12 h in ar and ur)
        "defaults": {"method": DEFAULT_METHOD, "reckoning": hijri.DEFAULT_CALENDAR, "cities": city_defaults(),
                     "midnights": method_midnights()},
        "prayers": list(PRAYERS),
        "partners": PARTNERS,
        # the addresses the outputs give (screen, widget, feeds, QR codes, edit link): PUBLIC_ORIGIN when the operator
        # set it (issue 36), never the address the builder happens to be read on (null: the reader's own)
        "publicOrigin": urls.CONFIGURED_ORIGIN,
        "languages": list(words.LANGUAGES),
        "languageNames": words.LANGUAGE_NAMES,
        "words": {"prayers": prayer_names, "times": {t: words.TIME_NAMES[lang][t] for t in FEED_TIMES},
                  "jamaat": w["screen.jamaat"], "jamaatOf": b["preview_jamaat"], "jumuah": w["screen.jumuah"],
                  "eid": w["screen.eid"], "sep": words.SEPARATOR[lang], "comma": words.LIST_COMMA[lang],
                  "months": words.GREGORIAN_MONTHS[lang], "weekdays": hijri_names.WEEKDAYS[lang],
                  "monthCaption": w["month_caption"], "date": w["date"], "cityChosen": b["city_chosen"],
                  "cityNone": b["city_none"], "choose": b["choose"], "noResults": b["no_results"],
                  "errorLead": b["error_lead"], "fieldError": b["field_error"], "copied": b["copied"], "published": b["published"],
                  "saved": b["saved"], "deleted": b["deleted"], "deleteConfirm": b["delete_confirm"],
                  "versionLabel": b["version_label"], "restore": b["restore"], "conflict": b["conflict"],
                  "forbidden": b["forbidden"], "tooMany": b["too_many"], "tooManyMinutes": b["too_many_minutes"], "notHosted": b["not_hosted"],
                  "network": b["network"], "editing": b["editing"], "qrOf": b["qr_of"],
                  "screenShort": b["screen_short"], "widgetShort": b["widget_short"],
                  "movedNote": w["mosque.moved_note"], "movedEndNote": w["mosque.moved_end_note"],
                  # issue 33: the warnings on declared times (the view behind each), the preview's marks
                  "warnContested": b["warn_contested"], "warnOutside": b["warn_outside"], "moreDays": b["more_days"],
                  "viewJumuah": b["view_jumuah"], "viewRakaat": b["view_rakaat"], "keptNote": w["mosque.kept_note"],
                  "skippedNote": w["mosque.skipped_note"], "fadhilaNote": w["mosque.fadhila_note"],
                  "linkNew": b["link_new"], "linkRevoke": b["link_revoke"], "linkYours": b["link_yours"],
                  "linkRevoked": b["link_revoked"], "rotated": b["rotated"], "contestedNote": b["contested_note"],
                  # issue 36: a printed table named as what it is, the summer and Ramadan rows, the draft, the link
                  "printedBy": {m: b[f"printed.{m}"] for m in METHODS if f"printed.{m}" in b},
                  "kindWith": b["kind_with"], "draftRestored": b["draft_restored"], "linkCut": b["link_cut"]},
        "limits": {"name": mosques.MAX_NAME_CHARS, "announcement": mosques.MAX_ANNOUNCEMENT_CHARS},
        "qrPath": QR_PATH,
        # An API error said in the page's language: its code's sentence, the names of the times it names and
        # the list comma (generator/words/error_words.py, which says the same on the 400 pages).
        "errors": {"sentences": error_words.script_table(lang), "names": error_words.TIME_NAMES[lang],
                   "comma": error_words.LIST_COMMA[lang]},
    }
    return render_localised_page(
        "builder.html.j2", lang, b=b, p=words.PAGE_WORDS[lang],
        **head.page_head(lang, b["title"], b["description"], urls.builder_url),
        language_names=words.LANGUAGE_NAMES, prayers=[{"id": p, "name": prayer_names[p],
                                                       "partner": PARTNERS.get(p),
                                                       "partner_name": prayer_names.get(PARTNERS.get(p, ""), "")}
                                                      for p in PRAYERS],
        methods=[{"id": m["id"], "label": m["label"][lang], "default": m["default"]} for m in methods],
        reckonings=[{"id": c, "label": words.CALENDAR_LABELS[lang][c]} for c in hijri.CALENDARS],
        adjustments=[_field(name, lang) for name in ADJUSTMENTS],
        more_rules=[_field(name, lang) for name in MORE_RULES],
        jumuah=_field("jumuah", lang), eid=_field("eid", lang), jumuah_dst=_field("jumuahDst", lang), outside=_field("jamaatOutside", lang),
        table=_field("jamaatTable", lang),
        point=[_field(name, lang) for name in ("lat", "lng", "tz")],
        website_label=b["website"].format(example=words.isolate("https://…", lang)),
        weekdays=[{"id": d, "name": hijri_names.WEEKDAYS[lang][k]} for k, d in enumerate(WEEKDAYS)],
        round_minutes=[{"value": n, "label": minutes[n]} for n in ROUND_MINUTES],
        alarm_minutes=[{"value": n, "label": minutes[n]} for n in ALARM_MINUTES],
        feed_times=[{"id": t, "name": words.TIME_NAMES[lang][t], "checked": t in feed_options.FIVE} for t in FEED_TIMES],
        screen_minutes=mosques.SCREEN_MINUTES, screen_seconds=mosques.SCREEN_SECONDS, qr_targets=mosques.QR_TARGETS,
        limits={"name": mosques.MAX_NAME_CHARS, "announcement": mosques.MAX_ANNOUNCEMENT_CHARS,
                "slide": announcements.MAX_SLIDE_CHARS, "announcements": announcements.MAX_ITEMS,
                "address": mosques.MAX_ADDRESS_CHARS, "url": mosques.MAX_URL_CHARS,
                "source": mosques.MAX_SOURCE_CHARS, "duration": (feed_options.MIN_DURATION_MIN,
                                                                  feed_options.MAX_DURATION_MIN),
                "default_duration": feed_options.DEFAULT_DURATION_MIN},
        config=Markup(orjson.dumps(config).decode().replace("<", "\\u003c")),
    )


# --- the QR codes of the outputs -----------------------------------------------------------------------------------

def qr_parse(items, now_s: float, host: str | None = None) -> str:
    """Check ``/qr.svg?text=<address>``: one address of this service's screens, pages or feeds (`QR_PATHS`) on
    PUBLIC_ORIGIN's host or ``host`` (the request's Host), at most `QR_MAX_CHARS` characters, with no fragment, no
    control character and no dot segment (`BadPageQuery` names ``text``)."""
    items = list(items)
    try:
        names = [name for name, _ in items]
        unknown = [name for name in names if name != "text"]
        if unknown:
            raise QueryError(unknown[0][:40], "unknown parameter; the QR code takes text only")
        if names.count("text") != 1:
            raise QueryError("text", "give the address once")
        text = items[0][1]
        if len(text) > QR_MAX_CHARS:
            raise QueryError("text", f"at most {QR_MAX_CHARS} characters")
        parts = _split(text)
        if (parts is None or parts.scheme not in QR_SCHEMES or not _is_host(parts.netloc)
                or parts.fragment or "#" in text or not parts.path.startswith(QR_PATHS) or _dot_segments(parts.path)):
            raise QueryError("text", "an address of this service's screen, widget, pages or feeds "
                                     "(http, https or webcal; no fragment, no . or .. segment)")
        if parts.netloc not in _own_hosts(host):
            raise QueryError("text", f"an address on this service's own host ({urls.PUBLIC_ORIGIN.split('://')[1]}"
                                     f"{' or ' + host[:100] if host else ''})")
    except QueryError as error:
        raise BadPageQuery(words.DEFAULT_LANGUAGE, str(error)) from None
    return text


def _split(text: str):
    """``urlsplit(text)``, or None for a control character or what it cannot read (`https://[zz]/`: ValueError)."""
    if _CONTROL.search(text):
        return None
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 -- reads the port: ValueError when out of range
    except ValueError:
        return None
    return parts


def _dot_segments(path: str) -> bool:
    """Whether a path has a ``.`` or ``..`` segment, percent-encoded or not, or a backslash (read as a slash)."""
    decoded = unquote(path)
    return "\\" in decoded or any(segment in (".", "..") for segment in decoded.split("/"))


def _own_hosts(host: str | None) -> set[str]:
    """The host[:port]s this service answers as: PUBLIC_ORIGIN's, and ``host`` (the request's) when given."""
    own = {urls.PUBLIC_ORIGIN.split("://", 1)[1]}
    if host:
        own.add(host.strip().lower())
    return own


def _is_host(netloc: str) -> bool:
    """Whether ``netloc`` is a host[:port] as the site's own origin is written (`urls.public_origin`'s reader)."""
    try:
        urls.public_origin(f"https://{netloc}")
    except ValueError:
        return False
    return True


def qr_render(text: str, today: date) -> bytes:
    """The SVG of the QR code of ``text`` (the screen's own drawing: segno, level M, its quiet zone)."""
    from generator.site import screen

    return ('<?xml version="1.0" encoding="UTF-8"?>\n' + str(screen.qr_svg(text))).encode("utf-8")
