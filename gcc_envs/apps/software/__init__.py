"""What the five Cradle software twins share (Chrome, Outlook, CapCut, Meitu, Feishu).

The task table reader (:mod:`.tables`), a small PDF writer for the files the tasks hand out
(:mod:`.pdf`), and the live profiles and explicit judges for the real apps on Windows and
macOS (:mod:`.live`, :mod:`.lmm_judge`).
"""
