"""OSWorld's audio, video and VLC metrics: ``compare_audios``, ``compare_videos``, MP3 tags,
VLC's playing state and global hotkey.

* ``compare_audios`` is OSWorld's measure (librosa MFCCs, normalised per coefficient, aligned
  by DTW under the cosine distance, ``exp(-distance / path length)``) written on numpy: the
  audio is decoded by ``ffmpeg`` to mono 22 050 Hz floats, :func:`mfcc` computes librosa's
  default MFCCs (2048-point Hann STFT, hop 512, 128 Slaney mel bands, dB with an 80 dB floor,
  orthonormal DCT, 20 coefficients), and :func:`dtw` is exact DTW where OSWorld uses
  ``fastdtw``'s approximation (radius 1), whose distance is never below the exact one: scores
  here are equal or slightly higher. ffmpeg's resampler stands in for librosa's soxr.
* ``compare_videos`` decodes both videos' frames with OpenCV and compares their perceptual
  hashes (``imagehash.phash``: 32×32 grey, DCT, 8×8 low frequencies against their median).

The decoders see only bytes the getter read, written to a private temporary folder under
fixed names; no part of a task file reaches a command line.

>>> int(phash(np.zeros((8, 8, 3), np.uint8)).sum())
0
"""

from __future__ import annotations

import os
import shutil
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Mapping
from pathlib import PurePath
from typing import Any
from urllib.parse import unquote, urlparse

import numpy as np
from PIL import Image

from gcc_envs.errors import GCCError
from gcc_envs.osworld.filedata import FileData, file_bytes
from gcc_envs.osworld.id3 import easy_tags
from gcc_envs.osworld.metrics_apps import vlcrc_value
from gcc_envs.osworld.metrics_mail import value_matches
from gcc_envs.sandbox.isolated import run_isolated

Rule = Mapping[str, Any]
#: librosa's defaults, which OSWorld's ``compare_audios`` uses.
SAMPLE_RATE, N_FFT, HOP, N_MELS, N_MFCC = 22050, 2048, 512, 128, 20
#: How long ffmpeg may take to decode one file.
DECODE_TIMEOUT_S = 120.0


def _score(ok: bool) -> float:
    return 1.0 if ok else 0.0


def _suffix(value: Any) -> str:
    name = value.name if isinstance(value, FileData) else ""
    suffix = PurePath(name).suffix.lower()
    return suffix if suffix[1:].isalnum() and len(suffix) <= 6 else ".bin"


class _TempFile:
    """A private temporary folder holding ``media<suffix>`` with the given bytes."""

    def __init__(self, data: bytes, suffix: str) -> None:
        self.dir = tempfile.mkdtemp(prefix="gcc-media-")
        self.path = os.path.join(self.dir, "media" + suffix)
        with open(self.path, "wb") as f:
            f.write(data)

    def __enter__(self) -> str:
        return self.path

    def __exit__(self, *exc: object) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


# ---- audio ---------------------------------------------------------------------------------


def decode_audio(data: bytes, suffix: str = ".bin") -> np.ndarray | None:
    """The audio as mono float32 samples at 22 050 Hz (ffmpeg, in a throwaway sandbox: the
    file is the agent's); None when ffmpeg cannot decode it."""
    argv = ["ffmpeg", "-nostdin", "-v", "error", "-i", "pipe:0", "-vn", "-ac", "1",
            "-ar", str(SAMPLE_RATE), "-f", "f32le", "pipe:1"]  # fmt: skip
    if shutil.which("ffmpeg") is None:
        raise GCCError("compare_audios needs ffmpeg (apt-get install ffmpeg)")
    code, out, _ = run_isolated(argv, data, DECODE_TIMEOUT_S)
    if code:
        return None
    return np.frombuffer(out[: len(out) // 4 * 4], dtype="<f4").astype(np.float32)


def _hz_to_mel(f: np.ndarray) -> np.ndarray:
    # Slaney's scale: linear to 1 kHz (3 mel per 200 Hz), logarithmic above (27 mel per x6.4)
    f = np.asarray(f, dtype=np.float64)
    step = np.log(6.4) / 27.0
    return np.where(f < 1000.0, f * 3 / 200, 15.0 + np.log(np.maximum(f, 1e-9) / 1000.0) / step)


def _mel_to_hz(m: np.ndarray) -> np.ndarray:
    step = np.log(6.4) / 27.0
    return np.where(m < 15.0, m * 200 / 3, 1000.0 * np.exp(step * (m - 15.0)))


def mel_filters(sr: int = SAMPLE_RATE, n_fft: int = N_FFT, n_mels: int = N_MELS) -> np.ndarray:
    """Triangular mel filters (n_mels × n_fft/2+1), Slaney-normalised to equal area."""
    freqs = np.fft.rfftfreq(n_fft, 1.0 / sr)
    edges = _mel_to_hz(np.linspace(_hz_to_mel(0.0), _hz_to_mel(sr / 2.0), n_mels + 2))
    widths = np.diff(edges)
    ramps = edges[:, None] - freqs[None, :]
    lower = -ramps[:-2] / widths[:-1, None]
    upper = ramps[2:] / widths[1:, None]
    weights = np.maximum(0.0, np.minimum(lower, upper))
    return weights * (2.0 / (edges[2:] - edges[:-2]))[:, None]


def mfcc(y: np.ndarray, sr: int = SAMPLE_RATE) -> np.ndarray:
    """librosa's default MFCCs of ``y`` (20 × frames)."""
    padded = np.pad(y.astype(np.float64), N_FFT // 2)
    frames = 1 + (len(padded) - N_FFT) // HOP
    window = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(N_FFT) / N_FFT)  # periodic Hann
    power = np.empty((N_FFT // 2 + 1, frames))
    for start in range(0, frames, 1024):  # bounded memory for long audio
        idx = np.arange(start, min(frames, start + 1024))[:, None] * HOP + np.arange(N_FFT)
        power[:, start : start + idx.shape[0]] = np.abs(np.fft.rfft(padded[idx] * window)).T ** 2
    db = 10.0 * np.log10(np.maximum(1e-10, mel_filters(sr) @ power))
    db = np.maximum(db, db.max() - 80.0)
    n = np.arange(N_MELS)
    basis = np.cos(np.pi / N_MELS * (n[None, :] + 0.5) * np.arange(N_MFCC)[:, None])
    basis *= np.sqrt(2.0 / N_MELS)
    basis[0] /= np.sqrt(2.0)
    return basis @ db


def dtw(a: np.ndarray, b: np.ndarray) -> tuple[float, int]:
    """Exact DTW of two sequences of vectors (rows) under the cosine distance: the total
    distance of the best alignment and its length (steps right, down or diagonal; ties go
    up, then left, then diagonal, as fastdtw breaks them)."""

    def unit(x: np.ndarray) -> np.ndarray:
        norm = np.linalg.norm(x, axis=1, keepdims=True)
        return np.divide(x, norm, out=np.zeros_like(x), where=norm > 0)

    ua, ub = unit(np.asarray(a, np.float64)), unit(np.asarray(b, np.float64))
    n, m = len(ua), len(ub)
    if n == 0 or m == 0:
        return float("inf"), 0
    inf = np.inf
    # cost/length on the two previous anti-diagonals, indexed by i (row)
    cost_prev2 = np.full(n, inf)
    cost_prev = np.full(n, inf)
    len_prev2 = np.zeros(n, np.int64)
    len_prev = np.zeros(n, np.int64)
    for d in range(n + m - 1):
        lo, hi = max(0, d - m + 1), min(n - 1, d)
        i = np.arange(lo, hi + 1)
        j = d - i
        dist = 1.0 - np.einsum("ij,ij->i", ua[i], ub[j])
        cost = np.full(n, inf)
        length = np.zeros(n, np.int64)
        if d == 0:
            cost[0], length[0] = dist[0], 1
        else:
            up_c = np.where(i > 0, cost_prev[np.maximum(i - 1, 0)], inf)  # (i-1, j)
            left_c = np.where(j > 0, cost_prev[i], inf)  # (i, j-1)
            diag_c = np.where((i > 0) & (j > 0), cost_prev2[np.maximum(i - 1, 0)], inf)
            up_l, left_l = len_prev[np.maximum(i - 1, 0)], len_prev[i]
            diag_l = len_prev2[np.maximum(i - 1, 0)]
            best_c, best_l = up_c, up_l
            take = left_c < best_c
            best_c, best_l = np.where(take, left_c, best_c), np.where(take, left_l, best_l)
            take = diag_c < best_c
            best_c, best_l = np.where(take, diag_c, best_c), np.where(take, diag_l, best_l)
            cost[i], length[i] = dist + best_c, best_l + 1
        cost_prev2, cost_prev, len_prev2, len_prev = cost_prev, cost, len_prev, length
    return float(cost_prev[n - 1]), int(len_prev[n - 1])


def _normalize_rows(x: np.ndarray) -> np.ndarray:
    peak = np.abs(x).max(axis=1, keepdims=True)
    return x / np.where(peak < np.finfo(np.float32).tiny, 1.0, peak)


def compare_audios(result: Any, expected: Any) -> float:
    """How alike two recordings sound, in (0, 1]: ``exp(-mean DTW cosine distance)`` of
    their normalised MFCCs. Two files that both hold no audio score 1; one of them 0."""
    data1, data2 = file_bytes(result), file_bytes(expected)
    if not data1 or not data2:
        return 0.0
    y1, y2 = decode_audio(data1, _suffix(result)), decode_audio(data2, _suffix(expected))
    bad1, bad2 = y1 is None or len(y1) == 0, y2 is None or len(y2) == 0
    if bad1 or bad2:
        return _score(bad1 and bad2)
    m1, m2 = _normalize_rows(mfcc(y1)), _normalize_rows(mfcc(y2))
    distance, steps = dtw(m1.T, m2.T)
    return float(np.exp(-distance / steps)) if steps else 0.0


# ---- video ---------------------------------------------------------------------------------


_DCT32 = np.cos(np.pi * np.arange(32)[:, None] * (2 * np.arange(32)[None, :] + 1) / 64)


def phash(rgb: np.ndarray) -> np.ndarray:
    """``imagehash.phash`` of an RGB frame: 64 booleans."""
    grey = Image.fromarray(rgb).convert("L").resize((32, 32), Image.Resampling.LANCZOS)
    coeffs = _DCT32 @ np.asarray(grey, np.float64) @ _DCT32.T
    low = coeffs[:8, :8]
    return (low > np.median(low)).ravel()


def _frames(data: bytes, suffix: str) -> Iterator[np.ndarray]:
    import cv2

    with _TempFile(data, suffix) as path:
        cap = cv2.VideoCapture(path)
        try:
            while True:
                ok, frame = cap.read()
                if not ok:
                    return
                yield cv2.cvtColor(frame, cv2.COLOR_BGR2RGB)
        finally:
            cap.release()


def compare_videos(
    result: Any, expected: Any, max_frames_to_check: int = 100, threshold: int = 5
) -> float:
    """The videos show the same frames: of the first ``max_frames_to_check``, at most
    ``threshold`` have hashes more than ``threshold`` bits apart, and if one video ends within
    them, so does the other."""
    data1, data2 = file_bytes(result), file_bytes(expected)
    if not data1 or not data2:
        return 0.0
    frames1, frames2 = _frames(data1, _suffix(result)), _frames(data2, _suffix(expected))
    mismatches = 0
    for _ in range(max_frames_to_check):
        f1, f2 = next(frames1, None), next(frames2, None)
        if f1 is None or f2 is None:
            return _score(f1 is None and f2 is None)
        if int(np.count_nonzero(phash(f1) != phash(f2))) > threshold:
            mismatches += 1
            if mismatches > threshold:
                return 0.0
    return 1.0


# ---- tags and players ----------------------------------------------------------------------


def check_mp3_meta(result: Any, meta: Mapping[str, Rule]) -> float:
    """Every named ID3 tag (values joined by commas, ``""`` when absent) passes its rule
    (``{"method": "eq", "ref": ...}``; methods as OSWorld's: ``eq ne lt le gt ge``,
    ``re[.FLAG]``, ``approx:T``). A file without an ID3v2 tag raises (scores 0)."""
    data = file_bytes(result)
    if data is None:
        return 0.0
    tags = easy_tags(data)
    return _score(all(value_matches(",".join(tags.get(k, [])), r) for k, r in meta.items()))


def _meta(tree: ET.Element, names: tuple[str, ...]) -> str | None:
    for name in names:
        node = tree.find(f'information/category[@name="meta"]/info[@name="{name}"]')
        if node is not None and node.text:
            return node.text
    return None


def is_vlc_playing(result: Any, rule: Rule) -> float:
    """VLC's status (its ``status.xml``) is ``playing`` the rule's ``file_name`` (the file's
    name, or the end of its path) or ``url`` (contained in, or the file name of, what plays)."""
    if result is None:
        return 0.0
    tree = ET.fromstring(str(result))
    if tree.findtext("state") != "playing":
        return 0.0
    if rule["type"] == "file_name":
        playing = _meta(tree, ("filename", "title", "uri", "location", "name"))
        want = str(rule["file_name"])
        return _score(playing is not None and (
            PurePath(playing).name == want or playing.endswith(want)))  # fmt: skip
    if rule["type"] == "url":
        playing = _meta(tree, ("url", "URI", "location", "title", "filename"))
        want = str(rule["url"])
        if playing is None:
            return 0.0
        if want in playing or playing == PurePath(urlparse(want).path).name:
            return 1.0
        got = urlparse(playing)
        return _score(bool(got.netloc) and got.netloc == urlparse(want).netloc
                      and unquote(urlparse(want).path) in unquote(got.path))  # fmt: skip
    raise ValueError(f"is_vlc_playing: rule type {rule['type']!r} is not supported")


def check_global_key_play_pause(text: str | None, rule: Rule) -> float:
    """VLC has a global Play/Pause hotkey (``global-key-play-pause`` set, not empty) when the
    rule's ``expected_global_key_play_pause`` is 1, none when 0."""
    if text is None:
        return 0.0
    has_key = vlcrc_value(text, "global-key-play-pause", "") != ""
    return _score(str(int(has_key)) == str(rule["expected_global_key_play_pause"]))


AV_METRICS = {
    "compare_audios": compare_audios, "compare_videos": compare_videos,
    "check_mp3_meta": check_mp3_meta, "is_vlc_playing": is_vlc_playing,
    "check_global_key_play_pause": check_global_key_play_pause,
}  # fmt: skip
