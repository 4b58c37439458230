"""Fill deploy/nginx.conf's placeholders and prepare its run directory.

Usage::

    python deploy/render_nginx_conf.py PREFIX LISTEN STATIC_ROOT APP[,APP…] [--access-log PATH]
                                       [--rate 100] [--feed-rate 10] [--profile-rate 600]

STATIC_ROOT is the published tree, ``SITE_ROOT/current`` (deploy/publish.py), not build.py's static_out/:
nginx sends every file there without asking the app.  The symlink is kept as given (never resolved), so
a new publication is followed.  APP is one address:port per uvicorn process (comma-separated).
Prints the config path.
The access log is off unless ``--access-log`` names a file.
"""
from __future__ import annotations

import argparse
from pathlib import Path

TEMPLATE = Path(__file__).resolve().parent / "nginx.conf"
BROTLI_MODULES = ("/usr/lib/nginx/modules/ngx_http_brotli_static_module.so",
                  "/usr/share/nginx/modules/ngx_http_brotli_static_module.so")
RATE_PER_MINUTE = 100  # requests the app answers, per client: the app's own default limit
FEED_RATE_PER_MINUTE = 10  # feed requests the app answers, per client (a feed costs ~10 plain requests)
# Each app in the upstream (deploy/nginx.conf `upstream app`): set aside after 3 failures within 2 s, for 2 s.
SERVER_PARAMS = "max_fails=3 fail_timeout=2s"
PROFILE_RATE_PER_MINUTE = 600  # reads of one hosted profile, per client: 200 screens asking every 20 s (issue 27)


def render(prefix: Path, listen: str, static_root: Path, app: str, *, access_log: Path | None = None,
           rate_per_minute: int = RATE_PER_MINUTE, feed_rate_per_minute: int = FEED_RATE_PER_MINUTE,
           profile_rate_per_minute: int = PROFILE_RATE_PER_MINUTE) -> Path:
    """Write ``prefix/nginx.conf`` (and its include) and return its path."""
    prefix.mkdir(parents=True, exist_ok=True)
    prefix.chmod(prefix.stat().st_mode | 0o111)  # nginx's workers (another user when the master is root) reach into it
    brotli = next((m for m in BROTLI_MODULES if Path(m).is_file()), None)
    (prefix / "brotli.conf").write_text("brotli_static on;\n" if brotli else "")
    servers = "\n        ".join(f"server {address.strip()} {SERVER_PARAMS};" for address in app.split(",")
                                 if address.strip())
    text = (
        TEMPLATE.read_text()
        .replace("@PREFIX@", str(prefix))
        .replace("@LISTEN@", listen)
        .replace("@STATIC_ROOT@", str(static_root))
        .replace("@APP_SERVERS@", servers)
        .replace("@LOAD_BROTLI@", f"load_module {brotli};" if brotli else "")
        .replace("@ACCESS_LOG@", f"{access_log} front" if access_log else "off")
        .replace("@FEED_RATE@", str(int(feed_rate_per_minute)))
        .replace("@PROFILE_RATE@", str(int(profile_rate_per_minute)))
        .replace("@RATE@", str(int(rate_per_minute)))
    )
    path = prefix / "nginx.conf"
    path.write_text(text)
    return path


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("prefix")
    parser.add_argument("listen")
    parser.add_argument("static_root")
    parser.add_argument("app", help="address:port of each app process, comma-separated")
    parser.add_argument("--access-log", help="write an access log to this file (default: off)")
    parser.add_argument("--rate", type=int, default=RATE_PER_MINUTE)
    parser.add_argument("--feed-rate", type=int, default=FEED_RATE_PER_MINUTE)
    parser.add_argument("--profile-rate", type=int, default=PROFILE_RATE_PER_MINUTE)
    args = parser.parse_args()
    print(render(Path(args.prefix).resolve(), args.listen, Path(args.static_root).absolute(), args.app,
                 access_log=Path(args.access_log).resolve() if args.access_log else None,
                 rate_per_minute=args.rate, feed_rate_per_minute=args.feed_rate,
                 profile_rate_per_minute=args.profile_rate))
