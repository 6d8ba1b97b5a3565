"""What OSWorld's Chrome getters make of an address and of a page's texts (pure functions).

:func:`url_query`, :func:`url_dash_part` and :func:`url_path_filters` are the
``active_tab_url_parse``, ``url_dashPart`` and ``url_path_parse`` readings of the active tab's
address; :func:`html_reads` lists the page reads (:mod:`gcc_envs.apps.chrome.page_query`) an
``active_tab_html_parse`` config needs and :func:`html_values` names their answers as
OSWorld's getter does. The getters that feed them are :mod:`.getters_chrome`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from gcc_envs.errors import GCCError


def url_query(url: str, config: Mapping[str, Any]) -> dict[str, Any]:
    """The query parameters ``parse_keys`` of ``url`` (the first value, ``""`` when absent),
    renamed by ``replace``, ``or``: a key's fallback key when empty, ``split_list``: each value
    split at commas.

    >>> url_query("https://x.org/s?fromStation=BOM&departing=2026-12-07", {"parse_keys": ["fromStation", "departing"], "replace": {"departing": "time"}})
    {'fromStation': 'BOM', 'time': '2026-12-07'}
    >>> url_query("https://x.org/c?modelList=a,b", {"parse_keys": ["modelList"], "split_list": True})
    {'modelList': ['a', 'b']}
    """
    keys = config.get("parse_keys")
    if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
        raise GCCError(f"active_tab_url_parse: parse_keys must be a list of names, got {keys!r}")
    params = parse_qs(urlsplit(url).query)
    out: dict[str, Any] = {k: params.get(k, [""])[0] for k in keys}
    for old, new in (config.get("replace") or {}).items():
        if old in out:
            out[new] = out.pop(old)
    for key, fallback in (config.get("or") or {}).items():
        out[key] = out.get(key) or out.get(fallback, "")
    if config.get("split_list", False):
        out = {k: v.split(",") for k, v in out.items()}
    return out


def url_dash_part(url: str, config: Mapping[str, Any]) -> Any:
    """Part ``partIndex`` of ``url`` split at ``/`` (``needDeleteId``: its query cut off), as
    text (``returnType: string``) or as ``{key: part}`` (``json``).

    >>> url_dash_part("https://www.accuweather.com/en/gb/manchester/m15-6/december-weather/329260", {"partIndex": -2, "returnType": "json", "key": "time"})
    {'time': 'december-weather'}
    """
    try:
        part = url.split("/")[int(config["partIndex"])]
    except (KeyError, TypeError, ValueError) as e:
        raise GCCError(f"url_dashPart: partIndex must be an index, got {config.get('partIndex')!r}") from e  # fmt: skip
    except IndexError as e:
        raise GCCError(f"url_dashPart: {url!r} has no part {config['partIndex']}") from e
    if config.get("needDeleteId", False):
        part = part.split("?")[0]
    if config.get("returnType") == "string":
        return part
    if config.get("returnType") == "json":
        return {config["key"]: part}
    raise GCCError(f"url_dashPart: returnType must be 'string' or 'json', got {config.get('returnType')!r}")  # fmt: skip


#: The discounts that are not "50 % or more" (Macy's filter allows several at once).
_SMALLER_DISCOUNTS = ("30_PERCENT_ off & more", "20_PERCENT_ off & more")


def url_path_filters(url: str, config: Mapping[str, Any]) -> dict[str, Any]:
    """OSWorld's ``url_path_parse``, made for Macy's addresses (``/shop/mens-clothing/shirts/
    Men_regular_size_t,Price_discount_range/L,50_PERCENT_ off %26 more``): ``mens_clothing``,
    ``shirts``, ``short_sleeve`` (True, or None), and each of ``parse_keys`` the path's first
    ``names/values`` pair of segments gives (``Price_discount_range`` reads
    ``"50_PERCENT_ off & more"`` only when that is the one discount chosen).

    >>> url_path_filters("https://www.macys.com/shop/mens-clothing/shirts/Men_regular_size_t,Price_discount_range,Sleeve_length/L,50_PERCENT_%20off%20%26%20more,Short%20Sleeve?id=20626", {"parse_keys": ["Men_regular_size_t", "Price_discount_range"]})
    {'mens_clothing': True, 'shirts': True, 'short_sleeve': True, 'Men_regular_size_t': 'L', 'Price_discount_range': '50_PERCENT_ off & more'}
    """
    path = unquote(urlsplit(url).path)
    parts = path.strip("/").split("/")
    shirts, short_sleeve = "shirts" in path, "short-sleeve" in path
    pairs: dict[str, Any] = {"Men_regular_size_t": None, "Price_discount_range": None}
    for names, values in zip(parts, parts[1:]):
        if "," in names and "," in values:
            for name, value in zip(names.split(","), values.split(",")):
                name, value = name.strip(), value.strip()
                if name == "Price_discount_range":
                    pairs[name] = [v.strip() for v in value.split("|")] if value else None
                else:
                    pairs[name] = value or None
                shirts |= name == "Product_department" and value in ("shirts", "Shirts", "Shirt")
                short_sleeve |= name == "Sleeve_length" and value in ("short-sleeve", "Short Sleeve")  # fmt: skip
            break
    out: dict[str, Any] = {"mens_clothing": True if "mens-clothing" in path else None,
                           "shirts": shirts or None, "short_sleeve": short_sleeve or None}  # fmt: skip
    for key in config.get("parse_keys") or []:
        if key not in pairs:
            continue
        if key == "Price_discount_range":
            chosen = pairs[key] or []
            only_50 = "50_PERCENT_ off & more" in chosen and not any(d in chosen for d in _SMALLER_DISCOUNTS)  # fmt: skip
            out[key] = "50_PERCENT_ off & more" if only_50 else "not_50_PERCENT_ off & more"
        else:
            out[key] = pairs[key]
    return out


def html_reads(config: Mapping[str, Any]) -> list[list[str]]:
    """The page reads (:mod:`gcc_envs.apps.chrome.page_query`) an ``active_tab_html_parse``
    config needs, each once."""
    category = config.get("category")
    reads: list[list[str]] = []

    def need(op: str, keys: Any) -> None:
        for key in keys or {}:
            if [op, key] not in reads:
                reads.append([op, str(key)])

    if category == "class":
        need("texts", config.get("class_multiObject"))
        need("own_texts", config.get("class_multiObject_child"))
        need("h3_texts", config.get("class_multiObject_only_child"))
        need("texts", config.get("class_multiObject_search_exist"))
        need("texts", config.get("class_singleObject"))
    elif category == "label":
        need("label_text", config.get("labelObject"))
    elif category == "xpath":
        need("xpath_text", config.get("xpathObject"))
    elif category == "input":
        need("xpath_value", config.get("inputObject"))
    elif category == "class&url":
        need("texts", config.get("class_multiObject"))
        need("li_spans", config.get("class_multiObject_li"))
    else:
        raise GCCError(f"active_tab_html_parse: category {category!r} is not one of class, label, xpath, input, class&url")  # fmt: skip
    return reads


def _pick(texts: list[str], index: Any) -> str:
    i = int(index)
    return texts[i] if -len(texts) <= i < len(texts) else ""


def _chosen(out: dict[str, Any], texts: list[str], items: list[str]) -> None:
    """``class&url``: each item shown (ignoring case) is True; ``is_other_exist`` whether a
    text is part of no item."""
    for item in items:
        if any(item.lower() == t.lower() for t in texts):
            out[item.lower()] = True
    if any(all(t.lower() not in item.lower() for item in items) for t in texts):
        out["is_other_exist"] = True
    out.setdefault("is_other_exist", False)


def html_values(config: Mapping[str, Any], url: str, got: Mapping[tuple[str, str], Any]) -> dict[str, Any]:  # fmt: skip
    """OSWorld's ``active_tab_html_parse`` object from the reads' answers (``got[(op, arg)]``)
    and the page's address: each configured key gets its text (``""`` when the page lacks it).

    >>> html_values({"category": "class", "class_singleObject": {"date": "time"},
    ...              "class_multiObject_child": {"sep": {"0": "start", "1": "end"}}},
    ...             "", {("texts", "date"): ["Sat, Nov 28, 2026"], ("own_texts", "sep"): ["JFK"]})
    {'start': 'JFK', 'end': '', 'time': 'Sat, Nov 28, 2026'}
    """
    category = config.get("category")
    out: dict[str, Any] = {}
    if category == "class":
        for field, op in (("class_multiObject", "texts"), ("class_multiObject_child", "own_texts"),
                          ("class_multiObject_only_child", "h3_texts")):  # fmt: skip
            for name, keys in (config.get(field) or {}).items():
                for index, key in keys.items():
                    out[key] = _pick(got[(op, name)], index)
        for name, items in (config.get("class_multiObject_search_exist") or {}).items():
            texts = got[("texts", name)]
            out.update({item: item in texts for item in items if item != "is_other_exist"})
            if "is_other_exist" in items:
                out["is_other_exist"] = any(t not in items for t in texts)
        for name, key in (config.get("class_singleObject") or {}).items():
            out[key] = _pick(got[("texts", name)], 0)
    elif category in ("label", "xpath", "input"):
        field, op = {"label": ("labelObject", "label_text"), "xpath": ("xpathObject", "xpath_text"),
                     "input": ("inputObject", "xpath_value")}[category]  # fmt: skip
        for where, key in (config.get(field) or {}).items():
            out[key] = got[(op, where)] or ""
    elif category == "class&url":
        for name, items in (config.get("class_multiObject") or {}).items():
            _chosen(out, got[("texts", name)], items)
        for name, items in (config.get("class_multiObject_li") or {}).items():
            _chosen(out, got[("li_spans", name)], items)
        address = url.lower()
        for key in config.get("url_include_expected") or []:
            out.setdefault(key.lower(), key.lower() in address)
        for key, value in (config.get("url_include_expected_multichoice") or {}).items():
            out.setdefault(value.lower(), key.lower() in address)
    return out
