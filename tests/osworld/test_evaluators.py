"""Getters over a folder probe, metrics on real file contents, and OSWorld's scoring rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gcc_envs.osworld import metrics as m
from gcc_envs.osworld.evaluate import score, unknown_parts
from gcc_envs.osworld.getters import GETTERS, Context
from gcc_envs.osworld.metrics import METRICS
from gcc_envs.osworld.taskfile import bundled_tasks, load_task

#: A vlcrc as VLC 3.0 writes it after Save (excerpt, BOM included).
VLCRC = "\ufeff###\n###  vlc 3.0.24\n###\n\n[qt] # Qt interface\n#qt-minimal-view=0\nqt-max-volume=200\n\n[core] # core program\n#play-and-exit=0\none-instance-when-started-from-file=0\ninput-record-path=/h/Desktop\n"  # noqa: E501
GIMPRC = '# GIMP gimprc\n#\n# This is your personal gimprc file.\n\n(theme "Light")\n(icon-theme "Symbolic")\n\n# end of gimprc\n'  # noqa: E501
SAR = (
    "Linux 6.1 (host) \t12/01/26 \t_x86_64_\t(2 CPU)\n\n09:00:01        CPU     %user     %nice   %system   %iowait    %steal     %idle\n"
    + "".join(
        f"09:00:{i:02d}        all      1.00      0.00      0.50      0.00      0.00     98.50\n"
        for i in range(2, 32)
    )
    + "Average:        all      1.00      0.00      0.50      0.00      0.00     98.50\n"
)  # noqa: E501


def _write(home: Path, rel: str, text: str) -> None:
    p = home / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)


def test_every_bundled_evaluator_has_its_getters_and_metrics() -> None:
    assert {
        t.id8: unknown_parts(t.evaluator) for t in bundled_tasks() if unknown_parts(t.evaluator)
    } == {}


def test_vlc_metrics_read_the_last_uncommented_setting() -> None:
    assert m.METRICS["check_qt_max_volume"](VLCRC, {"expected_qt_max_volume": 200}) == 1.0
    assert m.METRICS["check_qt_minimal_view"](VLCRC, {"expected_qt_minimal_view": 1}) == 0.0
    assert m.METRICS["check_play_and_exit"](VLCRC, {"expected_play_and_exit": 0}) == 1.0
    one = m.METRICS["check_one_instance_when_started_from_file"]
    assert one(VLCRC, {"expected_one_instance_when_started_from_file": 0}) == 1.0
    assert one("", {"expected_one_instance_when_started_from_file": 0}) == 0.0  # default 1
    assert (
        m.METRICS["is_vlc_recordings_folder"](VLCRC, {"recording_file_path": "/h/Desktop"}) == 1.0
    )
    assert m.METRICS["is_vlc_recordings_folder"](None, {"recording_file_path": "/h/Desktop"}) == 0.0


def test_gimp_config_status() -> None:
    check = METRICS["check_config_status"]
    assert check(GIMPRC, {"key": "theme", "value": '"Light"'}) == 1.0
    assert check(GIMPRC, {"key": "theme", "value": '"Dark"'}) == 0.0
    assert check("(hide-docks yes)\n", {"key": "hide-docks", "value": "yes"}) == 1.0


def test_sar_report_metrics() -> None:
    cols = ["CPU", "%user", "%nice", "%system", "%iowait", "%steal", "%idle"]
    assert m.file_contains(SAR, {"expected": cols}) == 1.0
    assert m.check_line_number(SAR, {"expected": "31"}) == 1.0
    assert m.check_line_number(SAR.replace("09:00:31", "x"), {"expected": "31"}) == 0.0


def test_json_metrics_accept_vs_code_comments() -> None:
    keys = '// Place your key bindings in this file to override the defaults\n[\n  {"key": "ctrl+j", "command": "c", "when": "t"},\n]'  # noqa: E501
    assert (
        m.check_json_keybindings(keys, {"expected": {"key": "ctrl+j", "command": "c", "when": "t"}})
        == 1.0
    )
    assert m.check_json_keybindings(keys, {"expected": {"key": "ctrl+j", "command": "c"}}) == 0.0
    settings = '{\n  "a": 1, // a comment\n  "workbench.editor.wrapTabs": true\n}'
    assert m.check_json_settings(settings, {"expected": {"workbench.editor.wrapTabs": True}}) == 1.0
    assert m.check_json_settings(settings, {"expected": {"a": 2}}) == 0.0
    rule = {"expected": '{"workbench.colorTheme": "Visual Studio Dark"}\n'}
    assert m.compare_config('{"workbench.colorTheme": "Visual Studio Dark"}\n', rule) == 1.0
    assert m.compare_config('{"x": 1, "workbench.colorTheme": "Visual Studio Dark"}', rule) == 0.0
    both = '{"x": 1, "workbench.colorTheme": "Visual Studio Dark"}'
    assert m.compare_config(both, rule, containment_ok=True) == 1.0


def test_os_metrics() -> None:
    status = "               Local time: Mon 2026-12-01 09:00:00 UTC\n           Universal time: Mon 2026-12-01 09:00:00 UTC\n                 RTC time: n/a\n                Time zone: Etc/UTC (UTC, +0000)\n"  # noqa: E501
    assert m.is_utc_0(status) == 1.0 and m.is_utc_0(status.replace("+0000", "+0100")) == 0.0
    fav = {"expected": ["google-chrome.desktop", "thunderbird.desktop"]}
    assert (
        m.check_gnome_favorite_apps("['thunderbird.desktop', 'google-chrome.desktop']\n", fav)
        == 1.0
    )
    assert (
        m.check_gnome_favorite_apps(
            "['thunderbird.desktop', 'vim.desktop', 'google-chrome.desktop']\n", fav
        )
        == 0.0
    )
    assert m.check_gnome_favorite_apps("__import__('os')", fav) == 0.0  # never evaluated
    assert m.check_list("'Orchis'\n", {"expect": ["Orchis"]}) == 1.0
    assert m.check_list("'Adwaita'\n", {"expect": ["Orchis"]}) == 0.0


def test_chrome_getters_read_the_profile(home: Path, probe) -> None:
    prefs = {
        "enable_do_not_track": True,
        "safebrowsing": {"enabled": False},
        "session": {"restore_on_startup": 5},
        "profile": {"name": "Thomas", "default_content_setting_values": {"cookies": 4}},
        "webkit": {"webprefs": {"default_font_size": 20}},
        "default_search_provider_data": {"template_url_data": {"short_name": "Microsoft Bing"}},
        "browser": {"theme": {"color_scheme2": 1}},
    }
    _write(home, ".config/google-chrome/Default/Preferences", json.dumps(prefs))
    bookmarks = {"roots": {"bookmark_bar": {"children": [{"type": "folder", "name": "Favorites"}]}}}
    _write(home, ".config/google-chrome/Default/Bookmarks", json.dumps(bookmarks))
    ctx = Context(probe)
    read = {k: GETTERS[k](ctx, {}) for k in (
        "enable_do_not_track", "enable_safe_browsing", "new_startup_page", "profile_name",
        "data_delete_automacally", "default_search_engine", "chrome_appearance_mode_ui")}  # fmt: skip
    assert read == {
        "enable_do_not_track": "true", "enable_safe_browsing": "false", "new_startup_page": "true",
        "profile_name": "Thomas", "data_delete_automacally": "true",
        "default_search_engine": "Microsoft Bing", "chrome_appearance_mode_ui": "light",
    }  # fmt: skip
    assert GETTERS["chrome_font_size"](ctx, {})["default_font_size"] == 20
    fresh = {
        "profile": {"default_content_setting_values": {"has_migrated_local_network_access": True}}
    }
    _write(home, ".config/google-chrome/Default/Preferences", json.dumps(fresh))
    assert GETTERS["data_delete_automacally"](ctx, {}) == "false"  # a new profile has the object
    rule = {"type": "bookmark_bar_folders_names", "names": ["Favorites"]}
    assert m.is_expected_bookmarks(GETTERS["bookmarks"](ctx, {}), rule) == 1.0


def test_file_getters_refuse_paths_outside_the_home(home: Path, probe, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("top secret")
    ctx = Context(probe)
    for path in (str(secret), f"{home}/../secret.txt", "../secret.txt", "/etc/passwd"):
        assert GETTERS["vm_file"](ctx, {"path": path}) is None
    (home / "link").symlink_to(secret)
    assert GETTERS["vm_file"](ctx, {"path": "link"}) is None
    assert any("outside" in n for n in ctx.notes)
    assert GETTERS["gimp_config_file"](ctx, {"file_name": "../../../../etc/passwd"}) is None


def test_vm_file_traversal_in_a_task_scores_zero(home: Path, probe, tmp_path: Path) -> None:
    (tmp_path / "flag").write_text("CPU %user %nice %system %iowait %steal %idle")
    task = load_task({
        "id": "hostile-1", "instruction": "read a file outside",
        "evaluator": {"func": "file_contains", "expected": {"type": "rule", "rules": {"expected": ["CPU"]}},
                      "result": {"type": "vm_file", "path": "/home/user/../flag"}},
    })  # fmt: skip
    verdict = score(task.evaluator, Context(probe), "DONE")
    assert verdict.score == 0.0 and any("outside" in n for n in verdict.notes)


def test_command_getter_runs_real_bash_as_the_episodes_user(probe) -> None:
    ctx = Context(probe)
    uid = str(probe.sandbox.uid)
    assert GETTERS["vm_command_line"](ctx, {"command": ["id", "-u"]}) == uid + "\n"
    out = GETTERS["vm_command_line"](
        ctx, {"command": "echo hi | tr a-z A-Z; whoami", "shell": True}
    )
    assert out == "HI\nuser\n"
    assert GETTERS["vm_command_line"](ctx, {"command": "touch /etc/x", "shell": True}) == ""
    assert any("Read-only file system" in n for n in ctx.notes)


@pytest.mark.parametrize("last", ["DONE", "FAIL", "WAIT", None])
def test_infeasible_scores_only_a_final_fail(last: str | None) -> None:
    task = load_task("3720f614")
    assert score(task.evaluator, None, last).score == (1.0 if last == "FAIL" else 0.0)


def test_a_feasible_task_ending_in_fail_scores_zero_before_reading(probe) -> None:
    assert score(load_task("e0df059f").evaluator, None, "FAIL").score == 0.0


def test_conj_or_takes_the_best_and_and_stops_at_zero(home: Path, probe) -> None:
    def task(conj: str) -> object:
        return load_task({
            "id": "conj", "instruction": "x",
            "evaluator": {"func": ["exact_match", "exact_match"], "conj": conj,
                          "result": [{"type": "vm_command_line", "command": "echo a", "shell": True}] * 2,
                          "expected": [{"type": "rule", "rules": {"expected": "a\n"}},
                                       {"type": "rule", "rules": {"expected": "b\n"}}]},
        })  # fmt: skip

    assert score(task("or").evaluator, Context(probe), "DONE").score == 1.0
    assert score(task("and").evaluator, Context(probe), "DONE").score == 0.0


def test_a_metric_that_raises_scores_its_slot_zero(probe) -> None:
    task = load_task({
        "id": "bad", "instruction": "x",
        "evaluator": {"func": "check_font_size", "result": {"type": "chrome_font_size"},
                      "expected": {"type": "rule", "rules": {"type": "no-such-rule"}}},
    })  # fmt: skip
    verdict = score(task.evaluator, Context(probe), "DONE")
    assert verdict.score == 0.0 and "no-such-rule" in " ".join(verdict.notes)
