"""Querysets compiled once: the busiest lookups of the public pages run, on every request,
the SQL the ORM wrote for them the first time, with that request's values.

Compiling a queryset costs more than running it for a lookup by key: the tournament of a
page with its club, season and league (`select_related`, about 120 columns) took 1.6 ms to
compile and 0.5 ms to run, on every request, including those answered from the page cache.
A `Prepared` builds its queryset once per database with placeholder values, keeps the SQL
and what Django's own iterables need to turn the rows into objects (the compiler's select
list, its converters, `select_related`'s populators), and afterwards only executes. The
objects and tuples are those the queryset gives (`tests/tournaments/test_prepared.py`).

Only plain querysets: model instances (with `select_related`) or `values_list` of fields,
filtered by the placeholders; no annotations, `extra`, `only`/`defer` or prefetching.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connections, router
from django.db.models.query import (
    ModelIterable,
    QuerySet,
    ValuesListIterable,
    get_related_populators,
)

BIGINT = (-(2**63), 2**63 - 1)


class Prepared:
    """`build(*placeholders)` compiled once per database; `rows(*values)` runs it."""

    def __init__(self, build: Callable[..., QuerySet], *placeholders):
        self.build = build
        self.placeholders = placeholders
        self._plans: dict[str, tuple] = {}
        self._model = None
        self._lock = threading.Lock()

    def _plan(self, alias: str | None) -> tuple:
        if alias is None and self._model is not None:
            alias = router.db_for_read(self._model)
        plan = self._plans.get(alias)
        if plan is not None:
            return alias, plan
        queryset = self.build(*self.placeholders)
        self._model = queryset.model
        alias = alias or router.db_for_read(queryset.model)
        query = queryset.query
        kind = queryset._iterable_class
        if (
            kind not in (ModelIterable, ValuesListIterable)
            or query.annotation_select
            or query.extra_select
            or query.deferred_loading != (frozenset(), True)
            or queryset._prefetch_related_lookups
        ):
            raise ValueError("Prepared takes plain model or values_list querysets only")
        compiler = query.get_compiler(using=alias)
        sql, params = compiler.as_sql()
        # Each parameter: the position of the value given for its placeholder, or a constant.
        slots = []
        for param in params:
            found = [
                i for i, p in enumerate(self.placeholders) if p == param and type(p) is type(param)
            ]
            slots.append((found[0], None) if found else (None, param))
        if not any(index is not None for index, _ in slots):
            raise ValueError("Prepared: no placeholder reached the SQL")
        columns = [
            expression for expression, _sql, _alias in compiler.select[: compiler.col_count]
        ]
        converters = list(compiler.get_converters(columns).items())
        objects = None
        if kind is ModelIterable:
            klass_info = compiler.klass_info
            start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
            names = [column[0].target.attname for column in compiler.select[start:end]]
            objects = (
                klass_info["model"],
                start,
                end,
                names,
                get_related_populators(klass_info, compiler.select, alias),
            )
        plan = (sql, tuple(slots), converters, objects)
        with self._lock:
            self._plans[alias] = plan
        return alias, plan

    def rows(self, *values, using: str | None = None) -> list:
        """What `list(build(*values))` gives: model instances or tuples."""
        if any(type(value) is int and not BIGINT[0] <= value <= BIGINT[1] for value in values):
            return []  # what the ORM gives for a key out of range (no database error)
        alias, (sql, slots, converters, objects) = self._plan(using)
        connection = connections[alias]
        params = [values[index] if index is not None else constant for index, constant in slots]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            fetched = cursor.fetchall()
        if converters:
            converted = []
            for row in fetched:
                row = list(row)
                for position, (functions, expression) in converters:
                    value = row[position]
                    for function in functions:
                        value = function(value, expression, connection)
                    row[position] = value
                converted.append(row)
            fetched = converted
        if objects is None:
            return [tuple(row) for row in fetched]
        model, start, end, names, populators = objects
        made = []
        for row in fetched:
            instance = model.from_db(alias, names, row[start:end])
            for populator in populators:
                populator.populate(row, instance)
            made.append(instance)
        return made

    def first(self, *values, using: str | None = None):
        rows = self.rows(*values, using=using)
        return rows[0] if rows else None
