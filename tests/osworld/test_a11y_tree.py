"""OSWorld's own agents see the desktop's accessibility tree: after OSWorld's own
``linearize_accessibility_tree`` (from PyPI's ``desktop-env``, see ``osworld_upstream``), the
trees of Chromium (its web page too), LibreOffice Impress (and Calc, where installed), GIMP and
VLC keep their objects."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest

pytestmark = [pytest.mark.desktop, pytest.mark.slow]

PAGE = ("data:text/html,<title>Form</title><h1>Shop</h1><button>Add to cart</button>"
        "<a href='%23more'>More offers</a>")  # fmt: skip
#: program → (the task's launch command, a row OSWorld's linearisation must keep).
APPS = {
    "chromium": (["google-chrome", PAGE], "push-button\tAdd to cart"),
    "soffice": (["libreoffice", "--impress"], "document-presentation\t"),
    "localc": (["libreoffice", "--calc"], "table-cell\tA1"),  # the cells on screen only
    "gimp": (["gimp"], "menu\tFile"),
    "vlc": (["vlc"], "menu-item\tMedia"),
}


def _launching(command: list[str]) -> dict[str, Any]:
    return {"id": "a11y-" + command[0], "instruction": "look", "evaluator": {"func": "infeasible"},
            "config": [{"type": "launch", "parameters": {"command": command}}]}  # fmt: skip


@pytest.fixture(scope="module")
def a11y_env() -> Iterator[Any]:
    if shutil.which("Xvfb") is None or shutil.which("openbox") is None:
        pytest.skip("needs Xvfb and openbox")
    if shutil.which("at-spi-bus-launcher", path="/usr/libexec") is None:
        pytest.skip("needs at-spi2-core and python3-pyatspi (Debian)")
    from gcc_envs.osworld import DesktopEnv

    env = DesktopEnv(action_space="pyautogui")  # OSWorld's default: require_a11y_tree=True
    yield env
    env.close()


@pytest.mark.parametrize("program", list(APPS))
def test_osworlds_linearisation_keeps_the_objects_of(
    program: str, a11y_env: Any, osworld_agent: Any
) -> None:
    if shutil.which(program) is None:
        pytest.skip(f"{program} is not installed")
    command, expected = APPS[program]
    obs = a11y_env.reset(task_config=_launching(command))
    assert ET.fromstring(obs["accessibility_tree"]).tag == "desktop-frame"
    # read again with time to spare: on a loaded machine Calc's tree can pass the 10 s deadline
    tree = a11y_env.accessibility_tree(deadline_s=60.0)
    assert tree and ET.fromstring(tree).get("truncated") is None
    rows = osworld_agent.linearize_accessibility_tree(tree, "ubuntu").splitlines()[1:]
    assert len(rows) >= 5, f"{program}: {len(rows)} rows after OSWorld's filter: {rows}"
    assert any(r.startswith(expected) for r in rows), f"no {expected!r} row in {rows}"
    assert a11y_env.controller.get_accessibility_tree().startswith("<desktop-frame")


def test_a_large_tree_is_cut_short_and_says_so(a11y_env: Any, osworld_agent: Any) -> None:
    if shutil.which("vlc") is None:
        pytest.skip("vlc is not installed")
    a11y_env.reset(task_config=_launching(["vlc"]))
    full = ET.fromstring(a11y_env.accessibility_tree())
    assert full.get("truncated") is None and sum(1 for _ in full.iter()) > 31
    cut = ET.fromstring(a11y_env.accessibility_tree(max_nodes=30))
    assert sum(1 for _ in cut.iter()) == 31  # the objects and the desktop-frame
    assert "more than 30 objects" in cut.get("truncated", "")
    rows = osworld_agent.linearize_accessibility_tree(
        ET.tostring(cut, encoding="unicode"), "ubuntu"
    )
    assert rows.startswith("tag\tname")
