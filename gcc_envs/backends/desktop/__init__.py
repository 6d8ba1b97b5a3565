"""The desktop backend: real windows on X11 (Linux). Windows and macOS paths are not yet written."""
