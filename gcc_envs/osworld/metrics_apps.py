"""OSWorld's metrics over applications' own files: VLC's ``vlcrc``, GIMP's rc files, AT-SPI.

Pure functions of the file's text. VLC writes each option once, commented out (``#key=value``)
while it has its default, and uncommented once set; :func:`vlcrc_value` reads the last
uncommented setting and falls back to VLC's default, as OSWorld's VLC metrics intend.

>>> vlcrc_value("[qt]\\n#qt-max-volume=125\\nqt-max-volume=200\\n", "qt-max-volume", "125")
'200'
>>> check_config_status('# GIMP gimprc\\n(theme "Light")\\n', {"key": "theme", "value": '"Light"'})
1.0
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any

Rule = Mapping[str, Any]


def _score(ok: bool) -> float:
    return 1.0 if ok else 0.0


def vlcrc_value(text: str, key: str, default: str) -> str:
    """The value VLC uses for ``key``: its last uncommented line, else ``default``."""
    value = default
    for line in text.splitlines():
        name, eq, rest = line.strip().partition("=")
        if eq and name == key:
            value = rest.strip()
    return value


def _vlc(key: str, rule_key: str, default: str):  # noqa: ANN202 - a metric factory
    def metric(text: str | None, rule: Rule) -> float:
        if text is None:
            return 0.0
        return _score(vlcrc_value(text, key, default) == str(rule[rule_key]))

    metric.__name__ = f"check_{key}"
    metric.__doc__ = f"VLC's ``{key}`` (default {default}) equals the rule's ``{rule_key}``."
    return metric


check_play_and_exit = _vlc("play-and-exit", "expected_play_and_exit", "0")
check_qt_max_volume = _vlc("qt-max-volume", "expected_qt_max_volume", "125")
check_qt_minimal_view = _vlc("qt-minimal-view", "expected_qt_minimal_view", "0")
check_one_instance_when_started_from_file = _vlc(
    "one-instance-when-started-from-file", "expected_one_instance_when_started_from_file", "1"
)


def is_vlc_recordings_folder(text: str | None, rule: Rule) -> float:
    """VLC's record folder (``input-record-path``) is the expected one (trailing ``/`` aside)."""
    if text is None:
        return 0.0
    value = vlcrc_value(text, "input-record-path", "")
    return _score(value.rstrip("/") == str(rule["recording_file_path"]).rstrip("/") and value != "")


def check_config_status(text: str | None, rule: Rule) -> float:
    """A GIMP rc file has the line ``(KEY ... VALUE)`` (``key`` may be two words)."""
    if text is None:
        return 0.0
    key = rule["key"]
    for line in text.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        items = line.strip().lstrip("(").rstrip(")").split()
        if not items:
            continue
        if isinstance(key, str) and items[0] == key and items[-1] == rule["value"]:
            return 1.0
        if (
            isinstance(key, list) and len(key) == 2 and len(items) >= 3
            and items[:2] == key and items[-1] == rule["value"]
        ):  # fmt: skip
            return 1.0
    return 0.0


_CP = "{uri:deskat:component.at-spi.gnome.org}"
_ST = "{uri:deskat:state.at-spi.gnome.org}"


def check_left_panel(tree: str | None) -> float:
    """Impress's slide pane: a visible split pane at (0, 0) of a panel of its root pane."""
    if not tree:
        return 0.0
    try:
        root = ET.fromstring(tree)
    except ET.ParseError:
        return 0.0
    for root_pane in root.iter("root-pane"):
        for panel in root_pane.iter("panel"):
            for split in panel.iter("split-pane"):
                if split.get(_CP + "parentcoord") == "(0, 0)" and split.get(_ST + "visible"):
                    return 1.0
    return 0.0


APP_METRICS = {
    "check_play_and_exit": check_play_and_exit, "check_qt_max_volume": check_qt_max_volume,
    "check_qt_minimal_view": check_qt_minimal_view,
    "check_one_instance_when_started_from_file": check_one_instance_when_started_from_file,
    "is_vlc_recordings_folder": is_vlc_recordings_folder,
    "check_config_status": check_config_status, "check_left_panel": check_left_panel,
}  # fmt: skip
