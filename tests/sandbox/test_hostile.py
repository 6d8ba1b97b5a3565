"""A hostile task file's commands, run in an episode's sandbox: nothing leaves the episode.

Each test runs what an attack on the hand-written containment did (issue 23) in real bash
inside a sandbox, and checks from outside that nothing was created or read outside the
episode, nothing ran past its deadline, the limits held, and nothing is left after close.
"""

from __future__ import annotations

import os
import resource
import socket
import threading
import time
from pathlib import Path

import pytest
from sandbox_helpers import processes_of, wait_until

from gcc_envs.sandbox import Limits, Sandbox


def bash(box: Sandbox, script: str, timeout_s: float = 10.0):
    return box.run(["bash", "-c", script], timeout_s)


def test_commands_run_as_the_episodes_own_user_in_its_home(box: Sandbox) -> None:
    result = bash(box, "id -u; whoami; echo $HOME; pwd; touch /home/user/a && ls $HOME")
    assert result.stdout.split() == [str(box.uid), "user", str(box.home), str(box.home), "a"]
    assert (box.home / "a").exists()  # /home/user is the same home


def test_launch_style_escapes_write_nothing_outside(box: Sandbox, tmp_path: Path) -> None:
    marker = tmp_path / "escaped"
    for argv in (
        ["sh", "-c", f"id > {marker}"],  # ["xterm", "-e", "sh", "-c", ...] without the window
        ["env", f"XDG_CONFIG_HOME={tmp_path}", "sh", "-c", 'touch "$XDG_CONFIG_HOME/x"'],
        ["touch", "/etc/gcc-escaped", "/usr/gcc-escaped", "/var/gcc-escaped"],
    ):
        box.run(argv, 5)
    assert list(tmp_path.iterdir()) == []
    assert not any(Path(p).exists() for p in ("/etc/gcc-escaped", "/usr/gcc-escaped"))


def test_a_symlink_planted_in_the_home_is_not_written_through(box: Sandbox, tmp_path: Path) -> None:
    target = tmp_path / "victim"
    target.write_text("untouched")
    result = bash(box, f"ln -s {target} link; echo owned > link; ln -s /etc/hostname h; "
                       "echo owned > h; cat link")  # fmt: skip
    assert target.read_text() == "untouched"
    assert "No such file" in result.stderr or "Read-only" in result.stderr


def test_daemons_die_with_the_sandbox(make_sandbox) -> None:
    box = make_sandbox()
    bash(box, "setsid -f sleep 1000 >/dev/null 2>&1; (sleep 1000 &) ; "
              "nohup sh -c 'sleep 1000' >/dev/null 2>&1 &")  # fmt: skip
    assert len(processes_of(box.uid)) >= 3  # they outlive the command, as on a machine
    box.close()
    assert wait_until(lambda: not processes_of(box.uid), 5)
    assert not box.home.exists()


def test_a_fork_bomb_stops_at_the_process_limit(make_sandbox) -> None:
    box = make_sandbox(Limits(processes=64))
    peak = []
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set():
            peak.append(len(processes_of(box.uid)))
            time.sleep(0.05)

    watcher = threading.Thread(target=watch)
    watcher.start()
    t0 = time.monotonic()
    result = bash(box, "bomb() { bomb | bomb & }; bomb", timeout_s=3)
    time.sleep(1)
    stop.set()
    watcher.join()
    assert time.monotonic() - t0 < 6
    assert max(peak) <= 64, (max(peak), result)
    box.close()
    assert wait_until(lambda: not processes_of(box.uid), 5)


@pytest.mark.parametrize("tool", ["grep -E '(a+)+$'", "sed -E 's/(a+)+$/x/'"])
def test_catastrophic_regexes_finish_in_time(box: Sandbox, tool: str) -> None:
    t0 = time.monotonic()
    result = bash(
        box, f"head -c 30000 /dev/zero | tr '\\0' a | {{ cat; echo b; }} | {tool} | wc -c"
    )
    assert time.monotonic() - t0 < 5 and not result.timed_out


def test_a_command_past_its_deadline_is_stopped(box: Sandbox) -> None:
    t0 = time.monotonic()
    result = bash(box, "while :; do :; done", timeout_s=1)
    assert result.timed_out and time.monotonic() - t0 < 3
    assert wait_until(lambda: not processes_of(box.uid), 3)


def test_output_amplification_is_cut_without_memory(box: Sandbox) -> None:
    bash(box, "head -c 1000000 /dev/urandom > big")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result = bash(box, "for i in $(seq 500); do cat big; done", timeout_s=20)
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert "output passed" in result.stderr and not result.timed_out
    assert len(result.stdout.encode("utf-8", "surrogateescape")) <= 4 * box.limits.output
    assert grown_mb < 100


def test_disk_writes_stop_at_the_file_and_home_limits(make_sandbox) -> None:
    box = make_sandbox(Limits(file_size=8 << 20, home_size=32 << 20))
    result = bash(box, "for i in $(seq 200); do head -c 1000000 /dev/zero >> log; done; "
                       "for i in $(seq 10); do head -c 8000000 /dev/zero > f$i; done; du -sb .",
                  timeout_s=20)  # fmt: skip
    used = sum(f.stat().st_size for f in box.home.iterdir())
    assert (box.home / "log").stat().st_size <= 8 << 20
    assert used <= 32 << 20, result
    assert "File size limit" in result.stderr or "No space" in result.stderr


def test_proc_sys_and_devices_are_not_writable(box: Sandbox) -> None:
    before = Path("/proc/sys/kernel/hostname").read_text()
    result = bash(box, "echo evil > /proc/sys/kernel/hostname; echo x > /proc/sysrq-trigger; "
                       "ls /dev; echo x > /dev/sda; hostname")  # fmt: skip
    assert Path("/proc/sys/kernel/hostname").read_text() == before
    assert "sda" not in result.stdout.split() and "vda" not in result.stdout.split()
    assert result.stdout.split()[-1] == socket.gethostname()  # its own, named as the host's


def test_the_network_is_the_episodes_own_loopback(box: Sandbox) -> None:
    with socket.socket() as server:  # a service on the host's loopback
        server.bind(("127.0.0.1", 0))
        server.listen()
        server.settimeout(0.5)
        port = server.getsockname()[1]
        result = bash(box, f"echo hi > /dev/tcp/127.0.0.1/{port} && echo reached; "
                           "echo hi > /dev/tcp/192.0.2.1/80 && echo reached; ip -o link | wc -l",
                      timeout_s=5)  # fmt: skip
        with pytest.raises(socket.timeout):
            server.accept()
    assert "reached" not in result.stdout
    assert result.stdout.split()[-1] == "1"  # lo only


def test_the_host_reaches_the_episodes_loopback_only_through_the_sandbox(box: Sandbox) -> None:
    port = box.free_port()
    box.spawn(["python3", "-m", "http.server", str(port), "--bind", "127.0.0.1"])
    assert wait_until(lambda: _connects(box, port), 10)
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()


def _connects(box: Sandbox, port: int) -> bool:
    try:
        box.connect(port, 0.2).close()
        return True
    except OSError:
        return False


def test_another_episodes_home_cannot_be_read(make_sandbox) -> None:
    a, b = make_sandbox(), make_sandbox()
    (a.home / "secret").write_text("a's")
    os.chown(a.home / "secret", a.uid, a.gid)
    result = bash(b, f"cat {a.home}/secret; ls {a.home.parent}; ls /tmp; cat /home/user/secret; "
                     f"kill -9 -1; echo USERS; ps -e -o user= | sort -u")  # fmt: skip
    assert "a's" not in result.stdout
    assert (a.home / "secret").read_text() == "a's"
    assert bash(a, "cat secret").stdout == "a's"  # a is alive after b's kill -1
    assert set(result.stdout.split("USERS")[1].split()) <= {"user", "root"}


def test_sudo_runs_the_command_as_the_episodes_user(box: Sandbox) -> None:
    result = box.run(["bash", "-c", "echo password | sudo -S id -u; sudo -E whoami"], 5)
    assert result.stdout.split() == [str(box.uid), "user"]


def test_a_closed_sandbox_refuses_and_leaves_nothing(box: Sandbox) -> None:
    folder = box.home.parent
    box.close()
    box.close()  # idempotent
    assert not folder.exists()
    with pytest.raises(Exception, match="closed"):
        box.run(["true"])


def test_the_home_stays_writable_when_the_import_path_names_tmp(make_sandbox, monkeypatch) -> None:
    # a script run from /tmp puts /tmp on sys.path: it must not cover the private /tmp
    monkeypatch.syspath_prepend("/tmp")
    box = make_sandbox()
    result = bash(box, f"touch {box.home}/a /home/user/b && ls {box.home}; ls /tmp")
    assert result.stdout.split()[:2] == ["a", "b"], result
    assert "gcc-sandbox" in result.stdout and len(result.stdout.split()) == 3
