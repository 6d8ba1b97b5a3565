"""Scripted solutions of the 44 bundled tasks: pyautogui code, one string per env step.

Coordinates are screen pixels of the default 1920×1080 desktop. Infeasible tasks are solved
by declaring ``FAIL``. A feasible task's solution ends with ``DONE``.
"""

from __future__ import annotations

# Chromium's settings pages, reached by their URL.
_GO = (
    "pyautogui.hotkey('ctrl', 'l'); time.sleep(0.5); pyautogui.typewrite('{url}', interval=0.02); "
    "pyautogui.press('enter'); time.sleep(2)"
)


def _go(url: str) -> str:
    return _GO.format(url=url)


SOLUTIONS: dict[str, list[str]] = {
    # chrome
    "030eeff7": [  # Do Not Track: the toggle, then the dialog's Confirm
        _go("chrome://settings/cookies"),
        "pyautogui.click(1258, 616); time.sleep(1)",
        "pyautogui.click(1160, 678); time.sleep(1)",
        "DONE",
    ],
    "2ad9387a": [  # a folder "Favorites" on the bookmarks bar, from the bookmark manager
        _go("chrome://bookmarks"),
        "pyautogui.click(1882, 120); time.sleep(1)",
        "pyautogui.click(1806, 216); time.sleep(1)",
        "pyautogui.typewrite('Favorites'); pyautogui.press('enter'); time.sleep(1)",
        "DONE",
    ],
    "2ae9ba84": [  # the profile's name
        _go("chrome://settings/manageProfile"),
        "pyautogui.tripleClick(812, 280); pyautogui.hotkey('ctrl', 'a'); "
        "pyautogui.typewrite('Thomas'); pyautogui.press('tab'); time.sleep(1)",
        "DONE",
    ],
    "3299584d": [  # on startup: the New Tab page
        _go("chrome://settings/onStartup"),
        "pyautogui.click(638, 238); time.sleep(1)",
        "DONE",
    ],
    "93eabf48": [  # classic theme, mode Light, and stay on the appearance page
        _go("chrome://settings/appearance"),
        "pyautogui.click(1124, 244); time.sleep(1.5)",
        "pyautogui.click(1172, 344); time.sleep(1); pyautogui.press('up'); pyautogui.press('enter'); time.sleep(1)",
        "DONE",
    ],
    "9656a811": [  # Safe Browsing: standard protection
        _go("chrome://settings/security"),
        "pyautogui.click(640, 378); time.sleep(1)",
        "DONE",
    ],
    "99146c54": [  # delete site data when all windows close
        _go("chrome://settings/content/siteData"),
        "pyautogui.click(640, 428); time.sleep(1)",
        "DONE",
    ],
    "af630914": [  # font size Large
        _go("chrome://settings/appearance"),
        "pyautogui.click(1172, 954); time.sleep(1); pyautogui.press('down'); pyautogui.press('enter'); time.sleep(1)",
        "DONE",
    ],
    "bb5e4c0d": [  # Microsoft Bing as the default search engine
        _go("chrome://settings/searchEngines"),
        "time.sleep(1); pyautogui.click(1254, 686); time.sleep(1.5)",
        "pyautogui.click(1204, 718); time.sleep(1)",
        "DONE",
    ],
}
