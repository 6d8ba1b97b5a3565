"""Scripted solutions of the 45 bundled tasks: pyautogui code, one string per env step.

Coordinates are screen pixels of the default 1920×1080 desktop. Infeasible tasks are solved
by declaring ``FAIL``. A feasible task's solution ends with ``DONE``. An :class:`Until` between
steps is no action: the oracle looks at the desktop (a window's title, the screen settling)
before its next step, as a person waits for a page to open rather than counting seconds.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Until:
    """Wait (sending nothing) until a window's title matches ``title`` (a regular expression;
    with ``gone``, until none does) and the screen is still. When it does not come within
    ``timeout_s``, the ``again`` items before it run once more (a keystroke a busy program
    lost)."""

    title: str
    gone: bool = False
    again: int = 0
    timeout_s: float = 30.0


@dataclass(frozen=True)
class Shows:
    """Wait (sending nothing) until the screen's pixel at ``xy`` has colour ``rgb`` (within
    ``tol`` per channel): a person sees a radio button or toggle take its new state. When it
    does not within ``timeout_s``, the ``again`` items before it run once more (a click that
    landed while the page was still being laid out)."""

    xy: tuple[int, int]
    rgb: tuple[int, int, int]
    again: int = 1
    tol: int = 40
    timeout_s: float = 10.0


# Chromium's settings pages, reached by their URL.
_GO = (
    "pyautogui.hotkey('ctrl', 'l'); time.sleep(0.5); pyautogui.typewrite('{url}', interval=0.02); "
    "pyautogui.press('enter'); time.sleep(0.5)"
)


_PREFS = ("pyautogui.hotkey('ctrl', 'p'); time.sleep(0.5)", Until("Preferences", again=1))
_SAVE = ("pyautogui.click(1308, 867); time.sleep(0.3)", Until("Preferences", gone=True))


def _term(command: str, wait: float = 1.5) -> str:
    """Type ``command`` into the desktop's terminal and run it."""
    return (
        f"pyautogui.click(300, 200); time.sleep(0.3); pyautogui.typewrite({command!r}, interval=0.01); "
        f"pyautogui.press('enter'); time.sleep({wait})"
    )


def _shell(command: str, timeout_s: float = 60.0) -> list[str | Until]:
    """Run ``command`` in the desktop's terminal, then ``exit``: the terminal's window closing
    shows that the command has finished (on a busy machine that takes what it takes)."""
    return [
        _term(f"{command}; exit", wait=0.3),
        Until("^Terminal$", gone=True, timeout_s=timeout_s),
    ]


def _palette(command: str, title: str, down: int = 0) -> list[str | Until]:
    """Run a VS Code command from the command palette (F1): the first match, or ``down`` more,
    picked once the list has settled (it filters as it is typed, and a busy machine is late);
    then wait for the editor it opens (``title``), the whole once more if it did not come."""
    return [
        "pyautogui.click(960, 540); pyautogui.press('f1'); time.sleep(1); "
        f"pyautogui.typewrite({command!r}, interval=0.02); time.sleep(0.5)",
        Until("code-server$"),
        f"pyautogui.press('down', presses={down}); pyautogui.press('enter'); time.sleep(0.5)",
        Until(title, again=3),
    ]


def _replace(text: str) -> str:
    """Replace the open editor's text with ``text`` and save it."""
    return (
        "pyautogui.hotkey('ctrl', 'a'); pyautogui.press('backspace'); "
        f"pyautogui.typewrite({text!r}, interval=0.02); "
        "pyautogui.press('esc'); pyautogui.hotkey('ctrl', 's'); time.sleep(0.5)"
    )


#: VS Code's title loses its dirty mark (``● ``) once the file is saved.
_SAVED = Until(r"^(settings|keybindings)\.json")


def _go(url: str) -> str:
    return _GO.format(url=url)


def _nav(url: str, title: str) -> list[str | Until]:
    """Open ``url`` in Chromium and wait for its page (``title``); typed again if it was lost."""
    return [_go(url), Until(title, again=1)]


SOLUTIONS: dict[str, list[str | Until | Shows]] = {
    # chrome
    "030eeff7": [  # Do Not Track: the toggle, then the dialog's Confirm
        *_nav("chrome://settings/cookies", "^Settings - Third-party cookies"),
        "pyautogui.click(1258, 616); time.sleep(0.5)",
        Until("^Settings - Third-party cookies"),  # the dialog has opened
        "pyautogui.click(1160, 678); time.sleep(1)",
        "DONE",
    ],
    "2ad9387a": [  # a folder "Favorites" on the bookmarks bar, from the bookmark manager
        *_nav("chrome://bookmarks", "^Bookmarks"),
        "pyautogui.click(1882, 120); time.sleep(0.5)",
        Until("^Bookmarks"),  # the menu has opened
        "pyautogui.click(1806, 216); time.sleep(0.5)",
        Until("^Bookmarks"),  # the name dialog has opened
        "pyautogui.typewrite('Favorites'); pyautogui.press('enter'); time.sleep(1)",
        "DONE",
    ],
    "44ee5668": [  # YouTube's visits gone: the history searched, all results selected, deleted
        *_nav("chrome://history/?q=youtube", "^History"),
        "pyautogui.click(960, 900); time.sleep(0.5); pyautogui.hotkey('ctrl', 'a'); "
        "time.sleep(0.5); pyautogui.press('delete'); time.sleep(1)",
        Until("^History"),  # the confirmation, its Delete button focused
        "pyautogui.press('enter'); time.sleep(1)",
        "DONE",
    ],
    "2ae9ba84": [  # the profile's name
        *_nav("chrome://settings/manageProfile", "^Settings - Customize profile"),
        "pyautogui.tripleClick(812, 280); pyautogui.hotkey('ctrl', 'a'); "
        "pyautogui.typewrite('Thomas'); pyautogui.press('tab'); time.sleep(1)",
        "DONE",
    ],
    "3299584d": [  # on startup: the New Tab page, in a tab of its own (the start page still loads)
        "pyautogui.hotkey('ctrl', 't'); time.sleep(0.5)",
        Until("^New Tab"),
        *_nav("chrome://settings/onStartup", "^Settings - On startup"),
        "pyautogui.click(638, 238); time.sleep(1)",
        "DONE",
    ],
    "93eabf48": [  # classic theme, mode Light, and stay on the appearance page
        *_nav("chrome://settings/appearance", "^Settings - Appearance"),
        "pyautogui.click(1124, 244); time.sleep(1)",
        Until("^Settings - Appearance"),
        "pyautogui.click(1172, 344); time.sleep(1); pyautogui.press('up'); pyautogui.press('enter'); time.sleep(1)",
        "DONE",
    ],
    "9656a811": [  # Safe Browsing: standard protection
        *_nav("chrome://settings/security", "^Settings - Security"),
        "pyautogui.click(640, 378); time.sleep(1)",
        "DONE",
    ],
    "99146c54": [  # delete site data when all windows close
        *_nav("chrome://settings/content/siteData", "^Settings - On-device site data"),
        "pyautogui.click(640, 428); time.sleep(1)",
        Shows((640, 428), (13, 80, 186)),  # the radio button "Delete data ... when you close"
        "DONE",
    ],
    "af630914": [  # font size Large
        *_nav("chrome://settings/appearance", "^Settings - Appearance"),
        "pyautogui.click(1172, 954); time.sleep(1); pyautogui.press('down'); pyautogui.press('enter'); time.sleep(1)",
        "DONE",
    ],
    "bb5e4c0d": [  # Microsoft Bing as the default search engine
        *_nav("chrome://settings/searchEngines", "^Settings - Manage search engines"),
        "time.sleep(1); pyautogui.click(1254, 686); time.sleep(1)",
        Until("^Settings - Manage search engines"),
        "pyautogui.click(1204, 718); time.sleep(1)",
        "DONE",
    ],
    # os: the desktop's terminal (xterm, top left); each command typed and entered
    "3ce045a0": [
        *_shell("gsettings set org.gnome.desktop.interface text-scaling-factor 1.5"),
        "DONE",
    ],
    "bedcedc4": [*_shell("gsettings set org.gnome.desktop.session idle-delay 0"), "DONE"],
    "e0df059f": [_term("mv ~/Desktop/todo_list_Jan_1 ~/Desktop/todo_list_Jan_2"), "DONE"],
    "ec4e3f68": [
        *_shell(
            "gsettings set org.gnome.shell favorite-apps \"['thunderbird.desktop', 'google-chrome.desktop']\""
        ),
        "DONE",
    ],
    # multi_apps
    "2373b66a": [  # sar: a sample a second for 30 s, into the report
        *_shell("sar 1 30 > ~/Desktop/System_Resources_Report.txt", timeout_s=90),
        "DONE",
    ],
    "937087b6": [  # VLC for every video type OSWorld asks about
        *_shell(
            "for t in 3gp 3gpp 3gpp2 avi divx dv fli flv mp2t mp4 mp4v-es mpeg mpeg-system msvideo "
            "ogg quicktime vnd.divx vnd.mpegurl vnd.rn-realvideo webm x-anim x-avi x-flc x-fli x-flv "
            "x-m4v x-matroska x-mpeg x-mpeg-system x-mpeg2 x-ms-asf x-ms-asf-plugin x-ms-asx x-ms-wm "
            "x-ms-wmv x-ms-wmx x-ms-wvx x-msvideo x-nsv x-ogm x-ogm+ogg x-theora x-theora+ogg; "
            "do xdg-mime default vlc.desktop video/$t; done",
            timeout_s=120,
        ),
        "DONE",
    ],
    "f8369178": [*_shell("gsettings set org.gnome.desktop.interface gtk-theme Orchis"), "DONE"],
    # vs_code (code-server): the command palette (F1) opens the JSON file; its text is replaced
    "930fdb3b": [
        *_palette("Keyboard Shortcuts (JSON)", r"^keybindings\.json", down=1),
        _replace(
            '[{"key": "ctrl+j", "command": "workbench.action.focusActiveEditorGroup", "when": "terminalFocus"}]'
        ),
        _SAVED,
        "DONE",
    ],
    "9439a27b": [
        *_palette("Preferences: Open User Settings (JSON)", r"^settings\.json"),
        _replace('{"debug.focusEditorOnBreak": false}'),
        _SAVED,
        "DONE",
    ],
    "982d12a5": [
        *_palette("Preferences: Open User Settings (JSON)", r"^settings\.json"),
        _replace('{"workbench.colorTheme": "Visual Studio Dark"}'),
        _SAVED,
        "DONE",
    ],
    "9d425400": [
        *_palette("Preferences: Open User Settings (JSON)", r"^settings\.json"),
        _replace('{"workbench.editor.wrapTabs": true}'),
        _SAVED,
        "DONE",
    ],
    "ea98c5d7": [
        *_palette("Keyboard Shortcuts (JSON)", r"^keybindings\.json", down=1),
        _replace(
            '[{"key": "ctrl+f", "command": "-list.find", "when": "listFocus && listSupportsFind"}]'
        ),
        _SAVED,
        "DONE",
    ],
    # libreoffice_impress: View > Slide Pane, by the menu keys the setup used to close it
    "ef9d12bd": [
        "pyautogui.click(960, 540); time.sleep(0.5); pyautogui.press('esc'); time.sleep(0.3); "
        "pyautogui.press('f10'); time.sleep(0.3); pyautogui.press('right', presses=2, interval=0.1); "
        "time.sleep(0.3); pyautogui.press('down', presses=11, interval=0.1); pyautogui.press('enter'); "
        "time.sleep(1.5)",
        "DONE",
    ],
    # gimp: Edit > Preferences; the postconfig quits GIMP (ctrl+q), which writes its rc files
    "7767eef2": [  # Interface > Theme > Light > OK
        "pyautogui.press('esc'); pyautogui.hotkey('alt', 'e'); time.sleep(1); "
        "pyautogui.click(310, 708); time.sleep(1)",
        Until("^Preferences$", again=1),
        "pyautogui.click(98, 724); time.sleep(0.5)",
        Until("^Preferences$"),
        "pyautogui.click(306, 692); time.sleep(1); pyautogui.click(804, 928); time.sleep(0.5)",
        Until("^Preferences$", gone=True),
        "DONE",
    ],
    "d52d6308": [  # Tab in the image window hides the docks
        "pyautogui.click(700, 600); time.sleep(0.5); pyautogui.press('tab'); time.sleep(1)",
        "DONE",
    ],
    # vlc: Tools > Preferences (ctrl+p); Save writes ~/.config/vlc/vlcrc
    "5ac2891a": [  # play-and-exit off: the running VLC has it off, saving the preferences writes it
        *_PREFS,
        *_SAVE,
        "DONE",
    ],
    "8ba5ae7a": [  # record folder: Input / Codecs > Browse... > Desktop > Open
        *_PREFS,
        "pyautogui.click(1018, 236); time.sleep(1)",
        "pyautogui.click(1270, 692); time.sleep(0.5)",
        Until("^Select Directory$", again=1),
        "pyautogui.click(626, 218); time.sleep(0.5); pyautogui.click(1458, 932); time.sleep(0.3)",
        Until("^Select Directory$", gone=True),
        *_SAVE,
        "DONE",
    ],
    "9195653c": [  # all settings > Qt > Maximum Volume displayed = 200
        *_PREFS,
        "pyautogui.click(658, 864); time.sleep(0.5)",
        Until("^Advanced Preferences$", again=1),
        "pyautogui.click(720, 218); pyautogui.typewrite('maximum volume', interval=0.02); time.sleep(1.5)",
        "pyautogui.click(650, 334); time.sleep(1.5)",
        "pyautogui.doubleClick(956, 176); time.sleep(1.5)",
        "pyautogui.tripleClick(1850, 798); pyautogui.typewrite('200'); pyautogui.press('tab'); time.sleep(0.5)",
        "pyautogui.click(1868, 1058); time.sleep(0.3)",
        Until("Preferences", gone=True),
        "DONE",
    ],
    "a5bbbcd5": [  # Interface > Start in minimal view mode
        *_PREFS,
        "pyautogui.click(738, 484); time.sleep(0.5)",
        *_SAVE,
        "DONE",
    ],
    "f3977615": [  # Interface > untick "Use only one instance when started from file manager"
        *_PREFS,
        "pyautogui.click(600, 708); time.sleep(0.5)",
        *_SAVE,
        "DONE",
    ],
}

#: Infeasible tasks: the solution is to say so.
INFEASIBLE = (
    "3720f614", "480bcfea", "ae78f875", "5ca86c6f", "e19bd559", "6d72aad6", "b3d4a89c",
    "c288e301", "fe41f596", "7882ed6e", "cb130f0d", "7c4cc09e", "971cbb5b",
)  # fmt: skip
SOLUTIONS.update({key: ["FAIL"] for key in INFEASIBLE})
