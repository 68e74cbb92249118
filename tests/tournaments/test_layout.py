"""The layout of `tournaments/`: one folder per subject, imports that run one way.

Read from the source (imports inside functions included), so a shortcut that a newcomer
would trip over fails here first:
- no import cycle between modules of `tournaments/`, nor between its folders (no folder
  imports a folder that imports it, directly or round a longer loop);
- every import goes to the same floor or one below: shared → games → sheets → entry →
  standings → draw / registry / money / leagues → caching (states, answers, standings per
  version) → pages (forms, tables, views, urls, exporters, the API) → interchange, demo
  and the commands on top (`FLOORS`);
- no subject's module imports another subject's views (`shared_views` holds what they
  share);
- no module outside `migrations/` is over 800 lines.

A module's floor follows from where it is and what it is, with no module named on its own:
a module at the app's root is listed in `ROOT`; a subject's module sits on its folder's
floor (`FOLDERS`), unless its kind (`KINDS`, by file name) says otherwise: its models on
the shared floor (the app's models register them), its forms, tables, views, urls and
view mixins on the pages floor, its interchange and demo data on top.
"""

import ast
from pathlib import Path

import pytest

import tournaments

APP = Path(tournaments.__file__).parent
MAX_LINES = 800

# The floors, lowest first; a module may import only from its own floor or a lower one.
FLOORS = (
    "shared",
    "games",
    "sheets",
    "entry",
    "standings",
    "draw, registry, money, leagues",
    "caching",
    "pages",
    "top",
)
SHARED, GAMES, SHEETS, ENTRY, STANDINGS, SUBJECTS, CACHING, PAGES, TOP = range(len(FLOORS))

# The modules at the app's root, by floor.
ROOT = {
    "apps": SHARED,
    "models": SHARED,
    "choices": SHARED,
    "errors": SHARED,
    "permissions": SHARED,
    "formats": SHARED,
    "paths": SHARED,
    "mixins": SHARED,
    "versions": SHARED,
    "demo_names": SHARED,
    "validators": SHARED,
    "qr": SHARED,  # QR codes of addresses (segno)
    "lifecycle": SHARED,  # a finished tournament refuses writes (one guard)
    "phrases": SHARED,  # generated sentences: stored as what happened, said when shown
    "collation": SHARED,  # the German A–Z order of every list of names
    "bulk": SHARED,  # many plain rows at once (COPY on PostgreSQL): imports, rating recompute
    "fields": SHARED,  # form fields offering user text (names isolated)
    "games": GAMES,  # the one bridge to the rules engine
    "shared_views": PAGES,  # what several subjects' views share
    "alphabetical_fields": PAGES,  # forms' choice fields listed A–Z (collation)
    "admin": TOP,
    "demo": TOP,
    "urls_admin": TOP,
    "urls_public": TOP,
}

# Each folder's floor: its selectors, services and other workings sit there.
FOLDERS = {
    "log": SHARED,  # the action log: every subject's services write to it
    "ratings": SHEETS,  # updated in the transaction that closes a table (sheets imports it)
    "sheets": SHEETS,
    "entry": ENTRY,
    "standings": STANDINGS,
    "draw": SUBJECTS,
    "registry": SUBJECTS,
    "money": SUBJECTS,
    "leagues": SUBJECTS,
    "careers": SUBJECTS,  # a player's career and head to head (reads standings and leagues)
    "accounts": SUBJECTS,  # the site's people: clubs, leagues, invitations, roles
    "people": SUBJECTS,  # one person across clubs: memberships, duplicates, merges
    "hall": SUBJECTS,  # the hall's publishing state; its batches and sender (interchange.py): top
    "caching": CACHING,  # states, answers and standings per version: why public answers are fast
    "public": PAGES,  # the public pages
    "exporters": PAGES,
    "api": PAGES,
    "templatetags": PAGES,
    "interchange": TOP,
    "management": TOP,
    "publishing": SUBJECTS,  # keys, the public copy; its `interchange` (batches) on top
}

# The kinds of module (by file name) whose floor is not their folder's.
KINDS = {
    "models": SHARED,  # registered with the app's models, which every floor reads
    "forms": PAGES,
    "tables": PAGES,
    "views": PAGES,
    "urls": PAGES,
    "mixins": PAGES,  # view mixins
    "interchange": TOP,
    "demo": TOP,
}


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


def folder_of(name: str) -> str | None:
    """The subject folder a module is in; None for the app's root modules."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in FOLDERS else None


def floor_of(name: str) -> int:
    parts = name.split(".")
    folder = folder_of(name)
    if folder is None:
        if len(parts) == 1:
            return SHARED  # the app's package
        assert parts[1] in ROOT, f"{name} has no floor: add it to ROOT or put it in a folder"
        return ROOT[parts[1]]
    kind = parts[2] if len(parts) > 2 else None
    if kind == "models":
        return KINDS[kind]
    return max(FOLDERS[folder], KINDS.get(kind, FOLDERS[folder]))


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


def folder_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Folder → the other folders its modules import (the root's modules left out)."""
    folders: dict[str, set[str]] = {folder: set() for folder in FOLDERS}
    for name, targets in graph.items():
        if (folder := folder_of(name)) is not None:
            folders[folder] |= {folder_of(t) for t in targets} - {None, folder}
    return folders


def test_every_folder_has_a_floor():
    folders = {path.parent.name for path in APP.glob("*/__init__.py")} - {"migrations"}
    assert folders == set(FOLDERS)


def test_no_import_cycle_between_the_apps_folders():
    cycle = find_cycle(folder_graph(GRAPH))
    assert cycle is None, " → ".join(cycle)


def test_the_folder_graph_sees_two_folders_that_import_each_other():
    graph = {
        "tournaments.leagues.views": {"tournaments.exporters.season"},
        "tournaments.exporters.season": {"tournaments.leagues.selectors"},
        "tournaments.leagues.selectors": {"tournaments.models"},
    }
    folders = folder_graph(graph)
    assert folders["leagues"] == {"exporters"} and folders["exporters"] == {"leagues"}
    assert find_cycle(folders) == ["exporters", "leagues", "exporters"]


def test_no_subjects_views_import_another_subjects_views():
    """What several subjects' views share lives in `shared_views`, never in one of them."""
    borrowed = [
        f"{name} → {target}"
        for name, targets in GRAPH.items()
        for target in sorted(targets)
        if target.endswith(".views") and folder_of(target) != folder_of(name)
    ]
    assert borrowed == []


def test_the_cycle_finder_sees_a_cycle_through_an_import_inside_a_function():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_run_one_way(name):
    upward = [
        f"{target} ({FLOORS[floor_of(target)]})"
        for target in sorted(GRAPH[name])
        if floor_of(target) > floor_of(name)
    ]
    assert not upward, f"{name} ({FLOORS[floor_of(name)]}) imports from above: {upward}"


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
