"""Lighthouse over the site's pages, mobile and desktop (issue 21): every category ≥ 95.

The pages of `AUDITED_PAGES` (the one list to extend: a mosque's screen, a widget) are served as in
production, nginx (deploy/nginx.conf, compressing on the fly)
in front of the app, on loopback, with ``PUBLIC_ORIGIN`` set to that front so canonical URLs and
the sitemap name the audited origin.  No page is pre-rendered: every page is the app's render.  The
day-status answers of this year and the next are pre-rendered (`build.py --only day-status`, 4 s),
as every deployment has them: a screen reads 32 of them at once, and with none on disk nginx's
limit on dynamic requests answered some with 429, which a deployment never shows.
Without nginx (`make system-packages` installs it) the app is audited alone and the report says so.

Lighthouse is npm ``lighthouse`` pinned in tests/peers/package.json, run by
tests/peers/lighthouse_run.js in Debian's Chromium (/usr/bin/chromium; nothing is downloaded):
performance, accessibility, best practices and SEO; mobile is Lighthouse's default profile (a
mid-range phone: 4× CPU slowdown, slow 4G, simulated), desktop its desktop-config.  Runs are one
at a time, as Lighthouse requires.  Performance depends on the machine's load (its tasks' times
are measured, then scaled): a performance score under the goal is re-run twice more and the
median of the three is reported, as Lighthouse's own guidance on variability advises.
Accessibility, best practices and SEO do not depend on timing and run once.

Run: ``python -m bench.lighthouse`` (or ``make bench``).  Exit status 1 when a score is under
`GOAL`.  Reports (HTML) are saved in test-artifacts/lighthouse/.  About 10–20 s per run.
"""
from __future__ import annotations

import datetime
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from deploy import local_stack

ROOT = Path(__file__).resolve().parent.parent
PEERS = ROOT / "tests" / "peers"
ARTIFACTS = ROOT / "test-artifacts" / "lighthouse"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
GOAL = 95
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
FORM_FACTORS = ("mobile", "desktop")
PERFORMANCE_RUNS = 3  # when the first performance score is under the goal: the median of three
# Lighthouse's benchmark index (its measure of the CPU at run time; ~1,800 on this 2-core machine idle):
# under 1,000 Lighthouse itself warns that performance results are less reliable
BUSY_BENCHMARK_INDEX = 1000
AUDITED_PAGES = (  # (name, path): the one list to extend
    ("home", "/"),
    ("city", "/city/london/"),
    ("city-ar", "/city/karbala/ar/"),
    ("screen", "/screen/?city=london&jamaat=fajr:20,dhuhr:13:30,asr:dhuhr,maghrib:5,isha:maghrib"),
    ("widget", "/widget/?city=karbala&lang=ar"),
    ("mosque", "/mosque/jaffari-toronto/"),  # a mosque's page (issue 20)
    ("city-ur", "/city/karachi/ur/"),  # a place's own reckoning first (issue 26)
    ("screen-ur", "/screen/?city=birmingham&lang=ur&jamaat=fajr:20,maghrib:5,isha:maghrib&jumuah=13:15,14:00"
                  "&qr=page&inPrayer=10"),  # the wall through the year: Jumu'ah slots, QR, in-prayer view (issue 28)
    ("builder", "/mosque/new/"),  # the mosque builder (issue 27)
    ("builder-fa", "/mosque/new/fa/"),
)


def lighthouse(pages: list[dict], form_factors: tuple[str, ...], categories: tuple[str, ...],
               artifacts: Path | None) -> list[dict]:
    """Run tests/peers/lighthouse_run.js; return its runs."""
    node = shutil.which("node")
    if node is None or not (PEERS / "node_modules" / "lighthouse").is_dir():
        sys.exit("lighthouse peer missing: run `make peers` (node 20 and npm ci in tests/peers)")
    payload = {"chromium": CHROMIUM, "artifacts": str(artifacts) if artifacts else None,
               "categories": list(categories), "formFactors": list(form_factors), "pages": pages}
    result = subprocess.run([node, str(PEERS / "lighthouse_run.js")], input=json.dumps(payload), capture_output=True,
                            text=True, check=True, timeout=120 * len(pages) * len(form_factors), cwd=PEERS)
    return json.loads(result.stdout)["runs"]


def audit(base: str) -> list[dict]:
    """Audit every page at both form factors; re-run performance under the goal (see the docstring)."""
    pages = [{"name": name, "url": base + path} for name, path in AUDITED_PAGES]
    runs = lighthouse(pages, FORM_FACTORS, CATEGORIES, ARTIFACTS)
    for run in runs:
        if run["error"]:  # a page Lighthouse could not load: every category fails
            run["scores"] = {category: 0 for category in CATEGORIES}
            run["failed"].append({"category": "-", "id": run["error"]["code"], "title": run["error"]["message"],
                                  "score": 0, "displayValue": ""})
        run["performance_runs"] = [run["scores"]["performance"]]
        if not run["error"] and run["scores"]["performance"] < GOAL:
            page = [{"name": run["name"], "url": run["url"]}]
            again = lighthouse(page * (PERFORMANCE_RUNS - 1), (run["formFactor"],), ("performance",), None)
            run["performance_runs"] += [r["scores"]["performance"] for r in again]
            run["scores"]["performance"] = statistics.median(run["performance_runs"])
    return runs


def main() -> int:
    if not Path(CHROMIUM).exists():
        sys.exit(f"no Chromium at {CHROMIUM}: run `make system-packages`")
    static_root = Path(tempfile.mkdtemp(prefix="lighthouse-static-"))  # no page: every page is rendered
    static_root.chmod(0o755)
    year = datetime.date.today().year
    subprocess.run([sys.executable, "build.py", "--only", "day-status", "--years", f"{year}-{year + 1}",
                    "--out", str(static_root)], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    app_port = local_stack.free_port()
    nginx = local_stack.nginx_binary()
    front_port = local_stack.free_port() if nginx else app_port
    base = f"http://127.0.0.1:{front_port}"
    app = local_stack.start_app(static_root, app_port, extra_env={"PUBLIC_ORIGIN": base})
    processes = [app]
    try:
        if nginx:
            prefix = Path(tempfile.mkdtemp(prefix="lighthouse-nginx-"))
            processes.append(local_stack.start_nginx(prefix, static_root, front_port, app_port))
        local_stack.wait_until_up(f"http://127.0.0.1:{app_port}/v1/methods", seconds=60)
        local_stack.wait_until_up(f"{base}/v1/methods")
        for _, path in AUDITED_PAGES:  # warm the app's caches: the audits measure pages, not first renders
            local_stack.wait_until_up(base + path)
        runs = audit(base)
    finally:
        local_stack.stop(*processes)
        shutil.rmtree(static_root, ignore_errors=True)
    print(f"Lighthouse {runs[0]['lighthouse']} in {CHROMIUM}, {'nginx in front of the app' if nginx else 'the app alone'}"
          f" (benchmark index of this machine: {runs[0]['benchmarkIndex']:.0f}); goal: every score >= {GOAL}")
    print(f"{'page':10} {'form':8} " + " ".join(f"{c:>15}" for c in CATEGORIES) + "   seconds")
    below = []
    for run in runs:
        cells = []
        for category in CATEGORIES:
            score = run["scores"][category]
            note = "" if len(run["performance_runs"]) == 1 or category != "performance" else \
                f" {run['performance_runs']}"
            cells.append(f"{score:>4.0f}{note}".rjust(15))
            if score < GOAL:
                below.append((run["name"], run["formFactor"], category, score))
        print(f"{run['name']:10} {run['formFactor']:8} " + " ".join(cells) + f"   {run['seconds']:7.1f}")
        for failed in run["failed"]:
            print(f"    {failed['category']}: {failed['id']} ({failed['score']}) {failed['title']} "
                  f"{failed['displayValue']}")
    for name, form_factor, category, score in below:
        print(f"BELOW GOAL: {name} {form_factor} {category} {score}")
    slowest = min(run["benchmarkIndex"] for run in runs)
    if slowest < BUSY_BENCHMARK_INDEX:
        print(f"note: benchmark index {slowest:.0f} < {BUSY_BENCHMARK_INDEX}: the machine was busy while measuring, "
              "and mobile performance (4x CPU slowdown of the measured task times) is then lower than on an idle one")
    print(f"reports: {ARTIFACTS}")
    return 1 if below else 0


if __name__ == "__main__":
    os.chdir(ROOT)
    sys.exit(main())
