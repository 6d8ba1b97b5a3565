"""The package's layers, read from the source (imports inside functions included): the core
imports no layer above it, and backends know no task (no judges, games, suites or OSWorld)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1] / "gcc_envs"
#: Per layer: the packages it may not import, at module level or inside a function.
FORBIDDEN = {
    "core": ("gcc_envs.backends", "gcc_envs.judges", "gcc_envs.games", "gcc_envs.apps",
             "gcc_envs.osworld", "gcc_envs.registration", "agents", "wrappers"),
    "backends": ("gcc_envs.judges", "gcc_envs.games", "gcc_envs.apps", "gcc_envs.osworld",
                 "gcc_envs.registration", "agents", "wrappers"),
}  # fmt: skip


def imports(path: Path) -> set[str]:
    """The absolute module names ``path`` imports anywhere in it."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
    return found


def test_imports_sees_imports_inside_functions(tmp_path: Path) -> None:
    f = tmp_path / "m.py"
    f.write_text("import os\n\ndef g():\n    from gcc_envs.judges import make_judge\n")
    assert {"os", "gcc_envs.judges", "gcc_envs.judges.make_judge"} <= imports(f)


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_a_layer_imports_nothing_above_it(layer: str) -> None:
    crossed = [
        f"{path.relative_to(ROOT.parent)} imports {name}"
        for path in sorted((ROOT / layer).rglob("*.py"))
        for name in sorted(imports(path))
        if any(name == bad or name.startswith(bad + ".") for bad in FORBIDDEN[layer])
    ]
    assert not crossed, "\n".join(crossed)
