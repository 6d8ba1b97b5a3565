"""The desktop backend: real windows, real input.

Linux/X11 runs end to end (``x11.py``, ``backend.py``, exercised under Xvfb). The Windows
(SendInput with scan codes, raw relative mouse) and macOS (Quartz events) input modules share
the X11 input interface; only their translation logic (``keymaps.py``, ``inputfields.py``) is
tested here, on Linux.
"""
