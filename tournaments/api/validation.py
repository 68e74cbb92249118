"""Documents validated against their JSON Schemas (`api.document_schemas`).

The schemas describe the shape of `skat-tournament/1`, `skat-season/1` and the publishing
batch `skat-publish/1`: types, required fields, choices, ranges. The importers check more
(a game's value, player ids that exist, a declarer who holds cards); a document the
schema refuses is one the importer refuses too (tests hold both to that).

`document_problems(doc)` gives each problem as a `Problem`: its location as a JSON
pointer (`/series/0/tables/2/games/13/card_points`) and the validator's message, in
document order. The kind of document follows from its `format` unless given.
Validation uses the `jsonschema` library (Draft 2020-12, formats checked), the three
schemas in one `referencing` registry so that the season and the batch find the
tournament schema by its `$id`.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from referencing import Registry, Resource

from tournaments.api.document_schemas import ID_PREFIX, NAMES, schema_bytes

# A document's `format` and the schema that describes it.
FORMATS = {
    "skat-tournament/1": "skat-tournament-1",
    "skat-season/1": "skat-season-1",
    "skat-publish/1": "skat-publish-1",
}
# The command's short names of the kinds.
KINDS = {"tournament": "skat-tournament-1", "season": "skat-season-1", "publish": "skat-publish-1"}


# The schemas' patterns that say more in words than in a regular expression.
PATTERN_MESSAGES = {
    "^[^\\u0000-\\u001F\\u007F-\\u009F]*$": _lazy(
        "must not contain a control character (such as a line break)"
    ),
    "\\S": _lazy("must not be empty"),
    "^[-a-zA-Z0-9_]+$": _lazy("may hold only letters, digits, - and _"),
    "^-?[0-9]{1,6}\\.[0-9]{2}$": _lazy('must be an amount such as "5.00"'),
    "^-?[0-9]{1,8}\\.[0-9]{2}$": _lazy('must be an amount such as "5.00"'),
    "^-?[0-9]{1,3}\\.[0-9]{2}$": _lazy('must be an amount such as "5.00"'),
    "^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$": _lazy(
        "must be a UUID"
    ),
    "^[0-9]{4}-[0-9]{2}-[0-9]{2}$": _lazy("must be a date written YYYY-MM-DD"),
    "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?"
    "(Z|[+-][0-9]{2}:[0-9]{2})$": _lazy("must be a time in ISO 8601 with its offset"),
}

# The formats said in the same words as their patterns (one line, not two, per problem).
FORMAT_MESSAGES = {
    "date": PATTERN_MESSAGES["^[0-9]{4}-[0-9]{2}-[0-9]{2}$"],
    "uuid": PATTERN_MESSAGES[
        "^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$"
    ],
}


@dataclass(frozen=True)
class Problem:
    location: str  # a JSON pointer into the document ("" is the document itself)
    message: str

    def __str__(self):
        return f"{self.location or '/'}: {self.message}"


class UnknownFormat(ValueError):
    """The document names no format this site has a schema of."""


@functools.cache
def schema(name: str) -> dict:
    return json.loads(schema_bytes(name))


@functools.cache
def _registry() -> Registry:
    return Registry().with_resources(
        (ID_PREFIX + name, Resource.from_contents(schema(name))) for name in NAMES
    )


@functools.cache
def validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(
        schema(name),
        registry=_registry(),
        format_checker=Draft202012Validator.FORMAT_CHECKER,
    )


def schema_of(doc, kind: str | None = None) -> str:
    """The schema name for `kind` (tournament, season, publish) or the document's format."""
    if kind is not None:
        return KINDS[kind]
    given = doc.get("format") if isinstance(doc, dict) else None
    if given not in FORMATS:
        raise UnknownFormat(
            _("format must be one of %(formats)s, not %(given)s")
            % {"formats": ", ".join(FORMATS), "given": json.dumps(given, ensure_ascii=False)}
        )
    return FORMATS[given]


def _pointer(path) -> str:
    return "".join("/" + str(step).replace("~", "~0").replace("/", "~1") for step in path)


def _leaves(error):
    """The most specific errors under `error`: an `anyOf`, `oneOf` or `if`/`then` that
    failed is reported by the branch that came closest (jsonschema's `best_match`)."""
    if not error.context:
        yield error
        return
    best = best_match(error.context)
    if best is None:  # pragma: no cover - a context always has an error
        yield error
        return
    yield from _leaves(best)


def document_problems(doc, kind: str | None = None) -> list[Problem]:
    """Every place where `doc` breaks its schema, in document order (empty: valid)."""
    name = schema_of(doc, kind)
    problems = {
        Problem(_pointer(leaf.absolute_path), _message(leaf))
        for error in validator(name).iter_errors(doc)
        for leaf in _leaves(error)
    }
    return sorted(problems, key=_document_order)


def _message(error) -> str:
    """The validator's message, or for a pattern or format above what it means."""
    if error.validator == "pattern" and error.validator_value in PATTERN_MESSAGES:
        return f"{error.instance!r} {PATTERN_MESSAGES[error.validator_value]}"
    if error.validator == "format" and error.validator_value in FORMAT_MESSAGES:
        return f"{error.instance!r} {FORMAT_MESSAGES[error.validator_value]}"
    return error.message


def _document_order(problem: Problem):
    steps = problem.location.split("/")
    return [(0, int(s), "") if s.isdigit() else (1, 0, s) for s in steps], problem.message


def format_name(name: str) -> str:
    """The document format a schema describes (`skat-tournament-1` → `skat-tournament/1`)."""
    return next(fmt for fmt, schema_name in FORMATS.items() if schema_name == name)
