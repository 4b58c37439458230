"""A hostile sweep of the surfaces added since the outside run of 28 November (issue 34's sweep, second run).

Usage (from the checkout; starts its own app on PORT with limits off and a fresh SQLite profile store)::

    .venv-test/bin/python -m bench.sweep_new_surfaces PORT N_PER_SURFACE [SEED] [SCRATCH] [SURFACE,...]

Surfaces: the new reckonings (``calendar=azerbaijan|cssna-east|cssna-west|lebanon``) on /v1/hijri, /v1/events,
/v1/day-status and the calendar feeds; the city pages of Baku, Los Angeles, Toronto and Beirut;
``method=CaucasianMuslimsBoard``; /v1/day-status with tz/city/lat/lng/offset; the Aladhan door
(/compat/aladhan/v1/*) with hostile values; /v1/cities?lat&lng; X-API-Key headers; a hosted mosque's month
pages (/mosque/<id>/<lang>/<YYYY-MM>/) and its imsakiya with hostile months and years.

Counts the statuses per surface and keeps every 5xx (and every connection error) with its request; the
app's log is scanned for tracebacks.  Writes SCRATCH/results/sweep_new_surfaces_<seed>.json.
Every process started here is stopped by its own pid."""
from __future__ import annotations

import collections
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path

import requests

CHECKOUT = Path(__file__).resolve().parent.parent
port, N = int(sys.argv[1]), int(sys.argv[2])
seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1128
scratch = Path(sys.argv[4] if len(sys.argv) > 4 else f"/tmp/sweep_new_surfaces_{port}")
(scratch / "results").mkdir(parents=True, exist_ok=True)
db = scratch / "profiles.sqlite3"
for suffix in ("", "-wal", "-shm"):
    Path(str(db) + suffix).unlink(missing_ok=True)
keys_path = scratch / "app_keys.json"
keys_path.unlink(missing_ok=True)
issued = subprocess.run([str(CHECKOUT / ".venv" / "bin" / "python"), "-m", "runtime.keys", "--path", str(keys_path),
                         "issue", "--name", "sweep", "--budget", "0"], cwd=CHECKOUT, capture_output=True, text=True,
                        check=True)
APP_KEY = issued.stdout.split()[-1] if issued.stdout.split() else ""
log = scratch / "server.log"
env = {**os.environ, "RATE_LIMIT_PER_MINUTE": "0", "HOSTED_CREATES_PER_HOUR": "0", "HOSTED_EDITS_PER_HOUR": "0",
       "MOSQUE_DB_PATH": str(db), "APP_KEYS_PATH": str(keys_path)}
server = subprocess.Popen([str(CHECKOUT / ".venv" / "bin" / "uvicorn"), "runtime.app:app", "--host", "127.0.0.1",
                           "--port", str(port), "--loop", "uvloop", "--http",
                           "runtime.http_protocol:BoundedHttpToolsProtocol", "--no-proxy-headers",
                           "--no-access-log"], cwd=CHECKOUT, env=env, stdout=open(log, "wb"), stderr=subprocess.STDOUT)
B = f"http://127.0.0.1:{port}"
for _ in range(600):
    try:
        if requests.get(B + "/v1/qibla?lat=1&lng=1", timeout=2).status_code == 200:
            break
    except requests.RequestException:
        time.sleep(0.2)
else:
    server.kill()
    sys.exit("the app did not start")

HOSTILE = ["", " ", "0", "-1", "1e9", "NaN", "inf", "٣", "１２", "a" * 201, "\x00", "../../etc/passwd",
           "<script>alert(1)</script>", "' OR '1'='1", "{{7*7}}", "🕌", "\u202e", "\r\nX: y", ",", ";", "true",
           "null", "[]", "2026-02-30", "2026-13-01", "9999-12-31", "0000-01-01", "-0001-01-01", "1-1-1",
           "99999999999999999999", "1e400", "-99999", "+5", "0x10", "1_000", "\ufeff1"]
RECKONINGS = ["azerbaijan", "cssna-east", "cssna-west", "lebanon"]
CITIES = ["baku", "los-angeles", "toronto", "beirut"]
LANGS = ["en", "ar", "fa", "ur"]


def pick(r, good, hostile_share=0.12):
    return r.choice(HOSTILE) if r.random() < hostile_share else r.choice(good)


def rnd_date(r):
    return pick(r, ["2026-11-28", "2026-03-10", "2027-02-08", "2030-01-01", "1900-03-01", "2100-12-31",
                    "2101-01-01", "1899-12-31", "2026-02-28", "2026-06-21", "2026-12-21", "2027-03-28"])


stats = collections.defaultdict(collections.Counter)
failures = []
lock = threading.Lock()


def send(sess, surface, method, path, **kw):
    try:
        resp = sess.request(method, B + path, timeout=120, allow_redirects=False, **kw)
    except requests.RequestException as error:
        with lock:
            stats[surface][f"exc:{type(error).__name__}"] += 1
            failures.append({"surface": surface, "method": method, "url": path[:500], "status": str(error)[:200]})
        return None
    with lock:
        stats[surface][resp.status_code] += 1
        if resp.status_code >= 500:
            failures.append({"surface": surface, "method": method, "url": path[:500], "status": resp.status_code,
                             "body": resp.text[:200]})
    return resp


def query(items):
    return urllib.parse.urlencode(items)


def hijri_surface(r, sess):
    items = [("calendar", pick(r, RECKONINGS, 0.1))]
    k = r.random()
    if k < 0.4:
        items.append(("date", rnd_date(r)))
    elif k < 0.7:
        items += [("hy", pick(r, ["1447", "1448", "1449", "1300", "1500", "1343", "1501"])),
                  ("hm", pick(r, [str(m) for m in range(1, 13)] + ["13", "0"])),
                  ("hd", pick(r, ["1", "29", "30", "31"]))]
    else:
        items += [("year", pick(r, ["2026", "2027", "1900", "2100"])), ("month", pick(r, ["1", "3", "12", "13"]))]
    if r.random() < 0.3:
        items.append(("offset", pick(r, ["-2", "-1", "0", "1", "2", "3"])))
    send(sess, "hijri", r.choice(["GET", "GET", "HEAD"]), "/v1/hijri?" + query(items))


def events_surface(r, sess):
    items = [("calendar", pick(r, RECKONINGS, 0.1))]
    for name in r.sample(["hy", "upcoming", "offset", "lang", "date", "type", "x"], r.randint(0, 3)):
        items.append((name, pick(r, {"hy": ["1447", "1448", "1300", "1501"], "upcoming": ["1", "5", "73", "74", "0"],
                                     "offset": ["-2", "2", "3"], "lang": LANGS + ["xx"],
                                     "date": ["2026-11-28", "2100-12-31"], "type": ["major", "x"],
                                     "x": ["1"]}[name])))
    send(sess, "events", "GET", "/v1/events?" + query(items))


def day_status_surface(r, sess):
    items = [("date", rnd_date(r))] if r.random() < 0.7 else []
    k = r.random()
    if k < 0.3:
        items.append(("city", pick(r, CITIES + ["tehran", "apia", "x"])))
    elif k < 0.6:
        items += [("lat", pick(r, ["40.4", "34.05", "-89.9", "89.9", "90", "91", "69.65", "78.2"])),
                  ("lng", pick(r, ["49.87", "-118.24", "180", "-180", "181", "0"]))]
        if r.random() < 0.5:
            items.append(("tz", pick(r, ["Asia/Baku", "America/Los_Angeles", "auto", "UTC", "Etc/GMT+12",
                                         "Pacific/Kiritimati", "x/../y"])))
    elif k < 0.8:
        items.append(("tz", pick(r, ["Asia/Beirut", "America/Toronto", "Pacific/Apia", "Etc/GMT-14", "localtime"])))
    if r.random() < 0.5:
        items.append(("calendar", pick(r, RECKONINGS)))
    if r.random() < 0.4:
        items.append(("method", pick(r, ["CaucasianMuslimsBoard", "Jafari", "Tehran", "ISNA", "x"])))
    if r.random() < 0.4:
        items.append(("offset", pick(r, ["-2", "-1", "0", "1", "2"])))
    if r.random() < 0.2:
        items.append(("lang", pick(r, LANGS)))
    send(sess, "day-status", r.choice(["GET", "GET", "HEAD"]), "/v1/day-status?" + query(items))


def feeds_surface(r, sess):
    path = r.choice(["/v1/events.ics", "/v1/fasting.ics", "/v1/prayer-times.ics", "/v1/night.ics",
                     "/v1/prayer-times.csv", "/v1/prayer-times"])
    items = []
    if "events" in path or "fasting" in path:
        items.append(("calendar", pick(r, RECKONINGS, 0.15)))
        if r.random() < 0.5:
            items.append(("lang", pick(r, LANGS + ["xx"])))
    else:
        items.append(("city", pick(r, CITIES, 0.1)) if r.random() < 0.6 else ("lat", pick(r, ["40.4", "91"])))
        if items[0][0] == "lat":
            items.append(("lng", pick(r, ["49.8", "-118.2", "181"])))
            items.append(("tz", pick(r, ["Asia/Baku", "auto", "America/Los_Angeles"])))
        items.append(("method", pick(r, ["CaucasianMuslimsBoard", "Jafari", "ISNA", "MWL"], 0.15)))
        for name in r.sample(["calendar", "days", "year", "month", "date", "lang", "midnight"], r.randint(0, 3)):
            items.append((name, pick(r, {"calendar": RECKONINGS, "days": ["1", "30", "366", "367"],
                                         "year": ["2026", "2100", "1900"], "month": ["2", "12", "13"],
                                         "date": ["2026-11-28", "2100-12-31"], "lang": LANGS,
                                         "midnight": ["standard", "jafari", "x"]}[name])))
    send(sess, "feeds", "GET", path + "?" + query(items))


def city_pages_surface(r, sess):
    city = pick(r, CITIES, 0.1)
    lang = pick(r, LANGS, 0.1)
    tail = r.choice(["", f"{lang}/", f"{lang}/imsakiya/", f"{lang}/imsakiya/{pick(r, RECKONINGS)}/",
                     f"{lang}/imsakiya/{pick(r, RECKONINGS)}/{pick(r, ['CaucasianMuslimsBoard', 'ISNA', 'Jafari'])}/",
                     f"{lang}/{pick(r, ['CaucasianMuslimsBoard', 'Jafari', 'ISNA'])}/",
                     f"{lang}/{pick(r, ['CaucasianMuslimsBoard', 'Jafari'])}/{pick(r, ['2026-11', '2027-02', '2100-12', '2101-01', '1899-12', '2026-00', '2026-13', '99999-01'])}/"])
    extra = "" if r.random() < 0.7 else "?" + query([(r.choice(["calendar", "lang", "x", "hy"]), r.choice(HOSTILE))])
    send(sess, "city-pages", r.choice(["GET", "GET", "HEAD"]),
         "/city/" + urllib.parse.quote(city, safe="") + "/" + urllib.parse.quote(tail, safe="/") + extra)


ALADHAN = {
    "latitude": ["40.4093", "34.05", "90", "91", "-91", "1e400", "nan"], "longitude": ["49.8671", "-118.24", "181"],
    "method": [str(n) for n in range(0, 25)] + ["99", "-1"], "school": ["0", "1", "2"],
    "tune": ["0,0,0,0,0,0,0,0,0", "1,2,3", "999999,0,0,0,0,0,0,0,0", "a,b", ",,,,,,,,"],
    "adjustment": ["-2", "0", "2", "30", "-99999999"], "calendarMethod": RECKONINGS + ["HJCoSA", "UAQ", "DIYANET",
                                                                                         "MATHEMATICAL"],
    "timezonestring": ["Asia/Baku", "America/Los_Angeles", "Europe/Nowhere", "../../etc"],
    "methodSettings": ["18,null,17", "18,1 min,90 min", "x,y,z", "18", "null,null,null", "99,99,99"],
    "latitudeAdjustmentMethod": ["1", "2", "3", "4"], "midnightMode": ["0", "1", "2"], "iso8601": ["true", "x"],
    "city": ["Baku", "Los Angeles", "Toronto", "Beirut", "x"], "country": ["AZ", "US", "CA", "LB", "Azerbaijan", "xx"],
    "year": ["2026", "2100", "2101", "1899", "1447", "99999"], "month": ["1", "12", "13", "0"],
    "date": ["28-11-2026", "01-09-1448", "31-02-2026", "2026-11-28", "1-1-1"], "shafaq": ["general", "ahmer", "x"],
    "annual": ["true", "false"], "x": ["1"],
}


ALADHAN_VALID = {  # each endpoint with a valid query; the sweep then spoils or adds one or two parameters
    "timings/28-11-2026": {"latitude": "40.4093", "longitude": "49.8671", "method": "0"},
    "timings": {"latitude": "34.0522", "longitude": "-118.2437", "method": "2", "date": "28-11-2026"},
    "timingsByCity/01-03-2027": {"city": "Baku", "country": "AZ", "method": "7"},
    "timingsByCity": {"city": "Los Angeles", "country": "US", "method": "2"},
    "calendar/2026/11": {"latitude": "43.6532", "longitude": "-79.3832", "method": "2"},
    "calendar": {"latitude": "33.8938", "longitude": "35.5018", "method": "0", "year": "2027", "month": "3"},
    "calendarByCity/2027/2": {"city": "Beirut", "country": "LB", "method": "0"},
    "hijriCalendar/1448/9": {"latitude": "40.4093", "longitude": "49.8671", "method": "7"},
    "gToH/28-11-2026": {}, "gToH": {"date": "28-11-2026"}, "hToG/01-09-1448": {}, "hToG": {"date": "01-09-1448"},
    "methods": {},
}


def aladhan_surface(r, sess):
    endpoint = r.choice(list(ALADHAN_VALID))
    items = dict(ALADHAN_VALID[endpoint])
    if r.random() < 0.5:
        items["calendarMethod"] = r.choice(RECKONINGS)
    for name in r.sample(list(ALADHAN), r.choice([0, 1, 1, 2])):
        items[name] = pick(r, ALADHAN[name], 0.3)
    if r.random() < 0.15:  # a hostile path part
        endpoint = endpoint.split("/")[0] + "/" + r.choice(HOSTILE + ["31-02-2026", "01-13-1448", "1796083200",
                                                                      "99999999999999", "2101/1", "1501/13"])
    send(sess, "aladhan", r.choice(["GET", "GET", "HEAD"]), "/compat/aladhan/v1/" +
         urllib.parse.quote(endpoint, safe="/") + "?" + query(list(items.items())))


def cities_surface(r, sess):
    items = []
    if r.random() < 0.85:
        items += [("lat", pick(r, ["40.4", "34.05", "90", "-90", "89.99", "0", "-33.87"])),
                  ("lng", pick(r, ["49.87", "-118.24", "180", "-180", "179.99", "0", "151.2"]))]
    for name in r.sample(["q", "limit", "all", "lang"], r.choice([0, 0, 1, 2])):
        items.append((name, pick(r, {"q": ["baku", "کربلا", "los"], "limit": ["1", "5", "50", "51"], "all": ["1"],
                                     "lang": LANGS}[name])))
    if r.random() < 0.05:
        items.append(items[0] if items else ("lat", "1"))
    send(sess, "cities", "GET", "/v1/cities?" + query(items))


def api_key_surface(r, sess):
    key = r.choice([APP_KEY, APP_KEY, APP_KEY, "stk_" + "a" * 43, "", "a b", "x" * 101, "x" * 5000, APP_KEY + "\tx",
                    "stk_\u00e9", APP_KEY.upper(), "Bearer " + APP_KEY, APP_KEY + "," + APP_KEY])
    path = r.choice(["/v1/qibla?lat=40.4&lng=49.8", "/v1/hijri?calendar=azerbaijan",
                     "/v1/prayer-times?city=baku&method=CaucasianMuslimsBoard",
                     "/v1/day-status?city=los-angeles&calendar=cssna-west", "/compat/aladhan/v1/timingsByCity?city=Baku&country=AZ",
                     "/city/beirut/", "/v1/mosques", "/healthz", "/v1/openapi.json"])
    headers = {"X-API-Key": key.encode("latin-1", "replace").decode("latin-1")}
    if r.random() < 0.1:
        headers["x-api-key".upper()] = key[:10]
    send(sess, "x-api-key", r.choice(["GET", "GET", "HEAD"]), path, headers=headers)


hosted = []


def hosted_pages_surface(r, sess):
    mid = r.choice(hosted + ["jaffari-toronto", "new", "zz", ".."])
    month = pick(r, ["2026-11", "2027-02", "2026-06", "2026-12", "2027-03", "2026-1", "2026-011", "2100-12", "2101-01", "1899-12", "0000-01",
                     "9999-12", "2026-00", "2026-13", "99999-01", "imsakiya", "２０２６-１１", "2026–11"], 0.4)
    hy = pick(r, ["1447", "1448", "1449", "1450", "1460", "1300", "1501", "0", "99999999999999999999", "-1447"], 0.3)
    lang = pick(r, LANGS, 0.1)
    tail = r.choice([f"{month}/", f"imsakiya/", f"imsakiya/{hy}/", f"{month}", f"imsakiya/{hy}/x/"])
    send(sess, "mosque-months", r.choice(["GET", "GET", "HEAD"]),
         f"/mosque/{urllib.parse.quote(mid, safe='')}/{urllib.parse.quote(lang, safe='')}/"
         + urllib.parse.quote(tail, safe="/"))


profile_template = {"names": {"en": "Sweep Mosque"}, "times": {"method": "Jafari"},
                    "jamaat": {"jamaat": "fajr:20,maghrib:5"}, "languages": ["en", "ar"],
                    "sources": [{"about": "sweep", "read": "2026-11-28"}]}
for city, method, reckoning in (("baku", "CaucasianMuslimsBoard", "azerbaijan"), ("los-angeles", "Jafari", "cssna-west"),
                                ("toronto", "NorthAmerica", "cssna-east"), ("beirut", "Jafari", "lebanon"),
                                ({"lat": 78.22, "lng": 15.65, "tz": "Arctic/Longyearbyen"}, "CaucasianMuslimsBoard",
                                 "azerbaijan"),
                                ({"lat": -54.8, "lng": -68.3, "tz": "America/Argentina/Ushuaia"}, "NorthAmerica",
                                 "cssna-west")):
    place = city if isinstance(city, dict) else {"city": city}
    body = {**profile_template, "place": place, "times": {"method": method}, "reckoning": reckoning}
    created = requests.post(B + "/v1/mosques", data=json.dumps(body), headers={"Content-Type": "application/json"},
                            timeout=60)
    if created.status_code != 201:
        print("profile refused:", city, created.status_code, created.text[:300], flush=True)
        continue
    hosted.append(created.json()["id"])

SURFACES = {"hijri": hijri_surface, "events": events_surface, "day-status": day_status_surface,
            "feeds": feeds_surface, "city-pages": city_pages_surface, "aladhan": aladhan_surface,
            "cities": cities_surface, "x-api-key": api_key_surface, "mosque-months": hosted_pages_surface}
only = sys.argv[5] if len(sys.argv) > 5 else ""  # a comma-separated subset of SURFACES
started = time.monotonic()
try:
    for name, surface in SURFACES.items():
        if only and name not in only.split(","):
            continue
        t0 = time.monotonic()

        def worker(w, name=name, surface=surface):
            r = random.Random(f"{seed}-{name}-{w}")
            sess = requests.Session()
            for _ in range(N // 4):
                surface(r, sess)
        threads = [threading.Thread(target=worker, args=(w,)) for w in range(4)]
        [t.start() for t in threads]
        [t.join() for t in threads]
        print(f"{name:14} {sum(stats[name].values()):6} requests in {time.monotonic() - t0:6.1f} s  "
              f"{dict(sorted((str(k), v) for k, v in stats[name].items()))}", flush=True)
finally:
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(20)
    except subprocess.TimeoutExpired:
        server.kill()
text = log.read_text(errors="replace")
summary = {"seed": seed, "requests": sum(sum(c.values()) for c in stats.values()),
           "seconds": round(time.monotonic() - started), "hosted": hosted,
           "by_surface": {k: {str(s): n for s, n in v.items()} for k, v in stats.items()},
           "5xx_or_connection_errors": len(failures), "failures": failures[:60],
           "log_tracebacks": text.count("Traceback")}
(scratch / "results" / f"sweep_new_surfaces_{seed}.json").write_text(json.dumps(summary, indent=1, ensure_ascii=False))
print(json.dumps({k: v for k, v in summary.items() if k != "by_surface"}, indent=1, ensure_ascii=False)[:6000])
