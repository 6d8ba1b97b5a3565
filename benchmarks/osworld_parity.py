"""Whether this package's document metrics give OSWorld's own verdicts on the same files.

Run: ``python benchmarks/osworld_parity.py [--venv DIR] [--metric NAME ...] [--cases]``.
Each case of ``osworld_parity_cases.py`` (a correct end state, near misses, edge cases per
metric) is scored by ``gcc_envs.osworld.metrics.METRICS`` here (an exception scores 0, as
the evaluator does) and by OSWorld's function of the same name, from PyPI's ``desktop-env``
1.0.2, in a separate virtual environment (``--venv``, made on first use: ``desktop-env``
without its dependencies, whose pins do not fit this project, plus the libraries the
compared modules import, pandas 2.2 and numpy 1.26 as it pins them). A small driver loads
OSWorld's metric modules by path (no package ``__init__``: it imports torch and more), with
empty stand-ins for the few imports the compared functions never use (easyocr, borb), and
prints JSON. An OSWorld exception scores 0 too. Cases marked ``lo``
are saved again (or turned into PDFs) by LibreOffice first when ``soffice`` is installed.
Verdicts agree when they differ by at most 0.02 (``compare_pdfs``, ``diff_text_file`` and
fuzzy options give scores in between). Prints one row per metric, then the cases that
disagree (``--cases``: every case); exits 1 when one disagrees.

Result (2 cores, LibreOffice 7.4 with Impress only: the ``lo`` workbook and Word cases keep
the files as made; ``python benchmarks/osworld_parity.py``, 27-60 s)::

    metric                                      cases agree
    compare_table                                  96    96
    compare_csv                                     8     8
    compare_table, random sheets                  200   200
    compare_pptx_files                             33    33
    compare_docx_files                             14    14
    compare_line_spacing                            5     5
    compare_docx_images                             5     5
    compare_docx_tables                             6     6
    compare_pdfs                                    8     8
    compare_text_file                               6     6
    diff_text_file                                  5     5
    check_json                                      9     9
    check_direct_json_object                       10    10
    literal_match                                   6     6
    is_in_list                                      5     5
    (the last metrics, osworld_parity_cases_more.py: 24 metrics, 145 cases, 5-10 each)
    all                                           561   561

``--metric compare_table --random-sheets 1500 --seed 7``: 1,596 of 1,596 agree (112 s).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from osworld_parity_cases import NO_EXPECTED, Case, File, all_cases  # noqa: E402
from osworld_parity_cases_more import MORE_MODULES  # noqa: E402

#: What the virtual environment gets besides ``desktop-env --no-deps``.
VENV_PACKAGES = [
    "pandas>=2.2,<2.3", "numpy<2", "openpyxl", "python-pptx", "python-docx", "pdfplumber",
    "rapidfuzz", "lxml", "cssselect", "xmltodict", "formulas", "tldextract", "pyyaml",
    "odfpy", "pymupdf", "pillow", "beautifulsoup4", "pypdf2", "pypdf", "mutagen", "scikit-image",
    "imagehash",
]  # fmt: skip
#: OSWorld's module of each compared metric (``desktop_env/evaluators/metrics/<module>.py``).
MODULES = {
    "compare_table": "table", "compare_csv": "table", "compare_pptx_files": "slides",
    "compare_docx_files": "docs", "compare_docx_tables": "docs", "compare_pdfs": "chrome",
    "compare_line_spacing": "docs", "compare_docx_images": "docs",
    "compare_text_file": "vscode", "diff_text_file": "general", "check_json": "general",
    "check_direct_json_object": "general", "literal_match": "general", "is_in_list": "general",
    **MORE_MODULES,
}  # fmt: skip
TOLERANCE = 0.02

DRIVER = r"""
import importlib, json, os, sys, types
root, spec_path, out_path = sys.argv[1:4]
for name, sub in (("desktop_env", ""), ("desktop_env.evaluators", "evaluators"),
                  ("desktop_env.evaluators.metrics", "evaluators/metrics")):
    shell = types.ModuleType(name)
    shell.__path__ = [os.path.join(root, sub)]
    sys.modules[name] = shell
for name in ("easyocr", "borb", "borb.pdf"):
    stub = types.ModuleType(name)
    stub.__path__ = []
    stub.__getattr__ = lambda attr: None
    sys.modules[name] = stub
out = []
for case in json.load(open(spec_path)):
    try:
        module = importlib.import_module("desktop_env.evaluators.metrics." + case["module"])
        fn = getattr(module, case["func"])
        args = [case["result"]] + ([case["expected"]] if "expected" in case else [])
        out.append({"score": float(fn(*args, **case["options"]))})
    except Exception as e:
        out.append({"error": type(e).__name__ + ": " + str(e)[:200]})
json.dump(out, open(out_path, "w"))
"""


def ensure_venv(venv: Path) -> Path:
    """The venv's python, the venv made and filled first if it is not there."""
    python, marker = venv / "bin" / "python", venv / "gcc-gym-packages.txt"
    wanted = "\n".join(["desktop-env==1.0.2", *VENV_PACKAGES])
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    if not marker.exists() or marker.read_text() != wanted:
        pip = [str(python), "-m", "pip", "install", "-q"]
        subprocess.run([*pip, "--no-deps", "desktop-env==1.0.2"], check=True)
        subprocess.run([*pip, *VENV_PACKAGES], check=True)
        marker.write_text(wanted)
    return python


def desktop_env_root(python: Path) -> str:
    code = "import importlib.util as u; print(u.find_spec('desktop_env').submodule_search_locations[0])"
    return subprocess.run(
        [str(python), "-c", code], check=True, capture_output=True, text=True
    ).stdout.strip()


# ---- the files of each case --------------------------------------------------------------


def libreoffice(files: list[tuple[File, Path]], work: Path) -> list[str]:
    """Save each ``lo`` file again with LibreOffice (a ``.pdf`` from its ``.pptx`` source);
    the names of those it could not convert (kept as made)."""
    soffice = shutil.which("soffice")
    if soffice is None:
        return [f.name for f, _ in files]
    failed = []
    profile = work / "lo-profile"
    by_target: dict[str, list[tuple[File, Path, Path]]] = defaultdict(list)
    for i, (f, path) in enumerate(files):
        src_dir = work / "lo-in" / str(i)
        src_dir.mkdir(parents=True)
        ext = "pptx" if f.name.endswith(".pdf") else f.name.rsplit(".", 1)[1]
        src = src_dir / f"doc{i}.{ext}"
        src.write_bytes(f.data)
        by_target[f.name.rsplit(".", 1)[1]].append((f, path, src))
    for target, group in by_target.items():
        outdir = work / "lo-out" / target
        subprocess.run(
            [soffice, f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to",
             target, "--outdir", str(outdir), *(str(s) for _, _, s in group)],
            check=False, capture_output=True, timeout=300,
        )  # fmt: skip
        for f, path, src in group:
            made = outdir / f"{src.stem}.{target}"
            if made.exists():
                f.data = made.read_bytes()
                path.write_bytes(f.data)
            else:
                failed.append(f"{path.parent.parent.name}/{f.name}")
    return failed


def materialise(cases: list[Case], work: Path) -> tuple[list[dict[str, Any]], list[str]]:
    """Each case's files written under ``work`` (OSWorld gets paths), as the driver's spec;
    and the files LibreOffice could not save again."""
    spec, redo = [], []

    def put(value: Any, folder: Path) -> Any:
        if isinstance(value, File):
            folder.mkdir(parents=True, exist_ok=True)
            for f in [value, *value.beside]:
                (folder / f.name).write_bytes(f.data)
                if f.lo:
                    redo.append((f, folder / f.name))
            return str(folder / value.name)
        if isinstance(value, list) and value and all(isinstance(v, File) for v in value):
            return [put(v, folder / str(i)) for i, v in enumerate(value)]
        return value

    for i, c in enumerate(cases):
        entry = {"module": MODULES[c.metric], "func": c.metric, "options": c.options,
                 "result": put(c.result, work / str(i) / "result")}  # fmt: skip
        if c.expected is not NO_EXPECTED:
            entry["expected"] = put(c.expected, work / str(i) / "expected")
        spec.append(entry)
    return spec, libreoffice(redo, work)


# ---- scoring ---------------------------------------------------------------------------------


def ours(case: Case) -> tuple[float, str]:
    from gcc_envs.osworld.filedata import FileData
    from gcc_envs.osworld.metrics import METRICS

    def data(value: Any) -> Any:
        if isinstance(value, File):
            main = FileData(value.data, value.name)
            return (
                [main, *(FileData(f.data, f.name) for f in value.beside)] if value.beside else main
            )
        if isinstance(value, list) and value and all(isinstance(v, File) for v in value):
            return [data(v) for v in value]
        return value

    metric = METRICS[case.metric]
    try:
        if case.expected is NO_EXPECTED:
            return float(metric(data(case.result), **case.options)), ""
        return float(metric(data(case.result), data(case.expected), **case.options)), ""
    except Exception as e:  # noqa: BLE001 - the evaluator scores an exception 0
        return 0.0, f"{type(e).__name__}: {e}"[:200]


def theirs(python: Path, root: str, spec: list[dict[str, Any]], work: Path) -> list[dict[str, Any]]:
    (work / "driver.py").write_text(DRIVER)
    (work / "spec.json").write_text(json.dumps(spec))
    subprocess.run(
        [str(python), str(work / "driver.py"), root, str(work / "spec.json"), str(work / "out.json")],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=work, timeout=1800,
    )  # fmt: skip
    return json.loads((work / "out.json").read_text())


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--venv", type=Path, default=Path.home() / ".cache/gcc-gym/osworld-parity",
                   help="OSWorld's virtual environment (made on first use)")  # fmt: skip
    p.add_argument("--metric", nargs="*", help="only these metrics")
    p.add_argument("--cases", action="store_true", help="print every case")
    p.add_argument(
        "--random-sheets",
        type=int,
        default=200,
        help="random sheet pairs for sheet_data (default 200)",
    )
    p.add_argument("--seed", type=int, default=0, help="of the random sheets")  # fmt: skip
    args = p.parse_args(argv)

    python = ensure_venv(args.venv)
    root = desktop_env_root(python)
    cases = [
        c
        for c in all_cases(args.random_sheets, args.seed)
        if not args.metric or c.metric in args.metric
    ]
    with tempfile.TemporaryDirectory(prefix="osworld-parity-") as tmp:
        work = Path(tmp)
        spec, unconverted = materialise(cases, work)
        their = theirs(python, root, spec, work)
    rows: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    misses = []
    for c, t in zip(cases, their):
        mine, note = ours(c)
        ref = t.get("score", 0.0)
        agree = abs(mine - ref) <= TOLERANCE
        group = "compare_table, random sheets" if c.name.startswith("random ") else c.metric
        rows[group][0] += 1
        rows[group][1] += agree
        line = f"  {c.metric} | {c.name} | ours {mine:.3f} {note} | OSWorld {ref:.3f} {t.get('error', '')}"
        if not agree:
            misses.append(line)
        elif args.cases:
            print(line)
    print(f"{'metric':<42} {'cases':>5} {'agree':>5}")
    for metric, (n, ok) in rows.items():
        print(f"{metric:<42} {n:>5} {ok:>5}")
    total, agreed = sum(n for n, _ in rows.values()), sum(ok for _, ok in rows.values())
    print(f"{'all':<42} {total:>5} {agreed:>5}")
    if unconverted:
        print("not saved again by LibreOffice (kept as made):", " ".join(unconverted))
    if misses:
        print("disagreements:", *misses, sep="\n")
    return 1 if misses else 0


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    raise SystemExit(main())
