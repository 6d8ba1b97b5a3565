"""What the checkers read of a page's document: one fixed script, run in the page, and its plan.

A plan is JSON data (never code): how long to wait for the page, whether to return its HTML,
and a list of ``[op, argument]`` reads. The script (:data:`PAGE_SCRIPT`) waits until the
document is ``ready`` (``"complete"``: the load event; ``"interactive"``: parsed), then, with
``idle_ms``, until no resource has been fetched for that long (Playwright's "network idle"),
all within ``wait_ms``; it answers ``{"url", "title", "ready", "content"?, "results"}`` with
one result per read, in order. The reads mirror the DOM look-ups OSWorld's Playwright getters
make (``querySelectorAll("." + name)``, ``text_content().strip()``, XPath, ``input_value()``):

* ``texts``: the trimmed text of every element matching ``"." + name``;
* ``own_texts``: the first such element's own text nodes (trimmed, non-empty);
* ``h3_texts``: the trimmed text of each such element's first ``h3``;
* ``li_spans``: the trimmed ``innerText`` of the first ``span`` of each
  ``.name li.catAllProducts``;
* ``xpath_text`` / ``xpath_value``: the first node an XPath selects, its trimmed text / its
  form value (``None`` when nothing matches, or the node has no value);
* ``label_text``: the smallest element whose text holds the words (ignoring case and runs of
  blanks, as Playwright's ``text=`` selector), its trimmed text; ``None`` when none does.

>>> expression({"ops": [["texts", "price"]]}).endswith('{"ops": [["texts", "price"]]})')
True
>>> check_plan({"ops": [["eval", "1"]]})
Traceback (most recent call last):
...
gcc_envs.errors.BackendError: a page read must be one of h3_texts, label_text, li_spans, own_texts, texts, xpath_text, xpath_value, got ['eval', '1']
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from gcc_envs.errors import BackendError

OPS = frozenset({"texts", "own_texts", "h3_texts", "li_spans", "xpath_text", "xpath_value",
                 "label_text"})  # fmt: skip
READY = ("complete", "interactive")

PAGE_SCRIPT = r"""async (plan) => {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const deadline = Date.now() + (plan.wait_ms || 0);
  const ready = () => plan.ready === "interactive" ? document.readyState !== "loading"
                                                    : document.readyState === "complete";
  while (!ready() && Date.now() < deadline) await sleep(50);
  if (plan.idle_ms) {
    let count = -1, since = Date.now();
    while (Date.now() < deadline) {
      const n = performance.getEntriesByType("resource").length;
      if (n !== count) { count = n; since = Date.now(); }
      else if (Date.now() - since >= plan.idle_ms) break;
      await sleep(50);
    }
  }
  const trim = (s) => (s || "").trim();
  const all = (sel) => { try { return Array.from(document.querySelectorAll(sel)); } catch (e) { return []; } };
  const first = (xp) => {
    try {
      return document.evaluate(xp, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null)
        .singleNodeValue;
    } catch (e) { return null; }
  };
  const words = (s) => (s || "").replace(/\s+/g, " ").trim().toLowerCase();
  const reads = {
    texts: (c) => all("." + c).map((e) => trim(e.textContent)),
    own_texts: (c) => {
      const e = all("." + c)[0];
      if (!e) return [];
      return Array.from(e.childNodes).filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => trim(n.textContent)).filter(Boolean);
    },
    h3_texts: (c) => all("." + c).map((e) => e.querySelector("h3")).filter(Boolean)
      .map((h) => trim(h.textContent)),
    li_spans: (c) => all("." + c + " li.catAllProducts").map((e) => e.querySelector("span"))
      .filter(Boolean).map((s) => trim(s.innerText)),
    xpath_text: (xp) => { const n = first(xp); return n ? trim(n.textContent) : null; },
    xpath_value: (xp) => {
      const n = first(xp);
      return n && typeof n.value === "string" ? trim(n.value) : null;
    },
    label_text: (label) => {
      const want = words(label);
      const skip = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE"]);
      const has = (e) => !skip.has(e.tagName) && words(e.textContent).includes(want);
      for (const e of document.body ? document.body.querySelectorAll("*") : []) {
        if (has(e) && !Array.from(e.children).some(has)) return trim(e.textContent);
      }
      return null;
    },
  };
  const out = { url: location.href, title: document.title, ready: document.readyState };
  if (plan.content) {
    const dt = document.doctype;
    out.content = (dt ? "<!DOCTYPE " + dt.name + ">" : "") + document.documentElement.outerHTML;
  }
  out.results = (plan.ops || []).map(([op, arg]) => reads[op](arg));
  return out;
}"""


def check_plan(plan: Mapping[str, Any]) -> dict[str, Any]:
    """The plan as plain JSON data, or ``BackendError`` naming what is wrong."""
    ops = plan.get("ops", [])
    if not isinstance(ops, list):
        raise BackendError(f"a page plan's ops must be a list, got {ops!r}")
    for op in ops:
        if not (isinstance(op, list) and len(op) == 2 and op[0] in OPS and isinstance(op[1], str)):
            raise BackendError(f"a page read must be one of {', '.join(sorted(OPS))}, got {op!r}")
    if plan.get("ready", "complete") not in READY:
        raise BackendError(f"a page plan's ready must be one of {READY}, got {plan['ready']!r}")
    for key in ("wait_ms", "idle_ms"):
        if not isinstance(plan.get(key, 0), int) or not 0 <= plan.get(key, 0) <= 120_000:
            raise BackendError(f"a page plan's {key} must be milliseconds in [0, 120000]")
    return json.loads(json.dumps(dict(plan)))


def expression(plan: Mapping[str, Any]) -> str:
    """The JavaScript expression that runs the plan (the plan goes in as a JSON literal)."""
    return f"({PAGE_SCRIPT})({json.dumps(check_plan(plan))})"
