"""Shotcut project files (MLT XML) for the twin's "existing projects": clips one after
another on track V1 over a black background, as Shotcut 22.12 writes them."""

from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import escape

from gcc_envs.apps.capcut.media import FPS, SIZE


def _tc(frames: int) -> str:
    s = frames / FPS
    return f"{int(s // 3600):02d}:{int(s % 3600 // 60):02d}:{s % 60:06.3f}"


def shotcut_project(clips: list[tuple[Path, int]]) -> str:
    """A project with ``clips`` (file, frames) back to back on V1."""
    total = sum(n for _, n in clips)
    producers, entries = [], []
    for k, (path, n) in enumerate(clips):
        producers.append(
            f'  <producer id="producer{k}" in="{_tc(0)}" out="{_tc(n - 1)}">\n'
            f'    <property name="length">{n}</property>\n'
            f'    <property name="resource">{escape(str(path))}</property>\n'
            '    <property name="mlt_service">avformat-novalidate</property>\n'
            f'    <property name="shotcut:caption">{escape(path.name)}</property>\n'
            "  </producer>"
        )
        entries.append(f'    <entry producer="producer{k}" in="{_tc(0)}" out="{_tc(n - 1)}"/>')
    W, H = SIZE
    return "\n".join([
        '<?xml version="1.0" standalone="no"?>',
        '<mlt LC_NUMERIC="C" version="7.12.0" title="Shotcut version 22.12.21" producer="main_bin">',
        f'  <profile description="automatic" width="{W}" height="{H}" progressive="1" '
        f'sample_aspect_num="1" sample_aspect_den="1" display_aspect_num="{W}" '
        f'display_aspect_den="{H}" frame_rate_num="{FPS}" frame_rate_den="1" colorspace="601"/>',
        '  <playlist id="main_bin">\n    <property name="xml_retain">1</property>\n  </playlist>',
        f'  <producer id="black" in="{_tc(0)}" out="{_tc(total - 1)}">\n'
        f'    <property name="length">{total}</property>\n'
        '    <property name="eof">pause</property>\n    <property name="resource">0</property>\n'
        '    <property name="mlt_service">color</property>\n'
        '    <property name="set.test_audio">0</property>\n  </producer>',
        f'  <playlist id="background">\n    <entry producer="black" in="{_tc(0)}" '
        f'out="{_tc(total - 1)}"/>\n  </playlist>',
        *producers,
        '  <playlist id="playlist0">\n    <property name="shotcut:video">1</property>\n'
        '    <property name="shotcut:name">V1</property>',
        *entries,
        "  </playlist>",
        f'  <tractor id="tractor0" title="Shotcut version 22.12.21" in="{_tc(0)}" '
        f'out="{_tc(total - 1)}">\n    <property name="shotcut">1</property>\n'
        '    <track producer="background"/>\n    <track producer="playlist0"/>\n'
        '    <transition id="transition0">\n      <property name="a_track">0</property>\n'
        '      <property name="b_track">1</property>\n'
        '      <property name="mlt_service">mix</property>\n'
        '      <property name="always_active">1</property>\n'
        '      <property name="sum">1</property>\n    </transition>\n  </tractor>',
        "</mlt>",
    ]) + "\n"  # fmt: skip
