"""Write the generated stand-ins under ``files/`` for the office, GIMP, VLC and Thunderbird
tasks.

Run ``python tests/osworld/network_sample/make_files.py`` from the repository root; the
output is deterministic (fixed contents, fixed timestamps, no randomness), so running it
again leaves ``git status`` clean. These are NOT OSWorld's files: each was written for
gcc-gym's tests at the URL its task file downloads from, doing what the task's instruction
implies (the hand-written ``os``/``vs_code``/``multi_apps`` files beside them are not made here).
"""

from __future__ import annotations

import datetime as dt
import gzip
import io
import json
import re
import shutil
import subprocess
import tarfile
import zipfile
from pathlib import Path

HF = (
    Path(__file__).parent
    / "files/huggingface.co/datasets/xlangai/ubuntu_osworld_file_cache/resolve/main"
)
#: One timestamp inside every OOXML file (their zip members and core properties).
WHEN = dt.datetime(2024, 1, 1, 12, 0, 0)


def _stable_zip(data: bytes) -> bytes:
    """The OOXML package ``data`` re-zipped with fixed member times and order, and its
    ``modified`` property (openpyxl writes the time of saving) set to :data:`WHEN`."""
    stamp = WHEN.strftime("%Y-%m-%dT%H:%M:%SZ").encode()
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        names = src.namelist()
        first = [n for n in names if n == "[Content_Types].xml"]
        for name in first + sorted(n for n in names if n not in first):
            info = zipfile.ZipInfo(name, date_time=WHEN.timetuple()[:6])
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            body = src.read(name)
            if name == "docProps/core.xml":
                body = re.sub(rb"(<dcterms:modified[^>]*>)[^<]*", rb"\g<1>" + stamp, body)
            dst.writestr(info, body)
    return out.getvalue()


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


#: libreoffice_calc/51b11269: "sort the records according to the amounts ascendingly".
RECORDS = [
    ("2023-01-03", "Office chairs", 1250.0),
    ("2023-01-05", "Printer paper", 86.5),
    ("2023-01-09", "Laptop repair", 430.0),
    ("2023-01-12", "Coffee beans", 54.2),
    ("2023-01-16", "Desk lamps", 199.99),
    ("2023-01-19", "Software licence", 2400.0),
    ("2023-01-23", "Cleaning service", 320.0),
    ("2023-01-27", "Postage", 17.8),
    ("2023-01-30", "Whiteboard", 145.0),
]


def calc_sort() -> None:
    from openpyxl import Workbook

    folder = HF / "libreoffice_calc/51b11269-2ca8-4b2a-9163-f21758420e78"
    for name, rows in (
        ("Arrang_Value_min_to_max.xlsx", RECORDS),
        ("Arrang_Value_min_to_max_gold.xlsx", sorted(RECORDS, key=lambda r: r[2])),
    ):
        book = Workbook()
        sheet = book.active
        sheet.title = "Sheet1"
        sheet.append(["Date", "Description", "Amount"])
        for row in rows:
            sheet.append(list(row))
        book.properties.created = book.properties.modified = WHEN
        out = io.BytesIO()
        book.save(out)
        _write(folder / name, _stable_zip(out.getvalue()))


def writer_heading() -> None:
    """libreoffice_writer/3ef2b351: a template whose heading (the first paragraph) is left
    aligned; the task centres it."""
    from docx import Document
    from docx.enum.text import WD_PARAGRAPH_ALIGNMENT

    doc = Document()
    doc.core_properties.created = doc.core_properties.modified = WHEN
    heading = doc.add_paragraph("Constitution of the Riverside Chess Club", style="Title")
    heading.paragraph_format.alignment = WD_PARAGRAPH_ALIGNMENT.LEFT
    for title, text in (
        ("Article I - Name", "The name of this organization shall be the Riverside Chess Club."),
        (
            "Article II - Purpose",
            "The purpose of the club is to promote the game of chess "
            "among students and to organize friendly tournaments.",
        ),  # fmt: skip
        (
            "Article III - Membership",
            "Membership is open to every enrolled student. Guidelines: "
            "state who may join and how members are admitted.",
        ),  # fmt: skip
        (
            "Article IV - Officers",
            "The officers are a President, a Secretary and a Treasurer, "
            "elected each year by the members.",
        ),  # fmt: skip
    ):
        doc.add_paragraph(title, style="Heading 1")
        doc.add_paragraph(text)
    out = io.BytesIO()
    doc.save(out)
    folder = HF / "libreoffice_writer/3ef2b351-8a84-4ff2-8724-d86eae9b842e"
    _write(folder / "Constitution_Template_With_Guidelines.docx", _stable_zip(out.getvalue()))


def impress_deck() -> None:
    """libreoffice_impress/a097acff: a small deck; the task saves it as pre.pptx, and the
    expected file is the download itself."""
    from pptx import Presentation
    from pptx.dml.color import RGBColor
    from pptx.enum.text import PP_ALIGN
    from pptx.oxml.ns import qn
    from pptx.util import Pt

    prs = Presentation()
    prs.core_properties.created = prs.core_properties.modified = WHEN
    prs.core_properties.revision = 1
    slides = (
        ("Secrets of Monetizing Video", "A short guide for creators"),
        ("Know your audience", "Who watches, when, and on which device"),
        ("Revenue streams", "Advertising, sponsorships, memberships and merchandise"),
        ("Next steps", "Pick one stream and measure it for a month"),
    )
    for n, (title, body) in enumerate(slides):
        slide = prs.slides.add_slide(prs.slide_layouts[0 if n == 0 else 1])
        for shape, text, size, align in (
            (slide.shapes.title, title, 44, PP_ALIGN.CENTER),
            (slide.placeholders[1], body, 32, PP_ALIGN.CENTER if n == 0 else None),
        ):
            # Spelled out as LibreOffice writes them when it saves a deck as .pptx (the
            # task's file was saved by it): the layout's inherited values made explicit.
            shape.text = text
            paragraph = shape.text_frame.paragraphs[0]
            paragraph.alignment = align
            font = paragraph.runs[0].font
            font.name, font.size, font.bold = "Calibri", Pt(size), False
            if align is None:  # a body's bullet, and the slide's white background
                bullet = paragraph._p.get_or_add_pPr().makeelement(qn("a:buChar"), {})
                bullet.set("char", "\u2022")
                paragraph._p.get_or_add_pPr().append(bullet)
        slide.background.fill.solid()
        slide.background.fill.fore_color.rgb = RGBColor(255, 255, 255)
    out = io.BytesIO()
    prs.save(out)
    folder = HF / "libreoffice_impress/a097acff-6266-4291-9fbd-137af7ecd439"
    _write(folder / "Secrets-of-Monetizing-Video.pptx", _stable_zip(out.getvalue()))


def gimp_berry() -> None:
    """gimp/72f83cdc: a photo-like picture that is not left-right symmetric (a berry on a
    leaf, lit from the left), as a JPEG (the task saves it under a .png name)."""
    import numpy as np
    from PIL import Image, ImageDraw, ImageFilter

    w, h = 320, 240
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    back = np.stack([40 + 120 * x / w, 90 + 60 * y / h, 60 + 0 * x], axis=-1)
    img = Image.fromarray(back.clip(0, 255).astype(np.uint8))
    draw = ImageDraw.Draw(img)
    draw.polygon([(30, 200), (120, 90), (250, 60), (190, 170)], fill=(46, 139, 60))
    draw.ellipse((60, 70, 170, 180), fill=(170, 20, 60))
    draw.ellipse((85, 92, 112, 118), fill=(240, 200, 210))
    draw.rectangle((200, 20, 300, 40), fill=(250, 230, 80))
    img = img.filter(ImageFilter.GaussianBlur(1.2))
    out = io.BytesIO()
    img.save(out, "JPEG", quality=92)
    _write(HF / "gimp/72f83cdc-bf76-4531-9a1b-eb893a13f8aa/berry.jpeg", out.getvalue())


def vlc_video() -> None:
    """vlc/59f21cfb: a 60 s "music video" (a test pattern and a tune), small and bit-exact."""
    ffmpeg = shutil.which("ffmpeg")
    if ffmpeg is None:
        raise SystemExit("needs ffmpeg (apt-get install ffmpeg)")
    name = "Rick Astley - Never Gonna Give You Up (Official Music Video).mp4"
    path = HF / "vlc/59f21cfb-0120-4326-b255-a5b827b38967" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [ffmpeg, "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=5",
         "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=8000", "-t", "60",
         "-c:v", "libx264", "-preset", "veryslow", "-crf", "40", "-pix_fmt", "yuv420p",
         "-threads", "1", "-c:a", "aac", "-b:a", "8k", "-ac", "1",
         "-map_metadata", "-1", "-fflags", "+bitexact", "-flags", "+bitexact",
         str(path)],
        check=True,
    )  # fmt: skip


#: thunderbird/dd84e895's profile (eight of the ten Thunderbird tasks extract it): an account
#: "Anonym <anonym-x2024@outlook.com>" on a mail server that is never asked (no check at
#: start or later; the episode has no network), Local Folders, and no first-run screens.
PROFILE = "t5q2a5hp.default-release"
TB_PREFS = {
    "mail.accountmanager.accounts": "account1,account2",
    "mail.accountmanager.defaultaccount": "account1",
    "mail.accountmanager.localfoldersserver": "server2",
    "mail.account.account1.identities": "id1",
    "mail.account.account1.server": "server1",
    "mail.account.account2.server": "server2",
    "mail.identity.id1.fullName": "Anonym",
    "mail.identity.id1.useremail": "anonym-x2024@outlook.com",
    "mail.identity.id1.valid": True,
    "mail.server.server1.hostname": "outlook.office365.com",
    "mail.server.server1.name": "anonym-x2024@outlook.com",
    "mail.server.server1.type": "imap",
    "mail.server.server1.port": 993,
    "mail.server.server1.socketType": 3,
    "mail.server.server1.userName": "anonym-x2024@outlook.com",
    "mail.server.server1.login_at_startup": False,
    "mail.server.server1.check_new_mail": False,
    "mail.server.server1.autosync_offline_stores": False,
    "mail.server.server2.hostname": "Local Folders",
    "mail.server.server2.name": "Local Folders",
    "mail.server.server2.type": "none",
    "mail.server.server2.userName": "nobody",
    "mail.shell.checkDefaultClient": False,
    "mail.rights.version": 1,
    "mailnews.start_page.enabled": False,
    "mail.provider.suppress_dialog_on_startup": True,
    "mail.spotlight.firstRunDone": True,
    "mail.inappnotifications.enabled": False,
    "mail.uifirstrun": False,
    "app.update.enabled": False,
    "app.update.auto": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "offline.startup_state": 2,
}


def _tar_member(tar: tarfile.TarFile, name: str, data: bytes | None) -> None:
    info = tarfile.TarInfo(name)
    info.mtime = int(WHEN.replace(tzinfo=dt.timezone.utc).timestamp())
    info.uname = info.gname = "user"
    if data is None:
        info.type, info.mode = tarfile.DIRTYPE, 0o755
        tar.addfile(info)
        return
    info.size, info.mode = len(data), 0o644
    tar.addfile(info, io.BytesIO(data))


def thunderbird_profile() -> None:
    """thunderbird/dd84e895-...: ``.thunderbird/`` with its profiles.ini and the profile's
    prefs.js, as a .tar.gz the task's ``tar -xz -C /home/user/`` unpacks into the home."""
    ini = (
        "[Profile0]\nName=default-release\nIsRelative=1\nPath=" + PROFILE + "\nDefault=1\n\n"
        "[General]\nStartWithLastProfile=1\nVersion=2\n"
    )
    prefs = "".join(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in TB_PREFS.items())
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.GNU_FORMAT) as tar:
        _tar_member(tar, ".thunderbird", None)
        _tar_member(tar, ".thunderbird/profiles.ini", ini.encode())
        _tar_member(tar, f".thunderbird/{PROFILE}", None)
        _tar_member(tar, f".thunderbird/{PROFILE}/prefs.js", prefs.encode())
    out = io.BytesIO()
    with gzip.GzipFile(fileobj=out, mode="wb", mtime=0) as gz:
        gz.write(raw.getvalue())
    folder = HF / "thunderbird/dd84e895-72fd-4023-a336-97689ded257c"
    _write(folder / "thunderbird-profile.tar.gz", out.getvalue())


if __name__ == "__main__":
    calc_sort()
    writer_heading()
    impress_deck()
    gimp_berry()
    vlc_video()
    thunderbird_profile()
