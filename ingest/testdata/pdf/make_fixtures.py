#!/usr/bin/env python3
"""Writes the synthetic PDF fixtures of ingest/pdf_test.go (see README.md).

Standard library only: every object is written by hand so the files stay
small, uncompressed and readable in a text editor.
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def esc(s):
    return s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def text(font, size, x, y, s, rotate=False):
    m = "0 1 -1 0" if rotate else "1 0 0 1"
    return f"BT /{font} {size} Tf {m} {x} {y} Tm ({s}) Tj ET\n"


def write_pdf(path, pages):
    """pages: list of (content stream, extra page dictionary entries, XObjects)."""
    objs = []  # index 0 is object 1

    def add(body):
        objs.append(body)
        return len(objs)

    catalog = add(None)
    pages_id = add(None)
    f1 = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    f2 = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>")
    kids = []
    for content, extra, xobjects in pages:
        data = content.encode("latin-1")
        cid = add(b"<< /Length %d >>\nstream\n" % len(data) + data + b"\nendstream")
        res = f"<< /Font << /F1 {f1} 0 R /F2 {f2} 0 R >>"
        if xobjects:
            res += " /XObject << " + " ".join(f"/{k} {v} 0 R" for k, v in xobjects.items()) + " >>"
        res += " >>"
        pid = add(f"<< /Type /Page /Parent {pages_id} 0 R /MediaBox [0 0 612 792] "
                  f"/Resources {res} /Contents {cid} 0 R {extra}>>".encode())
        kids.append(pid)
    objs[catalog - 1] = f"<< /Type /Catalog /Pages {pages_id} 0 R >>".encode()
    objs[pages_id - 1] = (f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in kids)}] "
                          f"/Count {len(kids)} >>").encode()
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objs, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, catalog, xref)
    with open(path, "wb") as f:
        f.write(out)


def footer(n, rotate=False):
    if rotate:
        # On a page shown turned 90 degrees clockwise, the bottom of the
        # display is the right-hand side of the unrotated page.
        return (text("F1", 8, 585, 72, "Project Sunfield - Cable Trench Specification", True)
                + text("F1", 8, 570, 396, str(n), True))
    return text("F1", 8, 72, 30, "Project Sunfield - Cable Trench Specification") + text("F1", 8, 303, 48, str(n))


def layout_pdf():
    p1 = ""
    p1 += text("F2", 18, 72, 730, "Cable Trench Specification")
    # The section number and its title are separate runs with a wide gap,
    # as TeX sets them.
    p1 += text("F2", 12, 72, 700, "1") + text("F2", 12, 92, 700, "General")
    body = [
        "This specification covers the excavation, bedding and backfill of trenches for low voltage",
        "DC and AC cables on the solar farm. The minimum cover to DC cables shall be 800 mm from",
        # \\256 is the "fi" ligature glyph in the standard Type 1 encoding.
        "finished ground level, and a warning tape is speci\\256ed 300 mm above the cables. All excava-",
        "tion work shall follow the approved method statement.",
    ]
    y = 678
    for line in body:
        p1 += text("F1", 10, 72, y, line)
        y -= 13
    p1 += text("F1", 10, 190, 610, "Table 1. Minimum cover by cable type")
    p1 += text("F2", 10, 72, 588, "Cable type") + text("F2", 10, 260, 588, "Cover (mm)") + text("F2", 10, 420, 588, "Tape (mm)")
    rows = [("DC string cable", "800", "300"), ("AC LV cable", "900", "300"), ("1", "0.5", "0.3"),
            ("Earthing conductor", "600", "-")]
    y = 572
    for a, b, c in rows:
        p1 += text("F1", 10, 72, y, a) + text("F1", 10, 260, y, b) + text("F1", 10, 420, y, c)
        y -= 14
    p1 += text("F1", 10, 72, 500, "Backfill shall be placed in layers not exceeding 150 mm and compacted to 95 % of the")
    p1 += text("F1", 10, 72, 487, "maximum dry density.")
    p1 += footer(1)

    # Page 2: two columns, written to the content stream row by row
    # (left line, right line, ...) so that stream order is wrong.
    left = [
        "Topsoil shall be stripped to a depth of",
        "150 mm over the whole cable route and",
        "stockpiled on the high side of the trench",
        "away from drainage lines and access roads.",
        "Stockpiles shall not exceed two metres in",
        "height and shall be protected from erosion",
        "until the topsoil is spread again.",
    ]
    right = [
        "Surface water shall be kept out of open",
        "trenches at all times by temporary bunds",
        "and pumps sized for the expected inflow.",
        "Water pumped from trenches shall pass a",
        "sediment trap before it leaves the site",
        "and no water shall be discharged into the",
        "stormwater system without permission.",
    ]
    p2 = text("F2", 12, 72, 730, "2") + text("F2", 12, 92, 730, "Site Preparation")
    y = 706
    for a, b in zip(left, right):
        p2 += text("F1", 10, 72, y, a) + text("F1", 10, 324, y, b)
        y -= 13
    p2 += text("F1", 10, 72, 600, "Both columns above describe work that comes before any trench excavation on the site.")
    p2 += footer(2)

    # Page 3 is stored portrait and shown landscape (/Rotate 90); its text
    # runs up the unrotated page so it reads left to right on screen.
    p3 = text("F2", 12, 72, 72, "3 Drainage Schedule", True)
    lines = [
        "Cross drains shall be laid at every low point of the cable route with a fall of at least 1 in 100.",
        "The contractor shall record the invert level of every drain on the as-built drawings.",
    ]
    x = 94
    for line in lines:
        p3 += text("F1", 10, x, 72, line, True)
        x += 13
    p3 += text("F1", 10, 140, 72, "3.1 Outfall Details", True)
    p3 += text("F1", 10, 160, 72, "Each outfall shall have a rock apron of at least 1.5 m by 1.0 m to prevent scour.", True)
    p3 += footer(3, True)
    write_pdf(os.path.join(HERE, "layout.pdf"), [(p1, "", None), (p2, "", None), (p3, "/Rotate 90 ", None)])


def scanned_pdf():
    # One page that is only an image, as a scanner makes it.
    path = os.path.join(HERE, "scanned.pdf")
    img = bytes((x * 16 + y) % 256 for y in range(16) for x in range(16))
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im1 5 0 R >> >> /Contents 4 0 R >>",
    ]
    content = b"q 612 0 0 792 0 0 cm /Im1 Do Q"
    objs.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
    objs.append(b"<< /Type /XObject /Subtype /Image /Width 16 /Height 16 /ColorSpace /DeviceGray "
                b"/BitsPerComponent 8 /Length %d >>\nstream\n" % len(img) + img + b"\nendstream")
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objs, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
    with open(path, "wb") as f:
        f.write(out)


if __name__ == "__main__":
    layout_pdf()
    scanned_pdf()
    with open(os.path.join(HERE, "layout.pdf"), "rb") as f:
        data = f.read()
    with open(os.path.join(HERE, "truncated.pdf"), "wb") as f:
        f.write(data[: len(data) // 2])
    with open(os.path.join(HERE, "corrupt.pdf"), "wb") as f:
        f.write(b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 9 0 R\nthis is not a PDF object graph\n%%EOF\n")
    with open(os.path.join(HERE, "notpdf.pdf"), "wb") as f:
        f.write(b"Trench depth 800 mm. This is a text file with a .pdf name.\n")
    open(os.path.join(HERE, "empty.pdf"), "wb").close()
