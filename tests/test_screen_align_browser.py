"""The screen's table as Chromium draws it, measured (tests/peers/screen_align.js, one browser session).

Issue 36 (the mosque trial of 2026-11-28, `t2_tvur_land_zoom_table.png`): on the Urdu screen the times stood
left-aligned under right-aligned headings (~200 px from their "اذان" and "جماعت"), Nastaliq labels overflowed
their rows, and the countdown sat at the wrong side of its panel.  The reference here is geometry, not our code:
the rectangle a Range gives for each drawn text (the browser's layout, independent of the stylesheet's intent):

* each time's text box lies under its column heading's text box (they overlap horizontally) and both are aligned
  to the same side of their cells (the gaps to the cell's left and right edges compared: start, centre or end);
* no prayer name is wider than its cell (scrollWidth <= clientWidth) nor drawn above or below its row: the ink of its
  glyphs (the canvas's measure of the text in the cell's own font, placed on the line's baseline) inside the row;
* in a right-to-left screen the countdown's figures end at the same (right) edge as its label;

in Urdu, Arabic and Persian (and English, the left-to-right control) at 1920×1080 and 1080×1920, on a Friday with
three Jumu'ah slots; and the same on bilingual screens (Urdu with English, English with Urdu, Arabic with English:
issue 36), whose rows name each prayer in both languages and whose sentences take turns.  These checks fail on the stylesheet before issue 36 (times aligned to the other side than
their headings; the countdown's figures at the left).  Screenshots in test-artifacts/screen-align/.
"""
from __future__ import annotations

import shutil
import urllib.parse
from datetime import datetime, timezone
from pathlib import Path

import pytest

from conftest import browser_app_server, run_node_peer

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "screen-align"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
VIEWPORTS = ((1920, 1080), (1080, 1920))
CITY = {"en": "london", "ar": "karbala", "fa": "tehran", "ur": "karachi"}
# Bilingual screens (issue 36): the first language's page with the second's names beside, sentences by turns.
PAIRS = {"ur+en": ("karachi", "ur", "en"), "en+ur": ("karachi", "en", "ur"), "ar+en": ("karbala", "ar", "en")}
TURN_MS = 16000  # docs/site.md "Two languages": each language's turn of the sentences
RULES = {"jamaat": "fajr:15,dhuhr:13:30,asr:dhuhr,maghrib:10,isha:maghrib", "jumuah": "13:00,13:45,14:30"}
FRIDAY_NOON_UTC = int(datetime(2026, 4, 3, 10, 0, tzinfo=timezone.utc).timestamp() * 1000)  # 3 April 2026: a Friday
ALIGN_PX = 2.0  # text centred, started or ended alike: their gaps agree within this
EDGE_PX = 4.0  # the countdown's figures end at its label's edge within this (a glyph's side bearing)
pytestmark = pytest.mark.xdist_group("browser-screen_align_browser")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from browser_app_server(tmp_path_factory, CHROMIUM)


@pytest.fixture(scope="module")
def measured(server):
    pages = [{"name": lang, "url": "/screen/?" + urllib.parse.urlencode({"city": CITY[lang], **RULES, "lang": lang}),
              "start": FRIDAY_NOON_UTC, "viewports": [list(v) for v in VIEWPORTS]} for lang in CITY]
    pages += [{"name": name, "url": "/screen/?" + urllib.parse.urlencode({"city": city, **RULES, "lang": lang,
                                                                         "lang2": lang2}),
               "start": FRIDAY_NOON_UTC, "viewports": [list(v) for v in VIEWPORTS], "turns": [TURN_MS]}
              for name, (city, lang, lang2) in PAIRS.items()]
    out = run_node_peer("screen_align.js", "playwright-core",
                        {"base": server, "chromium": CHROMIUM, "artifacts": str(ARTIFACTS), "pages": pages})
    return {page["name"]: page for page in out["pages"]}


def _side(text: dict, cell: dict) -> str:
    """Which side of its cell a text is aligned to: the gap to each edge compared."""
    left, right = text["left"] - cell["left"], cell["right"] - text["right"]
    if abs(left - right) <= ALIGN_PX:
        return "centre"
    return "left" if left < right else "right"


@pytest.mark.parametrize("lang", (*CITY, *PAIRS))
def test_each_time_stands_under_its_heading_aligned_alike(measured, lang):
    page = measured[lang]
    assert page["status"] == 200 and page["ready"] and not page["errors"], page
    for read in page["reads"]:
        assert read["dir"] == ("ltr" if lang.startswith("en") else "rtl")
        heads = read["columns"]
        assert len(heads) == 3 and all(h["visible"] for h in heads), heads
        timed = [r for r in read["rows"] if len(r["cells"]) == 3]  # the prayers' rows: name, adhan, jamaat
        assert len(timed) >= 6, read["rows"]
        for row in timed:
            for column in (1, 2):
                head, cell = heads[column], row["cells"][column]
                if not cell["text"]:
                    continue
                where = f"{lang} {read['viewport']} {row['id']} column {column}"
                overlap = min(head["box"]["right"], cell["box"]["right"]) - max(head["box"]["left"], cell["box"]["left"])
                assert overlap > 0, (where, head["box"], cell["box"])
                assert _side(cell["box"], cell["cell"]) == _side(head["box"], head["cell"]), (where, head, cell)


@pytest.mark.parametrize("lang", (*CITY, *PAIRS))
def test_no_prayer_name_overflows_its_row(measured, lang):
    for read in measured[lang]["reads"]:
        for row in read["rows"]:
            name = row["cells"][0]
            where = f"{lang} {read['viewport']} {row['id']} {name['text']!r}"
            assert name["scrollWidth"] <= name["clientWidth"], where
            edge = row["row"]
            # each language's name measured in its own font (a bilingual row), else the cell's text
            for ink in [part["ink"] for part in name["parts"]] or [name["ink"]]:
                assert ink["top"] >= edge["top"] - 0.5 and ink["bottom"] <= edge["bottom"] + 0.5, (where, ink, edge)
            assert name["box"]["left"] >= edge["left"] - 0.5 and name["box"]["right"] <= edge["right"] + 0.5, where
        assert read["bottom"] <= read["height"] + 0.5, (lang, read["viewport"])  # nothing below the screen


@pytest.mark.parametrize("lang", ("ar", "fa", "ur", "ur+en", "ar+en"))
def test_the_countdown_stands_at_the_start_side_of_a_right_to_left_screen(measured, lang):
    for read in measured[lang]["reads"]:
        countdown = read["countdown"]
        assert countdown and countdown["label"] and countdown["value"], read
        label, value = countdown["label"]["box"], countdown["value"]["box"]
        if read["sideLang"] == "en":  # a bilingual screen's English turn: left to right, both at the left
            assert abs(label["left"] - value["left"]) <= EDGE_PX, (lang, read["viewport"], label, value)
            continue
        assert abs(label["right"] - value["right"]) <= EDGE_PX, (lang, read["viewport"], label, value)
        assert value["right"] >= read["side"]["right"] - EDGE_PX, (lang, read["viewport"], value, read["side"])


def _script(text: str) -> str:
    """The script of a text's letters: "latin", "arabic" (Arabic, Persian and Urdu letters), or "mixed"."""
    letters = [c for c in text if c.isalpha()]
    latin = sum(c.isascii() for c in letters)
    return "latin" if latin == len(letters) else "arabic" if latin == 0 else "mixed"


@pytest.mark.parametrize("pair", tuple(PAIRS))
def test_a_bilingual_screen_names_each_prayer_in_both_and_its_sentences_take_turns(measured, pair):
    """Both languages on one screen: every prayer's row carries its name in each language (each in its own script),
    and the side's sentences (the date, the countdown's label) are written in one language, then, a turn later, in
    the other."""
    _, lang, lang2 = PAIRS[pair]
    script = {"en": "latin", "ar": "arabic", "ur": "arabic"}
    page = measured[pair]
    assert page["status"] == 200 and not page["errors"], page
    for read in page["reads"]:
        for row in read["rows"]:
            parts = row["cells"][0]["parts"]
            assert [p["lang"] for p in parts] == [lang, lang2], (pair, row["id"], parts)
            assert [_script(p["text"]) for p in parts] == [script[lang], script[lang2]], (pair, row["id"], parts)
            # the second name smaller than the first: the first language leads
            assert parts[1]["fontSize"] < parts[0]["fontSize"]
    for viewport in VIEWPORTS:
        reads = [r for r in page["reads"] if tuple(r["viewport"]) == viewport]
        assert sorted(r["sideLang"] for r in reads) == sorted((lang, lang2)), (pair, viewport)
        for read in reads:
            label = read["countdown"]["label"]
            assert _script(label["text"]) == script[read["sideLang"]], (pair, viewport, label)
            assert _script(read["gregorian"]["text"]) == script[read["sideLang"]], (pair, viewport, read["gregorian"])
