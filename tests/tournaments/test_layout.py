"""The layout of `tournaments/`: one folder per subject, imports that run one way.

Read from the source (imports inside functions included), so a shortcut that a newcomer
would trip over fails here first:
- no import cycle between modules of `tournaments/`;
- every import goes to the same floor or one below: shared → games → sheets → entry →
  standings → draw / registry / money → caching → pages (forms, tables, views, urls,
  exporters) → interchange, demo and the commands on top (`FLOORS`);
- no module outside `migrations/` is over 800 lines.
"""

import ast
from pathlib import Path

import pytest

import tournaments

APP = Path(tournaments.__file__).parent
MAX_LINES = 800

# Each module's floor, by the longest matching name prefix; a module may import only from
# its own floor or a lower one.
FLOORS = [
    (
        "shared",
        (
            "tournaments",
            "tournaments.apps",
            "tournaments.models",
            "tournaments.choices",
            "tournaments.errors",
            "tournaments.permissions",
            "tournaments.formats",
            "tournaments.paths",
            "tournaments.mixins",
            "tournaments.versions",
            "tournaments.demo_names",
            "tournaments.draw.engine",  # pure Python: the draw itself
            "tournaments.registry.player_import",  # reads a file, writes nothing
            "tournaments.validators",
            "tournaments.leagues.models",  # registered with the app's models
            "tournaments.money.models",  # registered with the app's models
            "tournaments.sheets.models",  # registered with the app's models
            # The action log: every subject's services write to it.
            "tournaments.log.models",
            "tournaments.log.services",
            "tournaments.log.selectors",
        ),
    ),
    ("games", ("tournaments.games",)),
    (
        "sheets",
        (
            "tournaments.sheets.selectors",
            "tournaments.sheets.totals",
            "tournaments.sheets.services",
        ),
    ),
    ("entry", ("tournaments.entry.selectors", "tournaments.entry.services")),
    (
        "standings",
        (
            "tournaments.standings.reads",
            "tournaments.standings.selectors",
            "tournaments.standings.cards",  # a table's card from its selector's figures
            "tournaments.leagues.selectors",
        ),
    ),
    (
        "draw, registry, money",
        (
            "tournaments.draw.selectors",
            "tournaments.draw.services",
            "tournaments.registry.services",
            "tournaments.registry.selectors",
            "tournaments.money.selectors",
            "tournaments.money.services",
            "tournaments.leagues.services",
        ),
    ),
    # States, ETags, the shared answers and the standings per version: read by the pages
    # and the API, reading the standings' selectors.
    ("caching", ("tournaments.caching",)),
    (
        "pages",
        (
            "tournaments.sheets",
            "tournaments.entry",
            "tournaments.standings",
            "tournaments.draw",
            "tournaments.registry",
            "tournaments.money",
            "tournaments.exporters",
            "tournaments.templatetags",
            "tournaments.api",
            "tournaments.leagues",
            "tournaments.log",
        ),
    ),
    (
        "top",
        (
            "tournaments.admin",
            "tournaments.interchange",
            "tournaments.leagues.interchange",
            "tournaments.leagues.demo",
            "tournaments.demo",
            "tournaments.urls_admin",
            "tournaments.urls_public",
            "tournaments.management",
        ),
    ),
]


def module_name(path: Path) -> str:
    parts = path.relative_to(APP.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def app_modules() -> dict[str, Path]:
    return {
        module_name(path): path
        for path in sorted(APP.rglob("*.py"))
        if "migrations" not in path.parts
    }


MODULES = app_modules()


def floor_of(name: str) -> int:
    best, floor = -1, None
    for index, (_label, prefixes) in enumerate(FLOORS):
        for prefix in prefixes:
            if (name == prefix or name.startswith(prefix + ".")) and len(prefix) > best:
                best, floor = len(prefix), index
    assert floor is not None, f"{name} has no floor in FLOORS"
    return floor


def imports_of(name: str) -> set[str]:
    """The app's modules that `name` imports, anywhere in it (functions included)."""
    path = MODULES[name]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # `from tournaments.sheets import services` imports a module; `from
            # tournaments.sheets.services import game_record` imports from one.
            targets = [f"{node.module}.{alias.name}" for alias in node.names]
            targets = [t if t in MODULES else node.module for t in targets]
        for target in targets:
            while target not in MODULES and "." in target:
                target = target.rsplit(".", 1)[0]
            if target in MODULES and target != name and target.startswith("tournaments"):
                found.add(target)
    return found


GRAPH = {name: imports_of(name) for name in MODULES}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(node):
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_no_import_cycle_between_the_apps_modules():
    cycle = find_cycle(GRAPH)
    assert cycle is None, " → ".join(cycle)


def test_the_cycle_finder_sees_a_cycle_through_an_import_inside_a_function():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_run_one_way(name):
    upward = [
        f"{target} ({FLOORS[floor_of(target)][0]})"
        for target in sorted(GRAPH[name])
        if floor_of(target) > floor_of(name)
    ]
    assert not upward, f"{name} ({FLOORS[floor_of(name)][0]}) imports from above: {upward}"


def test_the_bridge_to_the_rules_engine_is_games_alone():
    """Only `games` values a game: no other module calls the engine's scoring functions."""
    callers = []
    for name, path in MODULES.items():
        text = path.read_text(encoding="utf-8")
        if name != "tournaments.games" and ("score_mapping" in text or "scoring.score(" in text):
            callers.append(name)
    assert callers == []


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_is_over_800_lines(name):
    lines = MODULES[name].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"{name} has {lines} lines"
