"""A sample of OSWorld tasks that need the network, run offline from generated files.

The task files in ``network_sample/tasks/`` (three ``os``, one ``vs_code``, one
``multi_apps``, one each of ``libreoffice_calc``, ``libreoffice_writer``,
``libreoffice_impress``, ``gimp``, ``vlc`` and ``thunderbird``) are OSWorld's own
(xlang-ai/OSWorld, Apache-2.0), unchanged. Each downloads its input (a ``setup.sh``, a text
file, a zip, a spreadsheet, a document, a deck, a photo, a video, a Thunderbird profile) and
its evaluator an ``eval.sh`` or the
expected file (``cloud_file``) from OSWorld's file cache on huggingface.co; those files are
not in this repository, so ``network_sample/files/`` holds generated ones in a mirror layout
(``<host>/<path>``, what ``gcc-gym osworld cache --from`` reads; ``make_files.py`` writes the
office, GIMP and VLC ones). A fresh cache filled from that folder, offline, serves every
download, and each task's scripted solution (typed into the terminal or the editor, or
given to the task's program by its menus and dialogs) scores 1, a near-miss 0 and doing
nothing 0. A task whose program is missing here is skipped, saying which. The verdicts check
this suite's download, execute and evaluation plumbing on real task files, not parity with
OSWorld's own files, which may check more. No ``chrome`` task is here: none of OSWorld's
downloads one (they open live websites, which no file cache serves).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from solutions import Until
from test_tasks import _episode

from gcc_envs.osworld.cache import CacheConfig, DownloadCache
from gcc_envs.osworld.support import support
from gcc_envs.osworld.taskfile import load_task

pytestmark = [pytest.mark.desktop, pytest.mark.slow]

HERE = Path(__file__).parent / "network_sample"
TASKS = {p.stem[:8]: p for p in sorted((HERE / "tasks").glob("*.json"))}


def _term(command: str) -> list[str | Until]:
    """Type ``command`` into the task's terminal. The commands name their folder rather than
    count on the setup's own typed ``cd`` (a person would look at the prompt first)."""
    return [
        f"pyautogui.click(300, 200); time.sleep(0.3); pyautogui.typewrite({command!r}, "
        "interval=0.01); pyautogui.press('enter'); time.sleep(1.5)",
        "DONE",
    ]


def _replace_in_editor(last: str) -> list[str | Until]:
    """VS Code's replace widget (Ctrl+H): "text" → "test", then ``last`` (Ctrl+Alt+Enter
    replaces every match, Enter only the next)."""
    return [
        Until("vscode_replace_text"),
        "pyautogui.click(960, 540); time.sleep(0.3); pyautogui.hotkey('ctrl', 'h'); "
        "time.sleep(1); pyautogui.typewrite('text', interval=0.05); time.sleep(0.5); "
        "pyautogui.press('tab'); pyautogui.typewrite('test', interval=0.05); time.sleep(0.5)",
        f"{last}; time.sleep(1); pyautogui.press('esc'); time.sleep(0.5)",
        "DONE",
    ]


def _calc_sort(presses: int) -> list[str | Until]:
    """A cell of the Amount column (C2), then Data > Sort Ascending (``presses=1``, the item
    under "Sort...") or Sort Descending (2): LibreOffice sorts the whole table, header kept;
    the postconfig saves."""
    return [
        Until("^Arrang_Value_min_to_max.xlsx - LibreOffice Calc$"),
        "pyautogui.click(960, 540); time.sleep(0.5); pyautogui.hotkey('ctrl', 'home'); "
        "pyautogui.press('right', presses=2); pyautogui.press('down'); "
        "pyautogui.hotkey('alt', 'd'); time.sleep(1); "
        f"pyautogui.press('down', presses={presses}); pyautogui.press('enter'); time.sleep(1)",
        "DONE",
    ]


def _writer_center(paragraph: int) -> list[str | Until]:
    """Centre the document's ``paragraph``-th paragraph (Ctrl+Down goes to the next one; the
    heading is two lines long); the postconfig saves."""
    return [
        Until("^Constitution_Template_With_Guidelines.docx - LibreOffice Writer$"),
        "pyautogui.click(960, 540); time.sleep(0.5); pyautogui.hotkey('ctrl', 'home'); "
        + "pyautogui.hotkey('ctrl', 'down'); " * paragraph
        + "pyautogui.hotkey('ctrl', 'e'); time.sleep(0.5)",
        "DONE",
    ]


def _impress_save_as(name: str) -> list[str | Until]:
    """File > Save As (Ctrl+Shift+S), the name typed (a bare name saves beside the open
    file, in ~/Downloads); the PowerPoint format is kept without a question, as on OSWorld's
    machine."""
    return [
        Until("^Secrets-of-Monetizing-Video.pptx - LibreOffice Impress$"),
        "pyautogui.click(960, 540); time.sleep(0.5); pyautogui.hotkey('ctrl', 'shift', 's'); "
        "time.sleep(1)",
        Until("^Save$", again=1),
        f"pyautogui.hotkey('ctrl', 'a'); pyautogui.typewrite({name!r}, interval=0.02); "
        "pyautogui.press('enter'); time.sleep(1)",
        Until("^pre.pptx - LibreOffice Impress$"),
        "DONE",
    ]


def _gimp_flip(key: str) -> list[str | Until]:
    """Image > Transform > Flip Horizontally (``h``) or Vertically (``v``), by the menus'
    mnemonics; the postconfig exports the image as berry_mirror.png."""
    return [
        Until("GIMP$"),
        "pyautogui.press('esc'); pyautogui.hotkey('alt', 'i'); time.sleep(1); "
        f"pyautogui.press('t'); time.sleep(0.5); pyautogui.press({key!r}); time.sleep(1)",
        Until(r"^\*\[berry\]"),  # the image is changed
        "DONE",
    ]


_VIDEO = "/home/user/Desktop/Rick Astley - Never Gonna Give You Up (Official Music Video).mp4"


def _vlc_open(then: list[str]) -> list[str | Until]:
    """Media > Open File (Ctrl+O), the video's path typed into the dialog's location (Ctrl+L);
    then ``then``."""
    return [
        Until("^VLC media player$"),
        "pyautogui.hotkey('ctrl', 'o'); time.sleep(1)",
        Until("^Select one or more files to open$", again=1),
        f"pyautogui.hotkey('ctrl', 'l'); pyautogui.typewrite({_VIDEO!r}, interval=0.01); "
        "time.sleep(0.5); pyautogui.press('enter'); time.sleep(2)",
        Until("^Rick Astley .* - VLC media player$"),
        *then,
        "DONE",
    ]


def _tb_signature(text: str) -> list[str | Until]:
    """Account Settings (the account's home page, top right), the signature box on its main
    page, ``text`` typed; Tab leaves the box, which is when Thunderbird takes the change. The
    postconfig closes Thunderbird, which writes prefs.js."""
    return [
        Until("Mozilla Thunderbird$"),
        "pyautogui.click(1189, 79); time.sleep(2)",
        Until("^Account Settings - Mozilla Thunderbird$", again=1),
        f"pyautogui.click(752, 606); time.sleep(0.5); pyautogui.typewrite({text!r}, "
        "interval=0.02); pyautogui.press('tab'); time.sleep(1)",
        "DONE",
    ]


#: Per task: the scripted solution and a near-miss (a plausible command that misses part).
PLANS: dict[str, tuple[list[str | Until], list[str | Until]]] = {
    "4d117223": (  # every regular file 644, in the whole tree (in testDir)
        _term("cd ~/testDir && find . -type f -exec chmod 644 {} +"),
        _term("cd ~/testDir && chmod 644 *"),  # only the top level's files
    ),
    "6f56bf42": (  # file1 copied into dir1, dir2 and dir3
        _term("for d in dir1 dir2 dir3; do cp file1 $d/; done"),
        _term("cp file1 dir1/; cp file1 dir2/"),
    ),
    "5c1075ca": (  # *failed.ipynb copied to ./fails, keeping their folders
        _term(
            "mkdir -p fails && find . -path ./fails -prune -o -name '*failed.ipynb' "
            "-exec cp --parents {} fails/ \\;"
        ),  # fmt: skip
        _term(
            "mkdir -p fails && find . -path ./fails -prune -o -name '*failed.ipynb' "
            "-exec cp {} fails/ \\;"
        ),  # fmt: skip  (flat: the hierarchy is lost)
    ),
    "f918266a": (  # finish calculator.py (unzipped on the Desktop), its output in log.txt
        _term(
            "cd ~/Desktop && sed -i 's/    raise NotImplementedError/    return OPS[op](a, b)/' "
            "calculator.py && python3 calculator.py > log.txt"
        ),
        _term("cd ~/Desktop && python3 calculator.py > log.txt"),  # run, not finished
    ),
    "0ed39f63": (  # every "text" in the open file becomes "test" (the postconfig saves)
        _replace_in_editor("pyautogui.hotkey('ctrl', 'alt', 'enter')"),
        _replace_in_editor("pyautogui.press('enter')"),  # the first match only
    ),
    "51b11269": (_calc_sort(1), _calc_sort(2)),  # records sorted by amount; descending misses
    "3ef2b351": (_writer_center(0), _writer_center(1)),  # the heading centred; not the next one
    "a097acff": (  # saved as pre.pptx on the Desktop; not in the folder the dialog shows
        _impress_save_as("/home/user/Desktop/pre.pptx"),
        _impress_save_as("pre.pptx"),
    ),
    "72f83cdc": (_gimp_flip("h"), _gimp_flip("v")),  # mirrored left to right; not upside down
    "3f28fe4f": (  # a two-line signature; the same words on one line miss
        _tb_signature("Anonym\nXYZ Lab"),
        _tb_signature("Anonym, XYZ Lab"),
    ),
    "59f21cfb": (  # the video playing in VLC; opened, then paused
        _vlc_open([]),
        _vlc_open(["pyautogui.press('space'); time.sleep(1)"]),
    ),
}


@pytest.fixture(scope="module")
def offline_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """An OSWorld env whose download cache was filled from the generated files, offline."""
    if shutil.which("Xvfb") is None or shutil.which("openbox") is None:
        pytest.skip("needs Xvfb and openbox (apt-get install xvfb openbox)")
    if shutil.which("xterm") is None:
        pytest.skip("needs xterm (the desktop's terminal)")
    import gymnasium as gym

    config = CacheConfig(root=tmp_path_factory.mktemp("cache"), offline=True)
    counts = DownloadCache(config).fill_from(HERE / "files")
    assert counts.added == sum(1 for p in (HERE / "files").rglob("*") if p.is_file()), counts
    env = gym.make("GCC/OSWorld", downloads=config, disable_env_checker=True)
    yield env
    env.close()


def test_the_sample_needs_the_network_unless_its_files_are_cached() -> None:
    cache = DownloadCache(CacheConfig(root=HERE / "no-such-cache", offline=True))
    for path in TASKS.values():
        task = load_task(path)
        online = support(task, online=True)
        assert online.runs or online.kind == "program", online
        off = support(task, online=False, cached=cache.has)
        # offline and uncached, the downloads stand in the way (besides any missing program)
        assert not off.runs and "network" in {kind for kind, _ in off.found}, off


@pytest.mark.parametrize("key", sorted(PLANS))
def test_a_network_task_runs_offline_from_the_filled_cache(offline_env: Any, key: str) -> None:
    task = str(TASKS[key])
    found = support(load_task(task), online=True)
    if found.kind == "program":
        pytest.skip(found.why())
    solution, near_miss = PLANS[key]
    start, solved = _episode(offline_env, task, solution)
    assert "setup_error" not in start and not start.get("unsupported"), start
    assert solved["score"] == 1.0, solved["evaluation"]
    _, missed = _episode(offline_env, task, near_miss)
    assert missed["score"] == 0.0, missed["evaluation"]
    _, nothing = _episode(offline_env, task, ["DONE"])
    assert nothing["score"] == 0.0, nothing["evaluation"]
