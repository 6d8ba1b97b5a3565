"""Print the desktop's AT-SPI accessibility tree as XML in OSWorld's format (a helper program).

Run with the system Python that has ``pyatspi`` (Debian ``python3-pyatspi``), inside the
episode's environment (its D-Bus session bus and AT-SPI bus)::

    /usr/bin/python3 atspi_dump.py [--format osworld|deskat] [--deadline S] [--max-nodes N] [APP...]

The root is ``desktop-frame``; each application and each of its accessible objects is an
element named by its role (``push button`` → ``push-button``) with ``name``, its states
(``st:showing="true"``), its object attributes (``attr:``), where it is on the screen
(``cp:screencoord="(x, y)"``, ``cp:size="(w, h)"``, for what is visible and showing), its value
(``val:value``/``min``/``max``/``step``), its actions (``act:click_desc``, ``act:click_kb``),
``image="true"`` and ``selection="true"`` where it has those interfaces, and its text as the
element's text: what OSWorld's VM server gives its agents on Ubuntu. ``--format osworld`` puts
these in the namespaces of OSWorld's current server (``https://accessibility.ubuntu.example.org/
ns/state``...), which its agents' ``linearize_accessibility_tree`` reads; ``deskat`` (the
default) in its earlier ``uri:deskat:*.at-spi.gnome.org`` namespaces, with ``cp:parentcoord``
and every object's geometry, which its task metrics read (``check_left_panel``).

The walk is bounded: :data:`MAX_DEPTH` levels, :data:`MAX_WIDTH` children of one object (of a
spreadsheet's table, only the cells on screen), ``--max-nodes`` objects and ``--deadline``
seconds. A tree cut short says so: ``truncated="..."`` on the root, and a line on stderr.
Only the standard library and pyatspi are imported.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
import xml.etree.ElementTree as ET
from typing import Any

_UBUNTU = "https://accessibility.ubuntu.example.org/ns/"
#: Namespace prefixes and URIs of each format.
NAMESPACES = {
    "osworld": {"st": _UBUNTU + "state", "attr": _UBUNTU + "attributes",
                "cp": _UBUNTU + "component", "doc": _UBUNTU + "document",
                "docattr": _UBUNTU + "document/attributes", "txt": _UBUNTU + "text",
                "val": _UBUNTU + "value", "act": _UBUNTU + "action"},
    "deskat": {p: f"uri:deskat:{n}.at-spi.gnome.org" for p, n in
               (("st", "state"), ("attr", "attributes"), ("cp", "component"),
                ("doc", "document"), ("docattr", "documentattributes"), ("txt", "text"),
                ("val", "value"), ("act", "action"))},
}  # fmt: skip
MAX_DEPTH = 50
MAX_WIDTH = 1024
MAX_NODES = 20_000
DEADLINE_S = 10.0
#: Text longer than this (a document's, a terminal's) is cut, with "…" at the end.
MAX_TEXT = 20_000
#: A table larger than this (a spreadsheet) shows only its cells on screen, at most this many.
MAX_CELLS = 2_000

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ufffc\ufffd]")
_NOT_NAME = re.compile(r"[^A-Za-z0-9_.-]")


def xml_text(value: str) -> str:
    """``value`` without the characters XML 1.0 cannot hold (and AT-SPI's object placeholder).

    >>> xml_text("a\\x00b\\ufffcc")
    'abc'
    """
    return _NOT_XML.sub("", value)


def xml_name(value: str, default: str = "unknown") -> str:
    """An XML element or attribute name for ``value`` (a role, an action's or attribute's name).

    >>> xml_name("push button"), xml_name("3d"), xml_name("")
    ('push-button', '_3d', 'unknown')
    """
    name = _NOT_NAME.sub("-", value.strip().replace(" ", "-"))
    if not name:
        return default
    return name if name[0].isalpha() or name[0] == "_" else "_" + name


class Dump:
    """One walk of the tree; :meth:`run` returns the XML text."""

    def __init__(self, fmt: str, deadline_s: float, max_nodes: int) -> None:
        import pyatspi  # the system Python's binding; not a dependency of gcc-gym

        self.at = pyatspi
        self.ns = NAMESPACES[fmt]
        self.legacy = fmt == "deskat"
        self.deadline = time.monotonic() + deadline_s
        self.max_nodes = max_nodes
        self.count = 0
        self.truncated = ""
        self._states = pyatspi.StateType._enum_lookup  # STATE_SHOWING...
        for prefix, uri in self.ns.items():
            ET.register_namespace(prefix, uri)

    def run(self, apps: list[str]) -> str:
        root = ET.Element("desktop-frame")
        desktop = self.at.Registry.getDesktop(0)
        for i in range(desktop.childCount):
            app = desktop.getChildAtIndex(i)
            if app is None or (apps and (app.name or "") not in apps):
                continue
            self.node(app, root, 1)
        if self.truncated:
            root.set("truncated", self.truncated)
            print(f"atspi_dump: tree truncated ({self.truncated})", file=sys.stderr)
        return ET.tostring(root, encoding="unicode")

    def _stop(self) -> bool:
        if self.count >= self.max_nodes:
            self.truncated = self.truncated or f"more than {self.max_nodes} objects"
        elif time.monotonic() > self.deadline:
            self.truncated = self.truncated or "the deadline passed"
        return bool(self.truncated)

    def node(self, obj: Any, parent: ET.Element, depth: int) -> None:
        if self._stop():
            return
        try:
            el, children = self._element(obj, parent)
        except Exception:  # noqa: BLE001 - an object may vanish while it is read
            return
        self.count += 1
        if depth >= MAX_DEPTH:
            return
        if children > MAX_WIDTH and "table" in el.tag:
            for cell in self._cells_on_screen(obj):
                self.node(cell, el, depth + 1)
            return
        for i in range(min(children, MAX_WIDTH)):
            try:
                child = obj.getChildAtIndex(i)
            except Exception:  # noqa: BLE001
                continue
            if child is not None:
                self.node(child, el, depth + 1)

    def _element(self, obj: Any, parent: ET.Element) -> tuple[ET.Element, int]:
        at, ns = self.at, self.ns
        attrs: dict[str, str] = {"name": xml_text(obj.name or "")}
        states = obj.getState().getStates()
        for state in states:
            key = self._states.get(state, "").split("_", 1)[-1].lower()
            if key:
                attrs[f"{{{ns['st']}}}{key}"] = "true"
        for key, value in (obj.get_attributes() or {}).items():
            if key:
                attrs[f"{{{ns['attr']}}}{xml_name(key)}"] = xml_text(str(value))
        interfaces = set(obj.get_interfaces())
        shown = at.STATE_VISIBLE in states and at.STATE_SHOWING in states
        if "Component" in interfaces and (shown or self.legacy):
            comp = obj.queryComponent()
            x, y, w, h = comp.getExtents(at.XY_SCREEN)
            attrs[f"{{{ns['cp']}}}screencoord"] = str((x, y))
            if self.legacy:
                attrs[f"{{{ns['cp']}}}parentcoord"] = str(tuple(comp.getPosition(at.XY_PARENT)))
            attrs[f"{{{ns['cp']}}}size"] = str((w, h))
        text = ""
        if "Text" in interfaces:
            t = obj.queryText()
            count = t.characterCount
            text = xml_text(t.getText(0, min(count, MAX_TEXT)))
            if count > MAX_TEXT:
                text += "…"
        if "Image" in interfaces:
            attrs["image"] = "true"
        if "Selection" in interfaces:
            attrs["selection"] = "true"
        if "Value" in interfaces:
            v = obj.queryValue()
            for key, read in (("value", lambda: v.currentValue), ("min", lambda: v.minimumValue),
                              ("max", lambda: v.maximumValue),
                              ("step", lambda: v.minimumIncrement)):  # fmt: skip
                try:
                    attrs[f"{{{ns['val']}}}{key}"] = str(read())
                except Exception:  # noqa: BLE001 - a value the toolkit does not give
                    pass
        if "Action" in interfaces:
            a = obj.queryAction()
            for i in range(a.nActions):
                key = xml_name(a.getName(i), "action")
                attrs[f"{{{ns['act']}}}{key}_desc"] = xml_text(a.getDescription(i) or "")
                attrs[f"{{{ns['act']}}}{key}_kb"] = xml_text(a.getKeyBinding(i) or "")
        el = ET.SubElement(parent, xml_name(obj.getRoleName()), attrs)
        if text:
            el.text = text
        return el, obj.childCount

    def _cells_on_screen(self, table: Any) -> list[Any]:
        """A huge table's cells on screen (a spreadsheet has 2^34 of them): from the cell at
        its top left corner, rows and columns while they show, at most :data:`MAX_CELLS`."""
        at = self.at
        try:
            grid = table.queryTable()
            x, y, _, _ = table.queryComponent().getExtents(at.XY_SCREEN)
            first = table.queryComponent().getAccessibleAtPoint(x + 1, y + 1, at.XY_SCREEN)
            index = first.getIndexInParent()
            row0, col0 = grid.getRowAtIndex(index), grid.getColumnAtIndex(index)
        except Exception:  # noqa: BLE001 - no table interface, nothing at the corner
            self.truncated = self.truncated or "a table too large to read"
            return []
        cells: list[Any] = []
        for row in range(row0, grid.nRows):
            line = []
            for col in range(col0, grid.nColumns):
                cell = grid.getAccessibleAt(row, col)
                if cell is None or not cell.getState().contains(at.STATE_SHOWING):
                    break
                line.append(cell)
                if len(cells) + len(line) >= MAX_CELLS:
                    return cells + line
            if not line:
                break
            cells += line
        return cells


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--format", choices=sorted(NAMESPACES), default="deskat")
    p.add_argument("--deadline", type=float, default=DEADLINE_S, help="seconds")
    p.add_argument("--max-nodes", type=int, default=MAX_NODES)
    p.add_argument("apps", nargs="*", help="only these applications (by AT-SPI name)")
    args = p.parse_args(argv)
    dump = Dump(args.format, args.deadline, args.max_nodes)
    sys.stdout.write(dump.run(args.apps))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
