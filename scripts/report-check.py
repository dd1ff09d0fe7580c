#!/usr/bin/env python3
"""Checks a headless Chromium rendering of report.html (used by scripts/report-test.sh).

    report-check.py shot PNG       the screenshot is not blank: many colours, some ink
    report-check.py net NETLOG     the browser requested nothing but the local file

Standard library only: the PNG is decoded with zlib and its rows unfiltered here. Exit 1 with
one line naming the problem."""
import json
import re
import struct
import sys
import zlib


def pixels(path):
    """The PNG's pixels as (r, g, b) tuples (8-bit RGB or RGBA, not interlaced)."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    pos, idat, head = 8, b"", None
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    width, height, depth, colour, _, _, interlace = head
    if depth != 8 or colour not in (2, 6) or interlace:
        sys.exit(f"{path}: a PNG this check does not read (depth {depth}, colour {colour})")
    bpp = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(idat), width * bpp
    prev, out = bytearray(stride), []
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out.extend(tuple(line[i:i + 3]) for i in range(0, stride, bpp))
        prev = line
    return out


def shot(path):
    px = pixels(path)
    colours = len(set(px))
    ink = sum(1 for p in px if p != (255, 255, 255)) / max(len(px), 1)
    if colours < 20 or ink < 0.01:
        sys.exit(f"{path}: blank ({colours} colours, {100 * ink:.2f}% not white)")
    print(f"{path}: {colours} colours, {100 * ink:.1f}% not white")


def net(path):
    """The page's own requests: URL requests started on behalf of a file:// page (its network
    isolation key names file://), apart from the browser's own traffic (update checks, time
    queries), which has another key and is not the page's doing."""
    text = open(path, encoding="utf-8", errors="replace").read()
    try:
        log = json.loads(text)
    except ValueError:
        # A log cut short by the browser's exit: close its array of events.
        log = json.loads(text.rstrip().rstrip(",") + "]}")
    start = log["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
    page = [
        e["params"]["url"]
        for e in log["events"]
        if e["type"] == start
        and "file://" in e.get("params", {}).get("network_isolation_key", "")
    ]
    # The file itself is read without the network stack: a page that loads nothing has none.
    remote = [u for u in page if not re.match(r"(file|data|about|blob):", u)]
    if remote:
        sys.exit(f"{path}: requests left the file: {', '.join(remote[:5])}")
    print(f"{path}: no network request of the page ({len(page)} local)")


if __name__ == "__main__":
    {"shot": shot, "net": net}[sys.argv[1]](sys.argv[2])
