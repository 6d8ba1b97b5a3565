"""``gcc-gym serve-desktop``: this desktop over HTTP, for ``RemoteBackend``."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from agents.commands.options import warn_token_in_argv


def add_parser(sub: Any) -> None:
    p = sub.add_parser("serve-desktop", help="serve this desktop to RemoteBackend over HTTP")
    p.set_defaults(handler=run)
    p.add_argument("--token-file", help="file holding the bearer token clients must send")
    p.add_argument("--token", help="the token itself (shown by ps; or GCC_REMOTE_TOKEN)")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default: loopback)")
    p.add_argument("--port", type=int, default=8765, help="port (0: any free port)")
    p.add_argument("--display", help="X display to serve, e.g. :0 (default: start own Xvfb)")
    p.add_argument("--screen-size", type=int, nargs=2, default=(1280, 720), metavar=("W", "H"))
    p.add_argument("--pause", default="signal", choices=["signal", "focus", "none"])
    p.add_argument("--target", help="title regex of the window to drive (default: the screen)")
    p.add_argument("--idle-s", type=float, default=30.0, help="release held input after idle")
    p.add_argument(
        "--state-file",
        help="the one file clients may read: a program's published state, which a "
        "judge='state-file:PATH' env reads (the server judges nothing)",
    )
    p.add_argument(
        "--allow-launch", action="store_true", help="let clients start programs (argv, no shell)"
    )


def run(args: argparse.Namespace) -> int:
    from gcc_envs.backends.desktop.server import ServerConfig, serve
    from gcc_envs.backends.desktop.service import ServiceConfig
    from gcc_envs.httpd import read_token

    config = ServerConfig(
        token=read_token(args.token, args.token_file, os.environ),
        host=args.host,
        port=args.port,
        service=ServiceConfig(
            display=args.display,
            screen_size=tuple(args.screen_size),
            pause=args.pause,
            target=args.target,
            allow_launch=args.allow_launch,
            idle_s=args.idle_s,
            state_file=args.state_file,
        ),
    )
    warn_token_in_argv(args.token)
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(
            f"gcc-gym: warning: listening on {args.host}: anyone who can reach it with the token "
            "controls this desktop, and plain HTTP carries the token unencrypted (prefer an SSH "
            "tunnel to the loopback default)",
            file=sys.stderr,
        )
    serve(config, announce=lambda url: print(f"serving on {url}", flush=True))
    return 0
