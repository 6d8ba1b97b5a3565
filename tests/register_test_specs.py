"""A pytest plugin (``-p register_test_specs`` in pyproject.toml): every test session registers
the specs in ``tests/specs/`` (games that live only in the tests, like the toy game), so the
spec-driven suites cover them with no other edit; and ``--doctest-modules`` reads the packages'
docstrings, not the files of ``tests/`` (its ``conftest.py`` files, imported as doctest
modules all named ``conftest``, made any two test folders fail to collect together)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from _pytest.doctest import DoctestModule

from gcc_envs.registration import register_spec

TESTS = Path(__file__).resolve().parent


def _register_test_specs() -> None:
    import sys
    import types

    package = types.ModuleType("gcc_test_specs")  # so pickle can import the specs' modules
    package.__path__ = [str(Path(__file__).parent / "specs")]
    sys.modules.setdefault("gcc_test_specs", package)
    for path in sorted((Path(__file__).parent / "specs").glob("*.py")):
        spec = importlib.util.spec_from_file_location(f"gcc_test_specs.{path.stem}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        for name in ("GAME", "SUITE"):
            if hasattr(module, name):
                register_spec(getattr(module, name))


@pytest.hookimpl(wrapper=True)
def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> object:
    collected = yield
    if TESTS in Path(file_path).resolve().parents:
        return [c for c in collected if not isinstance(c, DoctestModule)]
    return collected


_register_test_specs()
