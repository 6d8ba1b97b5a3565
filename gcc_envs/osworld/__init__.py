"""OSWorld on a local desktop: task files in, execution-based scores out (``GCC/OSWorld``)."""
