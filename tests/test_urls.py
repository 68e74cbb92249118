"""Every URL keeps its name and its path: the layout can move views, never addresses.

The baseline (`urls_baseline.txt`) lists each named URL as `namespace:name<TAB>pattern`,
sorted. After adding or renaming a URL on purpose, rewrite it with
`UPDATE_URL_BASELINE=1 python -m pytest tests/test_urls.py` and review the diff.
"""

import os
from pathlib import Path

from django.urls import URLPattern, URLResolver, get_resolver

BASELINE = Path(__file__).with_name("urls_baseline.txt")


def named_urls(resolver=None, prefix: str = "", namespace: str = "") -> list[tuple[str, str]]:
    """(name, pattern) of every named URL, the patterns of the includes joined."""
    resolver = resolver or get_resolver()
    found = []
    for entry in resolver.url_patterns:
        pattern = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            found += named_urls(entry, pattern, inner)
        elif isinstance(entry, URLPattern) and entry.name:
            found.append((namespace + entry.name, pattern))
    return sorted(found)


def baseline_text() -> str:
    return "".join(f"{name}\t{pattern}\n" for name, pattern in named_urls())


def test_every_url_keeps_its_name_and_path():
    current = baseline_text()
    if os.environ.get("UPDATE_URL_BASELINE") == "1":
        BASELINE.write_text(current, encoding="utf-8")
    assert current == BASELINE.read_text(encoding="utf-8")


def test_the_baseline_names_each_url_once():
    names = [line.split("\t")[0] for line in BASELINE.read_text(encoding="utf-8").splitlines()]
    assert names and len(names) == len(set(names))
