"""A QR code drawn by the server as an inline SVG (segno): the wall screen's corner, /qr.svg, the printed month."""
from __future__ import annotations

import io

from markupsafe import Markup

QR_BORDER_MODULES = 4  # the quiet zone ISO/IEC 18004 asks for


def svg(text: str) -> Markup:
    """An inline SVG of a QR code of ``text`` (segno; error correction M at least, dark modules on light, with its
    quiet zone): attributes only, no style, so the page's CSP needs nothing more."""
    import segno  # only a page with a QR code draws one

    code = segno.make(text, error="m", micro=False)
    out = io.BytesIO()
    code.save(out, kind="svg", xmldecl=False, svgns=True, nl=False, border=QR_BORDER_MODULES, dark="#000",
              light="#fff", scale=1, svgclass="qr-code", lineclass=None, omitsize=True)
    return Markup(out.getvalue().decode("ascii"))
