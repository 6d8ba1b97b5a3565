"""A reader of GIMP's project files (XCF): the canvas, its layers and their pixels.

Enough of the format for a checker: the header, the layers' names, sizes, offsets and
visibility, and each layer's pixels at full resolution (8-bit precision, tiles uncompressed,
RLE or zlib compressed). Pointers are 32-bit before file version 11, 64-bit from it.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

import numpy as np

from gcc_envs.errors import DataError

TILE = 64
_PROP_END, _PROP_OPACITY, _PROP_VISIBLE, _PROP_OFFSETS, _PROP_COMPRESSION = 0, 6, 8, 15, 17


@dataclass(frozen=True)
class Layer:
    name: str
    x: int
    y: int
    width: int
    height: int
    visible: bool
    #: H×W×C uint8 (C = 3 or 4, or 1/2 for grey images).
    pixels: np.ndarray


@dataclass(frozen=True)
class XCF:
    width: int
    height: int
    layers: tuple[Layer, ...]


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0
        self.version = 0

    def u32(self) -> int:
        (v,) = struct.unpack_from(">I", self.data, self.pos)
        self.pos += 4
        return v

    def i32(self) -> int:
        (v,) = struct.unpack_from(">i", self.data, self.pos)
        self.pos += 4
        return v

    def ptr(self) -> int:
        if self.version >= 11:
            (v,) = struct.unpack_from(">Q", self.data, self.pos)
            self.pos += 8
            return v
        return self.u32()

    def string(self) -> str:
        n = self.u32()
        raw = self.data[self.pos : self.pos + n]
        self.pos += n
        return raw.rstrip(b"\0").decode("utf-8", "replace")

    def props(self) -> dict[int, bytes]:
        out = {}
        while True:
            kind, size = self.u32(), self.u32()
            if kind == _PROP_END:
                return out
            out[kind] = self.data[self.pos : self.pos + size]
            self.pos += size

    def ptrs(self) -> list[int]:
        out = []
        while (p := self.ptr()) != 0:
            out.append(p)
        return out


def _rle(data: bytes, pos: int, n: int) -> tuple[bytes, int]:
    out = bytearray()
    while len(out) < n:
        val = data[pos]
        pos += 1
        if val >= 128:
            length = 256 - val
            if length == 128:
                length = (data[pos] << 8) | data[pos + 1]
                pos += 2
            out += data[pos : pos + length]
            pos += length
        else:
            length = val + 1
            if length == 128:
                length = (data[pos] << 8) | data[pos + 1]
                pos += 2
            out += bytes([data[pos]]) * length
            pos += 1
    return bytes(out[:n]), pos


def _level(r: _Reader, at: int, bpp: int, compression: int) -> np.ndarray:
    r.pos = at
    w, h = r.u32(), r.u32()
    tiles = r.ptrs()
    img = np.zeros((h, w, bpp), np.uint8)
    cols = (w + TILE - 1) // TILE
    for i, t in enumerate(tiles):
        ty, tx = divmod(i, cols)
        th, tw = min(TILE, h - ty * TILE), min(TILE, w - tx * TILE)
        n = th * tw
        if compression == 0:
            raw = np.frombuffer(r.data, np.uint8, n * bpp, t).reshape(th, tw, bpp)
        elif compression == 1:
            chans, pos = [], t
            for _ in range(bpp):
                c, pos = _rle(r.data, pos, n)
                chans.append(np.frombuffer(c, np.uint8).reshape(th, tw))
            raw = np.stack(chans, 2)
        elif compression == 2:
            end = tiles[i + 1] if i + 1 < len(tiles) else len(r.data)
            raw = np.frombuffer(zlib.decompressobj().decompress(r.data[t:end]), np.uint8)
            raw = raw[: n * bpp].reshape(th, tw, bpp)
        else:
            raise DataError(f"XCF tile compression {compression} is not supported")
        img[ty * TILE : ty * TILE + th, tx * TILE : tx * TILE + tw] = raw
    return img


def read_xcf(data: bytes) -> XCF:
    """Parse an XCF file's bytes (``DataError`` when it is not one this reader knows)."""
    if not data.startswith(b"gimp xcf "):
        raise DataError("not an XCF file (no 'gimp xcf' header)")
    r = _Reader(data)
    tag = data[9:13]
    r.version = 0 if tag == b"file" else int(tag[1:].decode())
    r.pos = 14
    width, height, _base = r.u32(), r.u32(), r.u32()
    precision = r.u32() if r.version >= 4 else 150
    if r.version >= 7 and precision not in (100, 150) or r.version < 7 and precision > 1:
        raise DataError(f"XCF precision {precision} is not 8-bit; not supported")
    props = r.props()
    compression = props.get(_PROP_COMPRESSION, b"\x01")[0]
    layers = []
    for at in r.ptrs():
        r.pos = at
        w, h, _kind = r.u32(), r.u32(), r.u32()
        name = r.string()
        lp = r.props()
        x, y = struct.unpack(">ii", lp[_PROP_OFFSETS]) if _PROP_OFFSETS in lp else (0, 0)
        visible = struct.unpack(">I", lp[_PROP_VISIBLE])[0] != 0 if _PROP_VISIBLE in lp else True
        hier = r.ptr()
        r.pos = hier
        _hw, _hh, bpp = r.u32(), r.u32(), r.u32()
        level = r.ptr()
        pixels = _level(r, level, bpp, compression)
        layers.append(Layer(name, x, y, w, h, visible, pixels))
    return XCF(width, height, tuple(layers))
