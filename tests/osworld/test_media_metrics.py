"""OSWorld's image, audio, video, archive and Thunderbird metrics, and the file getters, on
generated inputs: pictures drawn with numpy/Pillow, audio and video from ffmpeg's lavfi
sources, archives from zipfile/tarfile, Thunderbird's files as text. Each metric scores a
correct end state 1 and a near miss 0."""

from __future__ import annotations

import io
import shutil
import subprocess
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageEnhance

from gcc_envs.osworld import metrics_media as mm
from gcc_envs.osworld.evaluate import unknown_parts
from gcc_envs.osworld.filedata import FileData
from gcc_envs.osworld.getters import GETTERS, Context
from gcc_envs.osworld.getters_files import last_row, status_xml
from gcc_envs.osworld.id3 import easy_tags
from gcc_envs.osworld.metrics import METRICS
from gcc_envs.osworld.metrics_images import ssim
from gcc_envs.osworld.taskfile import load_task

TASKS = Path("/work/shared/osworld/tasks")


def png(img: Image.Image | np.ndarray, name: str = "a.png", fmt: str = "PNG") -> FileData:
    if isinstance(img, np.ndarray):
        img = Image.fromarray(img)
    buf = io.BytesIO()
    img.save(buf, fmt)
    return FileData(buf.getvalue(), name)


def picture(w: int = 96, h: int = 64) -> Image.Image:
    """A colourful, asymmetric test picture (gradients and shapes)."""
    y, x = np.mgrid[0:h, 0:w]
    rgb = np.stack([x * 255 // w, y * 255 // h, (x * y) % 256], axis=-1).astype(np.uint8)
    img = Image.fromarray(rgb)
    draw = ImageDraw.Draw(img)
    draw.rectangle([5, 5, w // 3, h // 2], fill=(250, 240, 20))
    draw.ellipse([w // 2, h // 3, w - 4, h - 4], fill=(20, 40, 200))
    return img


# ---- images --------------------------------------------------------------------------------


def test_ssim_equals_scikit_image_on_a_known_pair() -> None:
    y, x = np.mgrid[0:32, 0:40]
    a = ((x * 6 + y * 3) % 256).astype(np.uint8)
    b = ((x * 6 + y * 3 + (x * y) % 17) % 256).astype(np.uint8)
    # skimage.metrics.structural_similarity(a, b) == 0.8029821577672017
    assert ssim(a, b) == pytest.approx(0.8029821577672017, abs=1e-12)


def test_compare_images_is_ssim_rescaled_above_the_base() -> None:
    img = picture()
    other = png(img.transpose(Image.Transpose.ROTATE_180))
    assert METRICS["compare_images"](png(img), png(img)) == pytest.approx(1.0)
    assert METRICS["compare_images"](png(img), other) < 0.5
    assert METRICS["compare_images"](png(img), png(img), reference_base_result=0.5) == 1.0
    assert METRICS["compare_images"](png(img), other, reference_base_result=0.5) == 0.0
    big = png(img.resize((192, 128), Image.Resampling.LANCZOS))  # resized to the smaller
    assert METRICS["compare_images"](big, png(img)) > 0.9
    assert METRICS["compare_images"](None, png(img)) == 0.0


def test_structure_sim_needs_the_same_size_and_structure() -> None:
    img = picture()
    noisy = np.clip(np.asarray(img, int) + 3, 0, 255).astype(np.uint8)
    assert METRICS["check_structure_sim"](png(noisy), png(img)) == 1.0
    assert METRICS["check_structure_sim"](png(img.resize((95, 64))), png(img)) == 0.0
    flipped = png(img.transpose(Image.Transpose.FLIP_TOP_BOTTOM))
    assert METRICS["check_structure_sim"](flipped, png(img)) == 0.0
    assert METRICS["check_file_exists_and_structure_sim"](png(noisy), png(img)) == 1.0
    assert METRICS["check_file_exists_and_structure_sim"](None, png(img)) == 0.0


def test_structure_sim_resized_crops_the_transparent_border() -> None:
    dog = picture(60, 40)
    layer = Image.new("RGBA", (100, 80), (0, 0, 0, 0))
    layer.paste(dog.resize((90, 60)), (5, 10))
    check = METRICS["check_structure_sim_resized"]
    assert check(png(layer), png(dog)) == 1.0
    assert check(png(Image.new("RGBA", (50, 50))), png(dog)) == 0.0  # wholly transparent
    assert check(png(layer.rotate(180)), png(dog)) == 0.0


def test_brightness_decrease_keeps_the_structure() -> None:
    img = picture()
    darker = ImageEnhance.Brightness(img).enhance(0.6)
    check = METRICS["check_brightness_decrease_and_structure_sim"]
    assert check(png(darker), png(img)) == 1.0
    assert check(png(img), png(darker)) == 0.0  # brighter, not darker
    moved = darker.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
    assert check(png(moved), png(img)) == 0.0
    assert check(png(moved), png(img), threshold=1.0) == 1.0


def test_contrast_and_saturation_increase() -> None:
    img = picture()
    contrast = METRICS["check_contrast_increase_and_structure_sim"]
    assert contrast(png(ImageEnhance.Contrast(img).enhance(1.5)), png(img)) == 1.0
    assert contrast(png(ImageEnhance.Contrast(img).enhance(0.6)), png(img)) == 0.0
    saturation = METRICS["check_saturation_increase_and_structure_sim"]
    assert saturation(png(ImageEnhance.Color(img).enhance(1.2)), png(img)) == 1.0
    assert saturation(png(ImageEnhance.Color(img).enhance(0.5)), png(img)) == 0.0


def test_image_size_and_file_size() -> None:
    size = METRICS["check_image_size"]
    assert size(png(picture(128, 128)), {"width": 128, "height": 128}) == 1.0
    assert size(png(picture(128, 127)), {"width": 128, "height": 128}) == 0.0
    layer = Image.new("RGBA", (700, 700), (0, 0, 0, 0))
    layer.paste(picture(300, 512), (10, 20))
    assert size(png(layer), {"height": 512, "ignore_transparent": True}) == 1.0
    assert size(png(layer), {"height": 512}) == 0.0
    data = png(picture(), "c.jpeg", "JPEG")
    limit = len(data.data)
    assert METRICS["check_image_file_size"](data, {"max_size": limit + 1}) == 1.0
    assert METRICS["check_image_file_size"](data, {"max_size": limit}) == 0.0


def test_mirror_and_image_lists() -> None:
    img = picture()
    mirrored = png(img.transpose(Image.Transpose.FLIP_LEFT_RIGHT))
    assert METRICS["check_image_mirror"](mirrored, png(img)) == 1.0
    assert METRICS["check_image_mirror"](png(img), png(img)) == 0.0
    changed = np.asarray(img).copy()
    changed[3, 3] = (0, 0, 0)
    images = [png(img), png(picture(40, 40))]
    assert METRICS["compare_image_list"](images, [png(img), png(picture(40, 40))]) == 1.0
    assert METRICS["compare_image_list"]([png(changed), images[1]], images) == 0.0


def test_triangle_in_the_middle_and_text_on_the_left() -> None:
    def triangle(cx: int, cy: int) -> FileData:
        img = Image.new("RGB", (200, 160), (255, 255, 255))
        ImageDraw.Draw(img).polygon([(cx, cy - 20), (cx - 20, cy + 10), (cx + 20, cy + 10)],
                                    fill=(240, 200, 0))  # fmt: skip
        return png(img)

    assert METRICS["check_triangle_position"](triangle(100, 85)) == 1.0
    assert METRICS["check_triangle_position"](triangle(40, 40)) == 0.0

    def text_at(x: int) -> FileData:
        img = Image.new("RGB", (300, 100), (250, 250, 250))
        ImageDraw.Draw(img).text((x, 40), "Hello", fill=(0, 0, 0))
        return png(img)

    assert METRICS["check_textbox_on_leftside"](text_at(3)) == 1.0
    assert METRICS["check_textbox_on_leftside"](text_at(150)) == 0.0


def test_image_stretched_over_the_slide_and_centred() -> None:
    from pptx import Presentation
    from pptx.util import Inches

    def deck(left: int, top: int, width: int, height: int) -> FileData:
        prs = Presentation()
        slide = prs.slides.add_slide(prs.slide_layouts[6])
        slide.shapes.add_picture(io.BytesIO(png(picture()).data), left, top, width, height)
        buf = io.BytesIO()
        prs.save(buf)
        return FileData(buf.getvalue(), "deck.pptx")

    original = deck(Inches(1), Inches(1), Inches(3), Inches(2))
    w, h = Inches(10), Inches(7.5)  # python-pptx's default 4:3 slide
    check = METRICS["check_image_stretch_and_center"]
    assert check(deck(0, 0, w, h), original) == 1.0
    assert check(deck(Inches(1), 0, w, h), original) == 0.0
    assert check(original, original) == 0.0


MONO = Path("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")


def test_compare_image_text_reads_a_terminal_screenshot() -> None:
    from PIL import ImageFont

    if shutil.which("tesseract") is None or not MONO.exists():
        pytest.skip("needs tesseract (tesseract-ocr) and DejaVu Sans Mono (fonts-dejavu-core)")

    def terminal(*lines: str) -> FileData:
        img = Image.new("RGB", (520, 80), (48, 10, 36))
        font = ImageFont.truetype(str(MONO), 18)
        for i, line in enumerate(lines):
            ImageDraw.Draw(img).text((10, 10 + 30 * i), line, fill=(240, 240, 240), font=font)
        return png(img, "ls.png")

    check = METRICS["compare_image_text"]
    listing = terminal("user@osworld:~$ ls", "Desktop  Documents  Downloads")
    assert max(check(listing, {"type": "text", "text": t}) for t in ("ls", "1s")) == 1.0
    assert (
        check(terminal("user@osworld:~$ pwd", "/home/user"), {"type": "text", "text": "ls"}) == 0.0
    )


# ---- audio, video, tags ------------------------------------------------------------------


@pytest.fixture(scope="module")
def media(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], FileData]:
    if shutil.which("ffmpeg") is None:
        pytest.skip("needs ffmpeg (apt-get install ffmpeg)")
    d = tmp_path_factory.mktemp("media")
    recipes = {
        "a440.wav": ["-f", "lavfi", "-i", "sine=frequency=440:duration=2"],
        "a440.mp3": ["-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-b:a", "96k"],
        "noise.wav": ["-f", "lavfi", "-i", "anoisesrc=d=2:c=pink:a=0.5"],
        "tagged.mp3": ["-f", "lavfi", "-i", "sine=duration=0.3", "-metadata",
                       "title=Missing You", "-metadata", "artist=Cheng Xiang"],
        "tagged23.mp3": ["-f", "lavfi", "-i", "sine=duration=0.3", "-id3v2_version", "3",
                         "-metadata", "title=夜上海", "-metadata", "artist=Zhou Xuan"],
        "v.mp4": ["-f", "lavfi", "-i", "testsrc=size=96x64:rate=10:duration=2",
                  "-pix_fmt", "yuv420p"],
        "v.avi": ["-f", "lavfi", "-i", "testsrc=size=96x64:rate=10:duration=2",
                  "-c:v", "mpeg4", "-q:v", "3"],
        "vflip.mp4": ["-f", "lavfi", "-i", "testsrc=size=96x64:rate=10:duration=2",
                      "-vf", "vflip", "-pix_fmt", "yuv420p"],
        "vshort.mp4": ["-f", "lavfi", "-i", "testsrc=size=96x64:rate=10:duration=1",
                       "-pix_fmt", "yuv420p"],
    }  # fmt: skip
    for name, args in recipes.items():
        subprocess.run(["ffmpeg", "-v", "error", "-y", *args, str(d / name)], check=True)
    return lambda name: FileData((d / name).read_bytes(), name)


def test_compare_audios_scores_the_same_song_near_1_and_another_far_below(media) -> None:
    compare = METRICS["compare_audios"]
    assert compare(media("a440.wav"), media("a440.wav")) == pytest.approx(1.0)
    assert compare(media("a440.mp3"), media("a440.wav")) > 0.99  # re-encoded
    assert compare(media("noise.wav"), media("a440.wav")) < 0.6
    assert compare(None, media("a440.wav")) == 0.0
    assert compare(FileData(b"not audio", "x.mp3"), media("a440.wav")) == 0.0


def test_compare_videos_by_frame_hashes(media) -> None:
    compare = METRICS["compare_videos"]
    assert compare(media("v.mp4"), media("v.mp4")) == 1.0
    assert compare(media("v.avi"), media("v.mp4")) == 1.0  # another codec, same frames
    assert compare(media("vflip.mp4"), media("v.mp4")) == 0.0  # upside down
    assert compare(media("vshort.mp4"), media("v.mp4")) == 0.0  # ends early


def test_mp3_tags_match_their_rules(media) -> None:
    check = METRICS["check_mp3_meta"]
    rule = {"title": {"method": "eq", "ref": "Missing You"},
            "artist": {"method": "eq", "ref": "Cheng Xiang"}}  # fmt: skip
    assert check(media("tagged.mp3"), rule) == 1.0
    assert check(media("tagged.mp3"), {**rule, "artist": {"method": "eq", "ref": "Han"}}) == 0.0
    assert check(media("tagged23.mp3"), {"title": {"method": "eq", "ref": "夜上海"}}) == 1.0
    assert check(media("a440.mp3"), {"title": {"method": "eq", "ref": ""}}) == 1.0  # no title
    with pytest.raises(ValueError):
        check(media("a440.wav"), rule)  # no ID3 tag at all: OSWorld's EasyID3 raises too


def test_id3_reads_utf16_and_version_2_2_frames() -> None:
    body = b"\x01" + "Röd".encode("utf-16")
    frame = b"TPE1" + len(body).to_bytes(4, "big") + b"\0\0" + body
    tag = b"ID3\x03\0\0" + bytes([0, 0, 0, len(frame)]) + frame
    assert easy_tags(tag) == {"artist": ["Röd"]}
    frame22 = b"TT2" + (4).to_bytes(3, "big") + b"\0Hey"
    assert easy_tags(b"ID3\x02\0\0" + bytes([0, 0, 0, len(frame22)]) + frame22) == {
        "title": ["Hey"]
    }


def test_vlc_playing_status() -> None:
    playing = status_xml({"state": "playing", "url": "file:///h/Desktop/Rick%20Astley.mp4"})
    paused = status_xml({"state": "paused", "url": "file:///h/Desktop/Rick%20Astley.mp4"})
    check = METRICS["is_vlc_playing"]
    assert check(playing, {"type": "file_name", "file_name": "Rick Astley.mp4"}) == 1.0
    assert check(playing, {"type": "file_name", "file_name": "Other.mp4"}) == 0.0
    assert check(paused, {"type": "file_name", "file_name": "Rick Astley.mp4"}) == 0.0
    url = "https://cdn.example.com/videos/x/master.m3u8"
    stream = status_xml({"state": "playing", "url": url})
    assert check(stream, {"type": "url", "url": url}) == 1.0
    assert check(stream, {"type": "url", "url": "https://other.example.com/a.m3u8"}) == 0.0
    assert check(None, {"type": "url", "url": url}) == 0.0


def test_vlc_global_play_pause_hotkey() -> None:
    check = METRICS["check_global_key_play_pause"]
    rule = {"expected_global_key_play_pause": 1}
    assert check("[core]\n#global-key-play-pause=\nglobal-key-play-pause=Ctrl+Space\n", rule) == 1.0
    assert check("[core]\n#global-key-play-pause=\n", rule) == 0.0
    assert check("[core]\n#global-key-play-pause=\n", {"expected_global_key_play_pause": 0}) == 1.0


# ---- archives and folders ------------------------------------------------------------------


def _zip(files: dict[str, bytes]) -> FileData:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in files.items():
            z.writestr(name, data)
    return FileData(buf.getvalue(), "a.zip")


def _targz(files: dict[str, bytes]) -> FileData:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as t:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    return FileData(buf.getvalue(), "a.tar.gz")


def _pdf(text: str) -> bytes:
    """A one-page PDF showing ``text`` in Helvetica."""
    content = f"BT /F1 12 Tf 10 50 Td ({text}) Tj ET".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 100] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for i, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (i, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, xref)  # fmt: skip
    return bytes(out)


def test_compare_archive_compares_one_folder_file_by_file() -> None:
    a, b = png(picture()).data, png(picture(50, 40)).data
    gold = _zip({"slides/w1.png": a, "slides/w2.png": b, "other.txt": b"x"})
    check = METRICS["compare_archive"]
    assert check(_targz({"slides/w2.png": b, "slides/w1.png": a}), gold,
                 file_path="slides", file_type="image") == pytest.approx(1.0)  # fmt: skip
    assert check(_zip({"slides/w1.png": a}), gold, file_path="slides", file_type="image") == 0.0
    flipped = png(picture().transpose(Image.Transpose.FLIP_TOP_BOTTOM)).data
    half = check(_zip({"slides/w1.png": flipped, "slides/w2.png": b}), gold,
                 file_path="slides", file_type="image")  # fmt: skip
    assert 0.5 <= half < 0.8
    assert check(None, gold, file_type="image") == 0.0


def test_compare_zip_files_compares_bytes_and_pdf_text() -> None:
    gold = _zip({"essay.pdf": _pdf("Recruitment and retention"), "notes.txt": b"hello"})
    check = METRICS["compare_zip_files"]
    same_text = _zip({"notes.txt": b"hello", "essay.pdf": _pdf("Recruitment and retention")})
    assert check(same_text, gold) == 1.0
    assert check(_zip({"essay.pdf": _pdf("Another essay entirely"), "notes.txt": b"hello"}),
                 gold) == 0.0  # fmt: skip
    assert check(_zip({"essay.pdf": _pdf("Recruitment and retention")}), gold) == 0.0
    assert check(_zip({"essay.pdf": _pdf("Recruitment and retention"), "notes.txt": b"hi"}),
                 gold) == 0.0  # fmt: skip


def test_check_moved_jpgs_wants_exactly_the_names() -> None:
    tree = {
        "type": "directory",
        "name": "cpjpg",
        "children": [{"type": "file", "name": "a.jpg"}, {"type": "file", "name": "b.jpg"}],
    }
    check = METRICS["check_moved_jpgs"]
    assert check(tree, {"expected": ["b.jpg", "a.jpg"]}) == 1.0
    assert check(tree, {"expected": ["a.jpg"]}) == 0.0
    assert check(None, {"expected": ["a.jpg"]}) == 0.0


# ---- Thunderbird ---------------------------------------------------------------------------

PREFS = """// Mozilla User Preferences
user_pref("extensions.activeThemeID", "thunderbird-compact-dark@mozilla.org");
user_pref("mail.identity.id1.htmlSigText", "Anonym\\nXYZ Lab");
user_pref("mail.server.default.applyIncomingFilters", true);
user_pref("mail.imap.use_status_for_biff", false);
"""


def test_thunderbird_prefs_expect_and_unexpect() -> None:
    check = METRICS["check_thunderbird_prefs"]
    rule = {"expect": {"mail.server.default.applyIncomingFilters": {"method": "eq", "ref": True},
                       "mail.imap.use_status_for_biff": {"method": "eq", "ref": False}},
            "unexpect": {"mail.server.default.autosync_offline_stores":
                         {"method": "eq", "ref": False}}}  # fmt: skip
    assert check(PREFS, rule) == 1.0
    bad = PREFS + 'user_pref("mail.server.default.autosync_offline_stores", false);\n'
    assert check(bad, rule) == 0.0
    sig = {
        "expect": {"mail.identity.id1.htmlSigText": {"method": "re.S", "ref": "Anonym\\nXYZ Lab"}}
    }
    assert check(PREFS, sig) == 1.0
    assert check(PREFS.replace("XYZ", "ABC"), sig) == 0.0
    dark = {"expect": {"extensions.activeThemeID": {"method": "re", "ref": "dark"}}}
    assert check(PREFS, dark) == 1.0
    assert check(PREFS.replace("compact-dark", "compact-light"), dark) == 0.0
    assert check(None, dark) == 0.0


FILTERS = """version="9"
logging="no"
name="Forward all"
enabled="yes"
type="17"
action="Forward"
actionValue="anonym-x2024@gmail.com"
condition="ALL"
name="Spam"
enabled="yes"
type="17"
action="Move to folder"
actionValue="mailbox://nobody@Local%20Folders/Junk"
condition="AND (subject,contains,win) OR (from,is,\\"a@b.c\\")"
"""


def test_thunderbird_filter_rules() -> None:
    check = METRICS["check_thunderbird_filter"]
    rule = {"expect": [{"enabled": "yes", "action": "Forward",
                        "actionValue": "anonym-x2024@gmail.com", "condition": ["ALL"]}]}  # fmt: skip
    assert check(FILTERS, rule) == 1.0
    assert check(FILTERS.replace('enabled="yes"\ntype="17"\naction="Forward"',
                                 'enabled="no"\ntype="17"\naction="Forward"'), rule) == 0.0  # fmt: skip
    spam = [{"name": "Spam", "condition": ["AND (subject,contains,win)", 'OR (from,is,"a@b.c")']}]
    assert check(FILTERS, {"expect": spam}) == 1.0
    assert check(FILTERS, {"expect": rule["expect"], "unexpect": spam}) == 0.0


def _mail(subject: str, status: str = "0001") -> str:
    return (f"From - Thu Jan 18 10:00:00 2024\nX-Mozilla-Status: {status}\n"
            f"Subject: {subject}\n\nBody of {subject}\n")  # fmt: skip


def test_thunderbird_folder_compares_messages_as_sets() -> None:
    check = METRICS["check_thunderbird_folder"]
    gold = _mail("Invoice") + _mail("Receipt")
    moved = _mail("Receipt") + _mail("Invoice") + _mail("Invoice") + _mail("Old", "0009")
    assert check(moved, gold) == 1.0
    assert check(moved, gold, remove_deleted=False) == 0.0
    assert check(_mail("Invoice"), gold) == 0.0
    assert check([gold, _mail("x")], [gold, _mail("x", "0000")]) == 0.0
    assert check([gold, _mail("x")], [gold, _mail("x", "0000")], ignore_status=True) == 1.0
    assert check(None, gold) == 0.0


def test_run_sqlite3_judges_by_the_query(tmp_path: Path) -> None:
    import sqlite3

    db = tmp_path / "global-messages-db.sqlite"
    with sqlite3.connect(db) as c:
        c.execute("CREATE TABLE messages (id INTEGER, folderID INTEGER)")
        c.execute("CREATE TABLE messageAttributes (messageID INTEGER, attributeID INTEGER, value)")
        c.executemany("INSERT INTO messages VALUES (?, 13)", [(1,), (2,)])
        c.executemany("INSERT INTO messageAttributes VALUES (?, 58, 1)", [(1,), (2,)])
    c.close()
    sql = ("SELECT COALESCE((SELECT COUNT(*) FROM messageAttributes WHERE attributeID = 58 AND "
           "value = 1 AND messageID IN (SELECT id FROM messages WHERE folderID = 13)), 0) = "
           "(SELECT COUNT(*) FROM messages WHERE folderID = 13);")  # fmt: skip
    starred = FileData(db.read_bytes(), "db.sqlite")
    assert METRICS["run_sqlite3"](starred, {"sql": sql}) == 1.0
    with sqlite3.connect(db) as c:
        c.execute("DELETE FROM messageAttributes WHERE messageID = 2")
    c.close()
    assert METRICS["run_sqlite3"](FileData(db.read_bytes(), "db.sqlite"), {"sql": sql}) == 0.0
    assert METRICS["run_sqlite3"](None, {"sql": sql}) == 0.0


# ---- getters -------------------------------------------------------------------------------


def test_list_directory_gives_osworld_tree(home: Path, probe) -> None:
    folder = home / "Desktop" / "cpjpg"
    (folder / "sub").mkdir(parents=True)
    for name in ("a.jpg", "b.jpg", "sub/c.jpg"):
        (folder / name).write_bytes(b"\xff\xd8")
    ctx = Context(probe)
    tree = GETTERS["list_directory"](ctx, {"path": str(folder)})
    assert tree == {
        "type": "directory",
        "name": "cpjpg",
        "children": [
            {"type": "file", "name": "a.jpg"},
            {"type": "file", "name": "b.jpg"},
            {"type": "directory", "name": "sub", "children": [{"type": "file", "name": "c.jpg"}]},
        ],
    }
    assert METRICS["check_moved_jpgs"](tree, {"expected": ["a.jpg", "b.jpg", "sub"]}) == 1.0
    assert GETTERS["list_directory"](ctx, {"path": str(folder / "a.jpg")}) is None
    assert GETTERS["list_directory"](ctx, {"path": "/etc"}) is None
    assert any("not inside" in n for n in ctx.notes)


def test_vm_command_error_gives_stderr(probe) -> None:
    ctx = Context(probe)
    err = GETTERS["vm_command_error"](ctx, {"command": ["python3", "-c", "import no_such_mod"]})
    assert "ModuleNotFoundError" in err
    rule = {"include": [], "exclude": ["Error:"]}
    assert METRICS["check_include_exclude"](err, rule) == 0.0
    ok = GETTERS["vm_command_error"](ctx, {"command": ["python3", "-c", "import json"]})
    assert ok == "" and METRICS["check_include_exclude"](ok, rule) == 1.0


def test_vm_wallpaper_reads_the_file_gsettings_names(home: Path, probe) -> None:
    if shutil.which("gsettings") is None:
        pytest.skip("needs gsettings")
    probe.env["GSETTINGS_BACKEND"] = "keyfile"  # no session bus in this probe
    ctx = Context(probe)
    assert GETTERS["vm_wallpaper"](ctx, {"dest": "bg.png"}) is None  # GNOME's default: none
    wall = png(picture())
    (home / "Pictures").mkdir()
    (home / "Pictures" / "my wall.png").write_bytes(wall.data)
    uri = f"file://{home}/Pictures/my%20wall.png"
    probe.run(["gsettings", "set", "org.gnome.desktop.background", "picture-uri", uri])
    got = GETTERS["vm_wallpaper"](ctx, {"dest": "bg.png"})
    assert got is not None and got.data == wall.data and got.name == "bg.png"
    assert METRICS["compare_images"](got, wall, reference_base_result=0.5) == 1.0


def test_content_from_vm_file_gives_the_last_row_as_pandas_text(home: Path, probe) -> None:
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    for row in (["Name", "Citations", "h-index", "Score"], ["A", 10, 3, 1.5],
                ["Yann LeCun", 345074, None, 2.0], [None, None, None, None]):  # fmt: skip
        sheet.append(row)
    book.save(home / "Desktop" / "researchers.xlsx")
    config = {"path": str(home / "Desktop" / "researchers.xlsx"), "file_type": "xlsx",
              "file_content": "last_row"}  # fmt: skip
    row = GETTERS["content_from_vm_file"](Context(probe), config)
    assert row == ["Yann LeCun", "345074", "nan", "2.0"]
    assert last_row((home / "Desktop" / "researchers.xlsx").read_bytes())[0] == "Yann LeCun"


def _deck_with_media(audio: bytes, image: bytes) -> bytes:
    """The parts of a .pptx the slide getters read: slide 1 with a background picture and a
    sound."""
    rels = ('<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/'
            'package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.'
            'openxmlformats.org/officeDocument/2006/relationships/image" Target="../media/'
            'image1.png"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/'
            'officeDocument/2006/relationships/audio" Target="../media/media1.wav"/>'
            "</Relationships>")  # fmt: skip
    slide = ('<p:sld xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" '
             'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http:'
             '//schemas.openxmlformats.org/officeDocument/2006/relationships"><p:cSld><p:bg>'
             '<p:bgPr><a:blipFill><a:blip r:embed="rId1"/></a:blipFill></p:bgPr></p:bg>'
             "</p:cSld></p:sld>")  # fmt: skip
    return _zip({"ppt/slides/slide1.xml": slide.encode(), "ppt/slides/_rels/slide1.xml.rels":
                 rels.encode(), "ppt/media/image1.png": image, "ppt/media/media1.wav": audio,
                 "ppt/slides/slide2.xml": slide.replace("p:bg>", "p:x>").encode(),
                 "ppt/slides/_rels/slide2.xml.rels": b'<Relationships xmlns="http://schemas.'
                 b'openxmlformats.org/package/2006/relationships"/>'}).data  # fmt: skip


def test_slide_getters_give_the_background_image_and_audio(home: Path, probe) -> None:
    image, audio = png(picture()).data, b"RIFF....WAVE"
    (home / "Desktop" / "deck.pptx").write_bytes(_deck_with_media(audio, image))
    ctx = Context(probe)
    path = str(home / "Desktop" / "deck.pptx")
    bg = GETTERS["background_image_in_slide"](ctx, {"ppt_file_path": path, "slide_index": 0,
                                                    "dest": "landscape.png"})  # fmt: skip
    assert bg.data == image and bg.name == "landscape.png"
    sound = GETTERS["audio_in_slide"](ctx, {"ppt_file_path": path, "slide_index": 0,
                                            "dest": "planet.wav"})  # fmt: skip
    assert sound.data == audio and sound.name == "planet.wav"
    cfg = {"ppt_file_path": path, "slide_index": 1, "dest": "x"}
    assert GETTERS["background_image_in_slide"](ctx, cfg) is None
    assert GETTERS["audio_in_slide"](ctx, cfg) is None


@pytest.mark.desktop
def test_vlc_status_helper_reads_a_playing_vlc(home: Path, probe) -> None:
    """The helper behind ``vlc_playing_info`` against a real VLC (MPRIS, ``--dbus``)."""
    for program in ("vlc", "dbus-run-session"):
        if shutil.which(program) is None:
            pytest.skip(f"needs {program}")
    song = home / "My Song.wav"
    subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "sine=duration=5", str(song)],
                   check=True)  # fmt: skip
    helper = Path(__file__).parents[2] / "gcc_envs" / "osworld" / "vlc_status.py"
    script = (f"vlc -I dummy --dbus --aout=dummy --loop '{song}' >/dev/null 2>&1 & "
              f"for i in $(seq 100); do out=$(/usr/bin/python3 {helper} 2>/dev/null); "
              f'case "$out" in *playing*) echo "$out"; break;; esac; sleep 0.1; done; kill %1')  # fmt: skip
    result = probe.run(["dbus-run-session", "--", "bash", "-c", script], timeout_s=30)
    xml = status_xml(__import__("json").loads(result.stdout))
    assert METRICS["is_vlc_playing"](xml, {"type": "file_name", "file_name": "My Song.wav"}) == 1.0


# ---- the task files ------------------------------------------------------------------------

MINE = {*mm.MEDIA_METRICS, "getter vm_wallpaper", "getter vlc_playing_info",
        "getter list_directory", "getter content_from_vm_file", "getter vm_command_error",
        "getter audio_in_slide", "getter background_image_in_slide"}  # fmt: skip


def test_no_task_file_lacks_a_media_metric_or_file_getter() -> None:
    if not TASKS.is_dir():
        pytest.skip(f"OSWorld's task files are not at {TASKS}")
    lacking = {p for f in TASKS.glob("*/*.json") for p in unknown_parts(load_task(f).evaluator)}
    assert lacking & MINE == set()
