"""Where episodes live on the host, and who they run as: one *slot* per running episode.

A slot is a number ``n`` with a user id (:data:`FIRST_UID` + ``n``, no other user has it) and
a folder ``<tmp>/gcc-sandbox/ep-<n>/`` holding the episode's home (a tmpfs of its own where
mounting is allowed), its ``passwd``/``group`` files and a lock. A small *reaper* (``sh``, in
a session of its own) shares the lock and waits on a pipe only the owning process writes to:
when the owner releases the slot, or dies in any way, the reaper unmounts the home, removes
the folder and exits, and only then is the lock dropped. A folder whose lock nobody holds is
stale (its reaper was killed too) and the next slot taken removes it.
"""

from __future__ import annotations

import fcntl
import logging
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

from gcc_envs.errors import BackendError

log = logging.getLogger(__name__)

#: The user id of slot 0 (slots count up from it; far above any account a system creates).
FIRST_UID = 3_700_000
#: How many episodes may run at once on one machine.
SLOTS = 4096
#: The name the episode's user has inside (OSWorld's VM user).
USER = "user"


def root() -> Path:
    """The folder of every slot on this machine (made on first use, only root may write)."""
    top = Path(tempfile.gettempdir()) / "gcc-sandbox"
    top.mkdir(mode=0o711, exist_ok=True)
    if top.is_symlink() or top.stat().st_uid != os.geteuid():
        raise BackendError(f"{top} is not gcc-gym's own folder (a link, or another user's)")
    return top


class Slot:
    """A slot taken by this process (see the module docstring); :meth:`release` frees it."""

    def __init__(self, home_size: int | None) -> None:
        top = root()
        remove_stale(top)
        taken = first_free(top, "ep", range(SLOTS))
        if taken is None:
            raise BackendError(f"all {SLOTS} episode slots are taken on this machine")
        self.n, self._lock = taken
        try:
            self._make(top, home_size)
        except BaseException:
            _remove(top / f"ep-{self.n}")
            os.close(self._lock)
            raise

    def _make(self, top: Path, home_size: int | None) -> None:
        self.uid = self.gid = FIRST_UID + self.n
        self.dir = top / f"ep-{self.n}"
        _remove(self.dir)  # a stale one that the scan above raced with
        self.dir.mkdir(mode=0o711)
        self.home = self.dir / "home"
        self.home.mkdir(mode=0o700)
        self.mounted = home_size is not None and _mount_tmpfs(self.home, home_size, self.uid)
        os.chown(self.home, self.uid, self.gid)
        self.passwd, self.group = self.dir / "passwd", self.dir / "group"
        self.passwd.write_text(_with_line(Path("/etc/passwd"), f"{USER}:x:{self.uid}:{self.gid}:"
                                          f"gcc-gym episode:/home/{USER}:/bin/bash"))  # fmt: skip
        self.group.write_text(_with_line(Path("/etc/group"), f"{USER}:x:{self.gid}:"))
        self._reaper, self._life = _reaper(self.dir, self._lock)

    def release(self) -> None:
        """Remove the folder (and the home's filesystem) and free the slot (idempotent)."""
        if self._lock < 0:
            return
        try:
            os.close(self._life)
            try:
                self._reaper.wait(timeout=30)
            except subprocess.TimeoutExpired:
                log.warning("the reaper of %s took over 30 s; removing it here", self.dir)
                _remove(self.dir)
        finally:
            os.close(self._lock)
            self._lock = -1


#: The reaper: wait for the owner's pipe to close, then unmount the home and remove the folder.
_REAP = 'read -r _; umount --lazy "$1/home" 2>/dev/null; rm -rf --one-file-system "$1"'


def _reaper(folder: Path, lock: int) -> tuple[subprocess.Popen[bytes], int]:
    """Start the reaper of ``folder`` (holding ``lock`` too); returns it and the pipe's end."""
    life_r, life_w = os.pipe()
    try:
        proc = subprocess.Popen(
            ["/bin/sh", "-c", _REAP, "gcc-reaper", str(folder)], stdin=life_r,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=(lock,),
            start_new_session=True,
        )  # fmt: skip
    finally:
        os.close(life_r)
    os.set_inheritable(life_w, False)
    return proc, life_w


def first_free(
    top: Path, kind: str, numbers: Iterable[int], busy: Callable[[int], bool] = lambda n: False
) -> tuple[int, int] | None:
    """The first of ``numbers`` whose lock ``top/<kind>-<n>.lock`` no process holds and that is
    not ``busy`` (asked before and after locking), with the lock now held (an open fd)."""
    for n in numbers:
        if busy(n):
            continue
        fd = os.open(top / f"{kind}-{n}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        if busy(n):  # taken between the test and the lock
            os.close(fd)
            continue
        return n, fd
    return None


def remove_stale(top: Path) -> list[Path]:
    """Remove the folders of slots whose owner died without closing; returns them."""
    removed = []
    for lock in top.glob("ep-*.lock"):
        folder = lock.with_suffix("")
        if not folder.exists():
            continue
        fd = os.open(lock, os.O_RDWR | os.O_CLOEXEC)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            continue  # a live episode
        finally:
            os.close(fd)  # (closing drops the lock again)
        log.info("removing %s: its episode's process died without closing it", folder)
        _remove(folder)
        removed.append(folder)
    return removed


def _remove(folder: Path) -> None:
    home = folder / "home"
    if os.path.ismount(home):
        subprocess.run(["umount", "--lazy", str(home)], check=False, capture_output=True)
    shutil.rmtree(folder, ignore_errors=True)


def _mount_tmpfs(path: Path, size: int, uid: int) -> bool:
    """Mount a tmpfs of ``size`` bytes at ``path`` owned by ``uid``; False where not allowed."""
    opts = f"size={size},mode=0700,uid={uid},gid={uid},nosuid,nodev"
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "gcc-home", str(path)],
                          capture_output=True, text=True, check=False)  # fmt: skip
    if done.returncode:
        log.warning("the episode home has no size limit: mount refused (%s)", done.stderr.strip())
    return done.returncode == 0


def _with_line(path: Path, line: str) -> str:
    try:
        text = path.read_text()
    except OSError:
        text = ""
    return text + ("" if text.endswith("\n") or not text else "\n") + line + "\n"
