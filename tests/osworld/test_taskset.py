"""``taskset.expand``: task files, folders and OSWorld's index files named at once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gcc_envs.errors import DataError
from gcc_envs.osworld.taskset import expand

TASK = {"id": "", "instruction": "Do it.", "config": [], "evaluator": {"func": "infeasible"}}


def _tree(root: Path, layout: dict[str, list[str]], under: str = "examples") -> None:
    for domain, ids in layout.items():
        folder = root / under / domain
        folder.mkdir(parents=True, exist_ok=True)
        for task_id in ids:
            (folder / f"{task_id}.json").write_text(json.dumps({**TASK, "id": task_id}))


def test_an_index_names_its_tasks_in_order_and_each_once(tmp_path: Path) -> None:
    layout = {"os": ["b", "a"], "vlc": ["c"]}
    _tree(tmp_path, layout)
    index = tmp_path / "test_all.json"
    index.write_text(json.dumps(layout))
    got = expand([index, tmp_path / "examples" / "os" / "a.json", index])
    assert [Path(p).stem for p in got] == ["b", "a", "c"]


def test_a_folder_gives_its_task_files_and_skips_other_json(tmp_path: Path) -> None:
    _tree(tmp_path, {"vlc": ["z"], "os": ["y"]}, under="tasks")
    (tmp_path / "tasks" / "settings.json").write_text('{"theme": "dark"}')
    assert [Path(p).stem for p in expand([tmp_path])] == ["y", "z"]


def test_what_cannot_be_found_is_a_clear_error(tmp_path: Path) -> None:
    index = tmp_path / "test_all.json"
    index.write_text(json.dumps({"os": ["nowhere"]}))
    with pytest.raises(DataError, match="os/nowhere"):
        expand([index])
    with pytest.raises(DataError, match="no OSWorld task files"):
        expand([tmp_path])
    with pytest.raises(DataError, match="no such task file"):
        expand([tmp_path / "missing.json"])
    assert expand(["030eeff7"]) == ["030eeff7"]  # a bundled id passes through
