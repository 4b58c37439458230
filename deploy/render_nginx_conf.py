"""Fill deploy/nginx.conf's placeholders and prepare its run directory.

Usage: python deploy/render_nginx_conf.py PREFIX LISTEN STATIC_ROOT APP  (prints the config path)
"""
from __future__ import annotations

import sys
from pathlib import Path

TEMPLATE = Path(__file__).resolve().parent / "nginx.conf"
BROTLI_MODULES = ("/usr/lib/nginx/modules/ngx_http_brotli_static_module.so",
                  "/usr/share/nginx/modules/ngx_http_brotli_static_module.so")


def render(prefix: Path, listen: str, static_root: Path, app: str) -> Path:
    """Write ``prefix/nginx.conf`` (and its include) and return its path."""
    prefix.mkdir(parents=True, exist_ok=True)
    brotli = next((m for m in BROTLI_MODULES if Path(m).is_file()), None)
    (prefix / "brotli.conf").write_text("brotli_static on;\n" if brotli else "")
    text = (
        TEMPLATE.read_text()
        .replace("@PREFIX@", str(prefix))
        .replace("@LISTEN@", listen)
        .replace("@STATIC_ROOT@", str(static_root))
        .replace("@APP@", app)
        .replace("@LOAD_BROTLI@", f"load_module {brotli};" if brotli else "")
    )
    path = prefix / "nginx.conf"
    path.write_text(text)
    return path


if __name__ == "__main__":
    prefix, listen, static_root, app = sys.argv[1:5]
    print(render(Path(prefix).resolve(), listen, Path(static_root).resolve(), app))
