"""Every desktop episode in its own OS sandbox, built on bubblewrap (Debian ``bubblewrap``).

A :class:`Sandbox` is one episode's slice of the machine, made of the kernel's namespaces as
Flatpak uses them: its own mount namespace (the system read-only, the episode's home the only
writable place besides a private ``/tmp``, seen at ``/home/user``), its own PID namespace
(every program of the episode ends with it, however the Python process that holds it ends),
its own network namespace with loopback only, an unprivileged user of its own, and limits
(processes, file size, open files; memory and CPU time per command). Programs and commands are
started inside it with :meth:`Sandbox.spawn` and :meth:`Sandbox.run`; capture and input stay
in the calling process, which reaches the episode's loopback only through
:meth:`Sandbox.connect`.

A :class:`Lifeline` is the PID namespace alone (no isolation): the virtual display's X server
and window manager live in one, so they too end when the process holding them dies.

What it does not isolate: one kernel and, per env, one X server shared by the episodes it runs.
"""

from gcc_envs.sandbox.groups import inner_pid
from gcc_envs.sandbox.holder import Lifeline, bwrap_missing
from gcc_envs.sandbox.limits import Limits
from gcc_envs.sandbox.sandbox import Sandbox, SandboxError

__all__ = ["Lifeline", "Limits", "Sandbox", "SandboxError", "bwrap_missing", "inner_pid"]
