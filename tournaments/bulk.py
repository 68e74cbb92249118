"""Writing many plain rows at once, for the imports and the rating recompute.

`rows_insert` writes tuples of column values: COPY on PostgreSQL, one prepared INSERT run
for every row on SQLite. Several times faster than `bulk_create`, which builds a model
instance and an SQL text per batch (an import of 96,000 games; a recompute writing 350,000
rating changes, bench/rating.py). Nothing reads the rows' keys back.
"""

from django.db import connection


def rows_insert(model, columns: tuple[str, ...], rows: list[tuple]) -> None:
    """Insert `rows`, each the values of `columns` (field names of `model`) in order."""
    if not rows:
        return
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    names = ", ".join(quote(model._meta.get_field(name).column) for name in columns)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
                for values in rows:
                    copy.write_row(values)
        else:
            marks = ", ".join(["%s"] * len(columns))
            cursor.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", rows)
