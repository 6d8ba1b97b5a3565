"""``run_isolated``: a program on untrusted bytes in a throwaway sandbox — it reads its input,
writes nothing outside, reaches no network, and ends at its deadline."""

from __future__ import annotations

from pathlib import Path

import pytest

from gcc_envs.errors import GCCError
from gcc_envs.sandbox import bwrap_missing
from gcc_envs.sandbox.isolated import run_isolated

pytestmark = pytest.mark.skipif(bwrap_missing() is not None, reason=str(bwrap_missing()))


def test_the_program_gets_the_bytes_and_reaches_nothing_outside(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir(mode=0o777)
    script = (f"wc -c; id -u; touch {out}/x /etc/x 2>/dev/null; "
              "exec 3<>/dev/tcp/1.1.1.1/53 2>/dev/null && echo online || echo offline")  # fmt: skip
    code, stdout, _ = run_isolated(["bash", "-c", script], b"12345")
    lines = stdout.decode().split()
    assert code == 0 and lines[0] == "5" and lines[1] != "0" and lines[2] == "offline"
    assert list(out.iterdir()) == [] and not Path("/etc/x").exists()


def test_a_runaway_ends_at_its_deadline_and_a_missing_program_is_named() -> None:
    with pytest.raises(GCCError, match="ran past 1 s"):
        run_isolated(["bash", "-c", "while :; do :; done"], b"", timeout_s=1.0)
    with pytest.raises(GCCError, match="no-such-decoder is not installed"):
        run_isolated(["no-such-decoder"], b"")
