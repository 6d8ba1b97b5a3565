"""Task files load from a path, an id or a dict; bad ones say which field is wrong."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gcc_envs.errors import DataError
from gcc_envs.osworld import SUITE
from gcc_envs.osworld.bundled import BUNDLED
from gcc_envs.osworld.episode import unsupported
from gcc_envs.osworld.taskfile import bundled_paths, bundled_tasks, load_task, localize


def test_the_44_bundled_tasks_load_and_match_the_registered_table() -> None:
    tasks = bundled_tasks()
    assert len(tasks) == 45
    assert [(t.domain, t.id, t.evaluator.infeasible) for t in tasks] == list(BUNDLED)
    assert len({t.env_name for t in tasks}) == 45
    assert {t.name for t in SUITE.tasks} == {t.env_name for t in tasks}


def test_bundled_files_are_osworld_s_unchanged_with_their_notice() -> None:
    root = Path(__file__).parents[2] / "gcc_envs/osworld/data/tasks"
    assert "Apache License" in (root / "NOTICE.txt").read_text()
    for domain, file in bundled_paths():
        data = json.loads(file.read_text())
        assert file.name == f"{data['id']}.json" and file.parent.name == domain


def test_at_most_six_tasks_are_unsupported_and_each_says_why() -> None:
    reasons = unsupported()
    assert len(reasons) <= 6 and all(len(r) > 40 for r in reasons.values())
    assert set(reasons) <= {t.id for t in bundled_tasks()}


def test_a_task_loads_from_a_path_an_id_or_a_dict(tmp_path: Path) -> None:
    by_id = load_task("e0df059f")
    path = tmp_path / "os" / f"{by_id.id}.json"
    path.parent.mkdir()
    path.write_text(next(f for _, f in bundled_paths() if f.name == path.name).read_text())
    by_path = load_task(path)
    by_dict = load_task(json.loads(path.read_text()), domain="os")
    assert by_id.evaluator == by_path.evaluator == by_dict.evaluator
    assert by_path.domain == "os" and by_dict.env_name == "os-e0df059f"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"instruction": "x", "evaluator": {"func": "exact_match"}}, "'id'"),
        ({"id": "a/../b", "instruction": "x", "evaluator": {"func": "x"}}, "'id' may hold"),
        ({"id": "a", "instruction": "", "evaluator": {"func": "x"}}, "'instruction'"),
        ({"id": "a", "instruction": "x"}, "no 'evaluator'"),
        ({"id": "a", "instruction": "x", "evaluator": {"func": 3}}, "evaluator.func"),
        ({"id": "a", "instruction": "x", "evaluator": {"func": "x", "conj": "xor"}}, "conj"),
        (
            {
                "id": "a",
                "instruction": "x",
                "config": [{"parameters": {}}],
                "evaluator": {"func": "x"},
            },
            "config[0]",
        ),
    ],
)
def test_bad_task_files_name_the_field(data: dict, message: str) -> None:
    with pytest.raises(DataError, match=message.replace("[", r"\[").replace("]", r"\]")):
        load_task(data)


def test_unknown_ids_and_missing_files_are_data_errors(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="neither"):
        load_task("ffffffff")
    with pytest.raises(DataError, match="no such task file"):
        load_task(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(DataError, match="cannot read"):
        load_task(tmp_path / "bad.json")


def test_localize_maps_only_osworld_s_home() -> None:
    value = {"a": ["/home/user/Desktop", "/home/username", "~/x", "cd /home/user && ls"]}
    assert localize(value, "/h") == {"a": ["/h/Desktop", "/home/username", "/h/x", "cd /h && ls"]}
