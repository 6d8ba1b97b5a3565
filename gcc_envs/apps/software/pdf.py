"""A minimal one-page PDF writer (text lines in Helvetica) and a reader of its text.

The twins hand out PDFs (an article, an AWS bill) and check saved or attached copies; the
files are small, valid PDF 1.4 that Chromium, Thunderbird and any viewer open.

>>> data = text_pdf(["Towards General Computer Control", "page 1"])
>>> data[:8], pdf_lines(data)
(b'%PDF-1.4', ['Towards General Computer Control', 'page 1'])
"""

from __future__ import annotations

import re
from typing import Any

_TJ = re.compile(rb"\((.*?)(?<!\\)\) Tj")


def _escape(text: str) -> bytes:
    raw = text.encode("latin-1", "replace")
    return raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")


def text_pdf(lines: list[str], size: tuple[int, int] = (612, 792)) -> bytes:
    """A one-page PDF showing ``lines`` from the top (the first in a larger font)."""
    w, h = size
    ops = [b"BT", b"/F1 18 Tf", f"72 {h - 96} Td".encode(), b"22 TL"]
    for i, line in enumerate(lines):
        if i == 1:
            ops.append(b"/F1 11 Tf")
        ops.append(b"(" + _escape(line) + b") Tj T*")
    ops.append(b"ET")
    stream = b"\n".join(ops)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {w} {h}] /Contents 4 0 R "
        "/Resources << /Font << /F1 5 0 R >> >> >>".encode(),
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for n, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % n + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def pdf_lines(data: bytes) -> list[str]:
    """The text lines of a PDF written by :func:`text_pdf` (``[]`` for anything else)."""
    if not data.startswith(b"%PDF"):
        return []
    out = []
    for m in _TJ.finditer(data):
        raw = m.group(1).replace(b"\\(", b"(").replace(b"\\)", b")").replace(b"\\\\", b"\\")
        out.append(raw.decode("latin-1"))
    return out


def aws_bill(seed: int, year: int = 2024, month: int = 3) -> bytes:
    """The "AWS bill" the Outlook and Feishu tasks hand out (the seed varies the account)."""
    return text_pdf([f"AWS bill {year}-{month:02d}", f"Account 4821-{seed % 10000:04d}",
                     "Amazon EC2: 41.20 USD", "Amazon S3: 3.07 USD", "Total: 44.27 USD"])  # fmt: skip


#: Where the Outlook and Feishu twins leave an ``aws-bill.pdf`` (each another month's: the
#: bill the task names is told apart by its bytes): the three top folders and 20 subfolders
#: of each, 63 in all, with the (year, month) of each (2019-01 on). The tasks choose one of
#: these folders; the paper's is ``Desktop`` (March 2024, as before).
_SUBFOLDERS = (
    "Bills", "Work", "Finance", "Taxes", "Receipts", "Invoices", "Cloud", "Accounts", "Old",
    "Scans", "Home", "Mail", "Chat", "Archive", "2024", "AWS", "Admin", "Office", "Misc", "Keep",
)  # fmt: skip


def _bill_folders() -> dict[str, tuple[int, int]]:
    subs = [f"{top}/{sub}" for sub in _SUBFOLDERS for top in ("Desktop", "Documents", "Downloads")]
    return {"Desktop": (2024, 3), "Documents": (2024, 2), "Downloads": (2024, 1),
            **{path: (2019 + k // 12, 1 + k % 12) for k, path in enumerate(subs)}}  # fmt: skip


BILL_FOLDERS = _bill_folders()


def write_bills(home: Any, seed: int) -> None:
    """An ``aws-bill.pdf`` in each of :data:`BILL_FOLDERS` under ``home`` (the account from
    ``seed``) and a look-alike ``aws-bill-2018.pdf`` (a year no folder's bill has) on the
    Desktop."""
    for folder, (year, month) in BILL_FOLDERS.items():
        (home / folder).mkdir(parents=True, exist_ok=True)
        (home / folder / "aws-bill.pdf").write_bytes(aws_bill(seed, year, month))
    (home / "Desktop" / "aws-bill-2018.pdf").write_bytes(aws_bill(seed, 2018))
