"""The ``gcc-gym`` subcommands, a module each.

Every command module has ``add_parser(subparsers)``, which adds its parser (or parsers) and
sets the ``handler`` default to the function that runs it: ``handler(args) -> exit code``.
:mod:`agents.cli` adds them in :data:`MODULES` order and calls ``args.handler(args)``.
"""

from __future__ import annotations

#: The command modules, in the order ``gcc-gym --help`` lists them.
MODULES = (
    "agents.commands.list_ids",
    "agents.commands.run",
    "agents.commands.replay",
    "agents.commands.export",
    "agents.sb3.cli",
    "agents.commands.play",
    "agents.commands.serve_desktop",
    "agents.commands.calibrate",
    "agents.osworld_cli",
    "agents.bench.cli",
    "agents.friday.cli",
)
