"""numba for the simulator's compiled kernels (a core dependency): :func:`compiled` compiles a
kernel kept beside the numpy code it speeds up, in the module that uses it (``raycast``,
``scene``, ``sprites``, ``minimap``, ``geometry``, ``text``, ``hands``, ``layers``), or gives
None where numba is missing or ``GCC_NO_JIT=1`` asks for the numpy path.

Each kernel does exactly the float operations of the numpy code it replaces, in the same
order, so frames are identical bit for bit with or without numba (``tests/games/rdr2/
test_render_fast.py`` renders both ways and compares; ``test_play_digests.py`` plays both ways
against committed digests). Compiling takes a second or two per kernel on first use in a
process; numba's on-disk cache (in the user's cache folder, :func:`_user_cache`) makes later
processes start at once.
"""

from __future__ import annotations

import functools
import glob
import logging
import os
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)


@functools.cache
def compiled(fn: Callable[..., Any]) -> Callable[..., Any] | None:
    """``fn`` compiled by numba (a kernel kept beside the numpy code it speeds up, in its own
    module), or None when numba is not installed or ``GCC_NO_JIT=1`` asks for the numpy
    path."""
    if os.environ.get("GCC_NO_JIT", "") not in ("", "0"):
        return None
    try:
        import numba
    except ImportError:
        return None
    _user_cache()
    return numba.njit(cache=True, nogil=True)(fn)


@functools.cache
def _user_cache() -> None:
    """numba's on-disk cache in the user's cache folder, not beside the source: the user's
    ``NUMBA_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/gcc-gym/numba`` (``~/.cache/...``); a
    note when it holds no kernels of this file yet (the first steps then compile them)."""
    from numba.core import caching, config

    if not os.environ.get("NUMBA_CACHE_DIR"):
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        os.environ["NUMBA_CACHE_DIR"] = os.path.join(base, "gcc-gym", "numba")
        config.reload_config()  # numba's compiler reloads its config from the environment
    here = os.path.join(
        config.CACHE_DIR, caching._CacheLocator.get_suitable_cache_subpath(__file__)
    )
    if not glob.glob(os.path.join(glob.escape(here), "*.nbi")):
        log.warning(
            "compiling RDR2's render kernels with numba: the first steps take up to half a "
            "minute, once (cached in %s)",
            config.CACHE_DIR,
        )
