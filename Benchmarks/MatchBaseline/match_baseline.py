#!/usr/bin/env python3
"""The baseline of the `match --urls` benchmark (scripts/bench-match): a plain Python loop applying the same AASA
components with `re`, one URL a line, printing a verdict line per URL, as a person would script it.

    match_baseline.py AASA.json APP_ID URLS.txt > verdicts.txt

Patterns are translated the usual way (`*` → `.*`, `?` → `.`, a trailing `/*` also matching the bare path), and
the first component whose path and query hold decides (`exclude` blocks). It covers the components the benchmark's
document uses, not every rule of Apple's matcher.
"""
import json
import re
import sys
from urllib.parse import parse_qsl, urlsplit


def translate(pattern: str, parent: bool) -> "re.Pattern[str]":
    tail = ""
    if parent and pattern.endswith("/*"):
        pattern, tail = pattern[:-2], "(/.*)?"
    body = "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern)
    return re.compile("^" + body + tail + "$", re.DOTALL)


def main() -> None:
    document_path, app_id, urls_path = sys.argv[1:4]
    with open(document_path, encoding="utf-8") as handle:
        document = json.load(handle)
    rules = []
    for detail in document["applinks"]["details"]:
        if app_id not in detail.get("appIDs", []):
            continue
        for component in detail.get("components", []):
            query = [(name, translate(value, False)) for name, value in component.get("?", {}).items()]
            rules.append((translate(component.get("/", "*"), True), query, component.get("exclude", False)))
    out = sys.stdout
    with open(urls_path, encoding="utf-8") as handle:
        for line in handle:
            url = line.strip()
            if not url or url.startswith("#"):
                continue
            parts = urlsplit(url)
            items = parse_qsl(parts.query, keep_blank_values=True)
            verdict = "none"
            for path, query, exclude in rules:
                if not path.match(parts.path):
                    continue
                if all(
                    all(pattern.match(value) for key, value in items if key == name)
                    if any(key == name for key, _ in items)
                    else pattern.match("")
                    for name, pattern in query
                ):
                    verdict = "block" if exclude else "match"
                    break
            out.write(f"{verdict} {url}\n")


if __name__ == "__main__":
    main()
