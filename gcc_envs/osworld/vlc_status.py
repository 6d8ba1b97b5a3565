"""Print what VLC is playing, as JSON, from its MPRIS interface (a helper program).

Run with the system Python that has PyGObject (Debian ``python3-gi``), inside the episode's
environment (its D-Bus session bus)::

    /usr/bin/python3 vlc_status.py

prints ``{"state": "playing"|"paused"|"stopped", "url": ..., "title": ...}`` (``url`` and
``title`` from the track's ``xesam:`` metadata, ``null`` when absent) and exits 0; exits 1
with a line on stderr when no VLC is on the bus (VLC exposes MPRIS only when started with
``--dbus``). Only the standard library and PyGObject are imported.
"""

from __future__ import annotations

import json
import sys

BUS_NAME = "org.mpris.MediaPlayer2.vlc"
PLAYER = "org.mpris.MediaPlayer2.Player"


def main() -> int:
    import gi

    gi.require_version("Gio", "2.0")
    from gi.repository import Gio, GLib

    try:
        bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        reply = bus.call_sync(
            BUS_NAME, "/org/mpris/MediaPlayer2", "org.freedesktop.DBus.Properties", "GetAll",
            GLib.Variant("(s)", (PLAYER,)), GLib.VariantType("(a{sv})"),
            Gio.DBusCallFlags.NONE, 5000, None,
        )  # fmt: skip
    except GLib.Error as e:
        print(f"vlc_status: no VLC on the session bus: {e.message}", file=sys.stderr)
        return 1
    props = reply.unpack()[0]
    meta = props.get("Metadata") or {}
    state = str(props.get("PlaybackStatus", "Stopped")).lower()
    print(json.dumps({"state": state, "url": meta.get("xesam:url"),
                      "title": meta.get("xesam:title")}))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
