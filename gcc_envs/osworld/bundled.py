"""The 44 bundled task files by domain and id (checked against ``data/tasks`` by the tests).

Kept as code so that registering ``GCC/OSWorld-<domain>-<id8>`` reads no file at import.
The third field is whether the task is infeasible (only a final ``FAIL`` scores).
"""

from __future__ import annotations

BUNDLED: tuple[tuple[str, str, bool], ...] = (
    ("chrome", "030eeff7-b492-4218-b312-701ec99ee0cc", False),
    ("chrome", "2ad9387a-65d8-4e33-ad5b-7580065a27ca", False),
    ("chrome", "2ae9ba84-3a0d-4d4c-8338-3a1478dc5fe3", False),
    ("chrome", "3299584d-8f11-4457-bf4c-ce98f7600250", False),
    ("chrome", "3720f614-37fd-4d04-8a6b-76f54f8c222d", True),
    ("chrome", "480bcfea-d68f-4aaa-a0a9-2589ef319381", True),
    ("chrome", "93eabf48-6a27-4cb6-b963-7d5fe1e0d3a9", False),
    ("chrome", "9656a811-9b5b-4ddf-99c7-5117bcef0626", False),
    ("chrome", "99146c54-4f37-4ab8-9327-5f3291665e1e", False),
    ("chrome", "ae78f875-5b98-4907-bbb5-9c737fc68c03", True),
    ("chrome", "af630914-714e-4a24-a7bb-f9af687d3b91", False),
    ("chrome", "bb5e4c0d-f964-439c-97b6-bdb9747de3f4", False),
    ("gimp", "5ca86c6f-f317-49d8-b6a7-b527541caae8", True),
    ("gimp", "7767eef2-56a3-4cea-8c9f-48c070c7d65b", False),
    ("gimp", "d52d6308-ec58-42b7-a2c9-de80e4837b2b", False),
    ("gimp", "e19bd559-633b-4b02-940f-d946248f088e", True),
    ("libreoffice_impress", "ef9d12bd-bcee-4ba0-a40e-918400f43ddf", False),
    ("multi_apps", "2373b66a-092d-44cb-bfd7-82e86e7a3b4d", False),
    ("multi_apps", "6d72aad6-187a-4392-a4c4-ed87269c51cf", True),
    ("multi_apps", "937087b6-f668-4ba6-9110-60682ee33441", False),
    ("multi_apps", "f8369178-fafe-40c2-adc4-b9b08a125456", False),
    ("os", "13584542-872b-42d8-b299-866967b5c3ef", False),
    ("os", "3ce045a0-877b-42aa-8d2c-b4a863336ab8", False),
    ("os", "b3d4a89c-53f2-4d6b-8b6a-541fb5d205fa", True),
    ("os", "b6781586-6346-41cd-935a-a6b1487918fc", False),
    ("os", "bedcedc4-4d72-425e-ad62-21960b11fe0d", False),
    ("os", "c288e301-e626-4b98-a1ab-159dcb162af5", True),
    ("os", "e0df059f-28a6-4169-924f-b9623e7184cc", False),
    ("os", "ec4e3f68-9ea4-4c18-a5c9-69f89d1178b3", False),
    ("os", "fe41f596-a71b-4c2f-9b2f-9dcd40b568c3", True),
    ("vlc", "5ac2891a-eacd-4954-b339-98abba077adb", False),
    ("vlc", "7882ed6e-bece-4bf0-bada-c32dc1ddae72", True),
    ("vlc", "8ba5ae7a-5ae5-4eab-9fcc-5dd4fe3abf89", False),
    ("vlc", "9195653c-f4aa-453d-aa95-787f6ccfaae9", False),
    ("vlc", "a5bbbcd5-b398-4c91-83d4-55e1e31bbb81", False),
    ("vlc", "cb130f0d-d36f-4302-9838-b3baf46139b6", True),
    ("vlc", "f3977615-2b45-4ac5-8bba-80c17dbe2a37", False),
    ("vs_code", "7c4cc09e-7a92-40dd-8338-b2286535c4ed", True),
    ("vs_code", "930fdb3b-11a8-46fe-9bac-577332e2640e", False),
    ("vs_code", "9439a27b-18ae-42d8-9778-5f68f891805e", False),
    ("vs_code", "971cbb5b-3cbf-4ff7-9e24-b5c84fcebfa6", True),
    ("vs_code", "982d12a5-beab-424f-8d38-d2a48429e511", False),
    ("vs_code", "9d425400-e9b2-4424-9a4b-d4c7abac4140", False),
    ("vs_code", "ea98c5d7-3cf9-4f9b-8ad3-366b58e0fcae", False),
)
