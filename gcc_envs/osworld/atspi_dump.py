"""Print the desktop's AT-SPI accessibility tree as XML in OSWorld's format (a helper program).

Run with the system Python that has ``pyatspi`` (Debian ``python3-pyatspi``), inside the
episode's environment (its D-Bus session bus): ``/usr/bin/python3 atspi_dump.py [APP...]``.
Elements are named by role (``split pane`` → ``split-pane``), with ``name``, the states
(``st:visible="true"``) and component geometry (``cp:screencoord``, ``cp:parentcoord``,
``cp:size``) in OSWorld's namespaces. Only the standard library and pyatspi are imported;
the walk stops at :data:`MAX_NODES` nodes, :data:`MAX_DEPTH` levels or :data:`MAX_S` seconds.
"""

from __future__ import annotations

import sys
import time
import xml.etree.ElementTree as ET

ST = "uri:deskat:state.at-spi.gnome.org"
CP = "uri:deskat:component.at-spi.gnome.org"
MAX_NODES = 20_000
MAX_DEPTH = 40
MAX_S = 20.0


def main(apps: list[str]) -> int:
    import pyatspi  # the system Python's binding; not a dependency of gcc-gym

    ET.register_namespace("st", ST)
    ET.register_namespace("cp", CP)
    deadline = time.monotonic() + MAX_S
    count = [0]

    def node(obj, parent, depth: int) -> None:  # noqa: ANN001 - pyatspi objects
        if count[0] >= MAX_NODES or time.monotonic() > deadline:
            return
        try:
            role = obj.getRoleName().replace(" ", "-") or "unknown"
            el = ET.SubElement(parent, role)
            count[0] += 1
            if obj.name:
                el.set("name", obj.name)
            for state in obj.getState().getStates():
                el.set(f"{{{ST}}}{pyatspi.stateToString(state).replace(' ', '-')}", "true")
            try:
                comp = obj.queryComponent()
                el.set(f"{{{CP}}}screencoord", str(tuple(comp.getPosition(pyatspi.XY_SCREEN))))
                el.set(f"{{{CP}}}parentcoord", str(tuple(comp.getPosition(pyatspi.XY_PARENT))))
                el.set(f"{{{CP}}}size", str(tuple(comp.getSize())))
            except NotImplementedError:
                pass
            children = obj.childCount
        except Exception:  # noqa: BLE001 - a widget may vanish while it is read
            return
        if depth >= MAX_DEPTH:
            return
        for i in range(min(children, 500)):
            try:
                child = obj.getChildAtIndex(i)
            except Exception:  # noqa: BLE001
                continue
            if child is not None:
                node(child, el, depth + 1)

    root = ET.Element("desktop-frame")
    desktop = pyatspi.Registry.getDesktop(0)
    for i in range(desktop.childCount):
        app = desktop.getChildAtIndex(i)
        if app is None or (apps and (app.name or "") not in apps):
            continue
        node(app, root, 0)
    sys.stdout.write(ET.tostring(root, encoding="unicode"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
