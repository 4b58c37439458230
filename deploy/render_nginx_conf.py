"""Fill deploy/nginx.conf's placeholders and prepare its run directory.

Usage::

    python deploy/render_nginx_conf.py PREFIX LISTEN STATIC_ROOT APP[,APP…] [--access-log PATH]
                                       [--rate 100] [--feed-rate 10] [--profile-rate 600] [--ipv6-prefix 64]

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


IPV6_CLIENT_PREFIX = 64  # an IPv6 client is its /64 in every zone, as in the app (runtime/ratelimit.py client_key)
_HEXTET = "([0-9a-f]{1,4})"


def client_network_map(ipv6_prefix: int = IPV6_CLIENT_PREFIX) -> str:
    """nginx's ``map $remote_addr $client_network``: the key of every per-client zone (issue 34: the zones keyed
    ``$binary_remote_addr``, so one IPv6 subscriber's /64 was 2^64 clients).  An IPv4 address is itself, an
    IPv4-mapped one its IPv4 address, an IPv6 address the first ``ipv6_prefix`` bits written ``h:h:h:h::/64``.

    nginx writes ``$remote_addr`` as RFC 5952 does (lower case, no leading zeros, the first longest run of two or
    more zero groups as ``::``), so the first hextets are either written out, or partly inside the ``::``: one
    regular expression per count of groups before and after it says which.  A map works in whole hextets: the
    prefix is a multiple of 16 (the app takes any length; docs/mosques.md)."""
    if ipv6_prefix not in (16, 32, 48, 64, 80, 96, 128):
        raise ValueError(f"--ipv6-prefix: 16, 32, 48, 64, 80, 96 or 128 in nginx (whole hextets); got {ipv6_prefix}")
    lines = ["map $remote_addr $client_network {",
             "    default $remote_addr;  # IPv4, and anything unforeseen: the address itself",
             r'    "~^::ffff:([0-9]{1,3}(\.[0-9]{1,3}){3})$" $1;  # IPv4-mapped: the IPv4 address']
    if ipv6_prefix == 128:  # each address its own
        return "\n".join(lines + ["}"])
    kept = ipv6_prefix // 16  # hextets of the prefix
    suffix = f"::/{ipv6_prefix}"  # a network in IPv6 notation: 2001:db8:0:0::/64
    lines += [  # nginx writes an address whose first 96 bits are zero as ::a.b.c.d (IPv4-compatible)
             rf'    "~^::[0-9]{{1,3}}(\.[0-9]{{1,3}}){{3}}$" {":".join(["0"] * kept)}{suffix};',
             # the first `kept` groups written out, followed by ":" (more groups or "::") or the end
             f'    "~^({":".join(["[0-9a-f]{1,4}"] * kept)})(:|$)" $1{suffix};']
    for before in range(kept):  # "::" after `before` groups, inside the prefix
        for after in range(8 - before):
            zeros = 8 - before - after  # the groups "::" stands for (at least one)
            pattern = ":".join([_HEXTET] * before) + "::" + ":".join([_HEXTET] * after)
            in_prefix_after = max(0, kept - before - zeros)  # groups after "::" that are still in the prefix
            groups = ([f"${k + 1}" for k in range(before)] + ["0"] * min(zeros, kept - before)
                      + [f"${before + k + 1}" for k in range(in_prefix_after)])
            lines.append(f'    "~^{pattern}$" {":".join(groups)}{suffix};')
    lines.append("}")
    return "\n".join(lines)


def render(prefix: Path, listen: str, static_root: Path, app: str, *, access_log: Path | None = None,
           rate_per_minute: int = RATE_PER_MINUTE, feed_rate_per_minute: int = FEED_RATE_PER_MINUTE,
           profile_rate_per_minute: int = PROFILE_RATE_PER_MINUTE, ipv6_prefix: int = IPV6_CLIENT_PREFIX) -> Path:
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
        .replace("@CLIENT_NETWORK_MAP@", client_network_map(ipv6_prefix).replace("\n", "\n    "))
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
    parser.add_argument("--ipv6-prefix", type=int, default=IPV6_CLIENT_PREFIX,
                        help="an IPv6 client is its network of this many bits in every zone (16, 32, … 128)")
    args = parser.parse_args()
    print(render(Path(args.prefix).resolve(), args.listen, Path(args.static_root).absolute(), args.app,
                 access_log=Path(args.access_log).resolve() if args.access_log else None,
                 rate_per_minute=args.rate, feed_rate_per_minute=args.feed_rate,
                 profile_rate_per_minute=args.profile_rate, ipv6_prefix=args.ipv6_prefix))
