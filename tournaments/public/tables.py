"""django-tables2 tables: one per screen. They lay out selector rows and compute nothing.

`render_*` shapes HTML; `value_*` gives the plain figure that exports use.
"""

from functools import lru_cache, partial
from html import escape
from operator import attrgetter

import django_tables2 as tables
from django.conf import settings
from django.template.base import render_value_in_context
from django.template.context import Context
from django.urls import get_script_prefix, reverse
from django.utils.functional import cached_property
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.http import urlencode
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django_tables2.utils import A, signature

from tournaments.formats import bdi, format_rating, public_name
from tournaments.permissions import player_linked
from tournaments.ratings.selectors import listed_name
from tournaments.standings.selectors import CLOSED_SHORT_MARK, closed_short_notes

NUM = {"th": {"class": "num"}, "td": {"class": "num"}}
HIDE_PHONE = {"th": {"class": "hide-phone"}, "td": {"class": "hide-phone"}}
HIDE_PHONE_NUM = {"th": {"class": "num hide-phone"}, "td": {"class": "num hide-phone"}}
# User text (a club, a team): its cell isolated (dir="auto", `formats.bdi`), so that a
# right-to-left override in it reorders nothing after it.
TEXT_HIDE_PHONE = {"th": {"class": "hide-phone"}, "td": {"class": "hide-phone", "dir": "auto"}}
# Won and lost give way on the narrowest phones so that the points stay on screen.
NARROW_NUM = {"th": {"class": "num hide-narrow"}, "td": {"class": "num hide-narrow"}}


PROVISIONAL_TITLE = _("provisional: games entered at the table, not yet confirmed")
CLOSED_SHORT_TITLE = _("includes a sheet closed short: fewer games than a full sheet")


class QuickBodyMixin:
    """The table's body rows built in Python rather than by the stock template's two nested
    loops, which cost about 2 ms a row (a hundred standings rows took 250 ms to render).

    The cells are those django-tables2 renders (`BoundRow.get_cell`): the value at the
    column's accessor, the column's default for an empty value, else the table's
    `render_<name>` (called with the arguments it names) or the column's own `render`,
    shown as the template's `{{ cell }}` shows it. Columns of other kinds than a plain
    `Column` (links, templates, callable cell attributes) keep the stock template:
    `body_html` is then None and `django_tables2/quick_table.html` falls back to it.
    """

    CELL_ARGUMENTS = {"value", "record", "column", "bound_column", "table"}
    # True: each record's row is kept with the record, per columns, language and row
    # attributes, and built again only for another record (a table whose records are not
    # changed once made, and whose cells show nothing but the record: the standings, whose
    # rows a newer version shares where they did not change).
    keep_rows = False

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("template_name", "django_tables2/quick_table.html")
        super().__init__(*args, **kwargs)

    def _cell_plan(self):
        """Per shown column its bound column, empty values and render (`_cell_call`), with
        the reader of a row's values (`_row_reader`); None where the stock template must
        render the body."""
        plan = []
        for bound in self.columns:
            column = bound.column
            if type(column) is not tables.Column or bound.link or column.localize is not None:
                return None
            raw = {**self.attrs, **column.attrs}
            td = raw.get("td", raw.get("cell", {}))
            if any(callable(value) for value in td.values()):
                return None
            if getattr(self, f"render_{bound.name}", None) is None and (
                type(column).render is tables.Column.render
            ):
                render, names = None, ()  # Column.render gives the value as it is
            else:
                render = bound.render
                function = getattr(render, "__func__", None)  # a method: its function's
                names, catch_all = (
                    signature(render) if function is None else _method_arguments(function)
                )
                if catch_all or not set(names) <= self.CELL_ARGUMENTS:
                    return None
            plan.append((bound, column.empty_values, _cell_call(render, names, bound, self)))
        return plan, _row_reader(tuple(bound.accessor for bound in self.columns))

    def _column_attrs(self) -> dict:
        """Each shown column's attributes (`BoundColumn.attrs`, computed anew at every
        read) once for the header and the body, per ordering of the table."""
        ordering = tuple(self.order_by or ())
        kept = self.__dict__.get("_quick_attrs")
        if kept is None or kept[0] != ordering:
            kept = self._quick_attrs = (ordering, {c.name: c.attrs for c in self.columns})
        return kept[1]

    @property
    def body_html(self):
        """The `<tr>` rows of the current page as HTML, or None for the stock template."""
        planned = self._cell_plan()
        if planned is None:
            return None
        plan, read_row = planned
        context = Context(autoescape=True)
        attrs = self._column_attrs()
        tds = [f"<td {attrs[bound.name]['td'].as_html()}>" for bound, *_ in plan]
        # `initials`: a table showing players not listed publicly by initials.
        kind = (
            type(self),
            *tds,
            get_language(),
            get_script_prefix(),
            getattr(self, "initials", None),
        )
        grouping = settings.USE_THOUSAND_SEPARATOR
        lines = []
        for row in self.paginated_rows:
            record = row.record
            if self.row_attrs:
                opening = f"<tr {row.attrs.as_html()}>"
            else:  # what the attributes are without any of the table's own
                opening = f'<tr class="{row.get_even_odd_css_class()}">'
            kept = None
            if self.keep_rows and hasattr(record, "__dict__"):
                kept = record.__dict__.setdefault("_quick_rows", {})
                line = kept.get((kind, opening))
                if line is not None:
                    lines.append(line)
                    continue
            cells = []
            values = read_row(record)
            for td, (bound, empty, call), value in zip(tds, plan, values, strict=True):
                if value in empty:
                    cell = bound.default
                elif call is None:
                    cell = value
                else:
                    cell = call(value, record)
                kind_of_cell = type(cell)
                if kind_of_cell is int and not grouping:
                    shown = str(cell)  # what localize() gives an int without grouping
                elif kind_of_cell is SafeString:
                    shown = cell  # what the template shows of a safe string
                elif kind_of_cell is str:
                    shown = escape(cell)  # django.utils.html.escape is html.escape
                else:
                    shown = render_value_in_context(cell, context)
                cells.append(f"{td}{shown}</td>")
            line = f"{opening}{''.join(cells)}</tr>"
            if kept is not None:
                kept[(kind, opening)] = line
            lines.append(line)
        return mark_safe("\n".join(lines))

    @property
    def head_html(self):
        """The header row's `<th>` cells as the stock template's `table.thead` makes them
        (its `querystring_replace` link on each sortable column: the request's query with
        this column's next ordering), or None for the stock template (no request)."""
        request = getattr(self, "request", None)
        if request is None:
            return None
        field = self.prefixed_order_by_field
        attrs = self._column_attrs()
        query = dict(request.GET)
        # The query without an ordering yet (the usual first visit): the ordering is added
        # at its end, the rest encoded once for every column.
        rest = None
        if field not in ("", None) and field not in query:
            rest = urlencode(query, doseq=True)
            rest = f"?{rest}&" if rest else "?"
        cells = []
        for column in self.columns:
            header = conditional_escape(column.header)
            if column.orderable:
                if rest is not None:
                    href = rest + urlencode({field: column.order_by_alias.next})
                else:
                    params = dict(query)
                    if field not in ("", None):
                        params[field] = column.order_by_alias.next
                    href = "?" + urlencode(params, doseq=True)
                header = f'<a href="{escape(href)}">{header}</a>'
            cells.append(f"<th {attrs[column.name]['th'].as_html()}>{header}</th>")
        return mark_safe("".join(cells))


_MISSING = object()


def _bits(accessor: str) -> list[tuple[str, int | None]] | None:
    """The accessor's parts (`series__2__list_points`: each with its number, if one), or
    None for a dotted or empty accessor (read through the Accessor only)."""
    if "." in accessor or not accessor:
        return None
    return [(bit, int(bit) if bit.isdigit() else None) for bit in accessor.split("__")]


def _walk(current, bits, record, resolve):
    """Follow `bits` from `current` (a part of `record`): keys of plain dicts (or their
    numbers), attributes of plain objects; anything else (a callable, an object with `[]`,
    a key not there) through the Accessor (`resolve(record)`). None ends the path."""
    for bit, number in bits:
        if type(current) is dict:
            if bit in current:
                current = current[bit]
            elif number is not None and number in current:
                current = current[number]
            else:
                return resolve(record)
        elif _subscriptable(type(current)):
            return resolve(record)
        else:
            current = getattr(current, bit, _MISSING)
            if current is _MISSING:
                return resolve(record)
        if callable(current):
            return resolve(record)
        if current is None:
            break
    return current


def _getter(accessor: str):
    """A function of a record giving what `Accessor(accessor).resolve` gives: attributes of
    plain objects and keys of plain dicts are read directly (most cells, and the series
    columns' `series__2__list_points`: the series dict's keys are numbers), anything else
    (a callable, an object with `[]`, a key not there) through the Accessor."""
    resolve = A(accessor).resolve
    bits = _bits(accessor)
    if bits is None:
        return resolve

    def read(record):
        if isinstance(record, dict):
            return resolve(record)
        return _walk(record, bits, record, resolve)

    return read


def _read_or_none(getter, record):
    try:
        return getter(record)
    except Exception:  # noqa: BLE001 - django-tables2 shows the default too
        return None


@lru_cache(maxsize=64)
def _row_reader(accessors: tuple[str, ...]):
    """A function of a record giving each accessor's value as `_getter`'s would (an error:
    None), for a table's row: the first part of every accessor is read from a plain object
    in one step (`operator.attrgetter`); a record with `[]` (a dict), a missing or callable
    first part, reads each value through its getter instead. Made once per columns."""
    getters = [_getter(accessor) for accessor in accessors]
    firsts: list[str] = []
    paths = []  # per accessor: None (its getter) or (its first part's slot, the rest)
    for accessor in accessors:
        bits = _bits(accessor)
        if bits is None or bits[0][1] is not None:
            paths.append(None)
            continue
        if bits[0][0] not in firsts:
            firsts.append(bits[0][0])
        paths.append((firsts.index(bits[0][0]), bits[1:], A(accessor).resolve))

    def each(record):
        return [_read_or_none(getter, record) for getter in getters]

    if not firsts:
        return each
    read_firsts = attrgetter(*firsts)
    single = len(firsts) == 1
    steps = list(zip(paths, getters, strict=True))

    def read_row(record):
        if _subscriptable(type(record)):
            return each(record)
        try:
            found = read_firsts(record)
        except Exception:  # noqa: BLE001 - each getter decides (the Accessor's rules)
            return each(record)
        if single:
            found = (found,)
        if any(map(callable, found)):
            return each(record)
        values = []
        for path, getter in steps:
            if path is None:
                values.append(_read_or_none(getter, record))
                continue
            slot, rest, resolve = path
            value = found[slot]
            if rest and value is not None:
                try:
                    value = _walk(value, rest, record, resolve)
                except Exception:  # noqa: BLE001
                    value = None
            values.append(value)
        return values

    return read_row


def _cell_call(render, names, bound, table):
    """`render` as a function of a cell's value and record, the other arguments it names
    (the column, the bound column, the table) given once; None for no render."""
    if render is None:
        return None
    given = {"column": bound.column, "bound_column": bound, "table": table}
    fixed = {name: given[name] for name in names if name in given}
    if fixed:
        render = partial(render, **fixed)
    if "value" in names and "record" in names:
        return lambda value, record: render(value=value, record=record)
    if "value" in names:
        return lambda value, record: render(value=value)
    if "record" in names:
        return lambda value, record: render(record=record)
    return lambda value, record: render()


@lru_cache(maxsize=256)
def _method_arguments(function) -> tuple[tuple[str, ...], str | None]:
    """`signature` of a method's bound render (its arguments after `self`), found once
    per function rather than per table (`inspect.signature` costs more than a page of
    cells)."""
    names, catch_all = signature(function)
    return names[1:], catch_all


@lru_cache(maxsize=256)
def _subscriptable(kind: type) -> bool:
    return hasattr(kind, "__getitem__")


_PLAYER_SENTINEL = 987654321


@lru_cache(maxsize=64)
def _player_url_parts(_language, _prefix) -> tuple[str, str]:
    """The player page's address around its id, escaped, per language and script prefix
    (the address is the same for every player but the id: reversed once, not per row)."""
    before, after = reverse("player_detail", kwargs={"pk": _PLAYER_SENTINEL}).rsplit(
        str(_PLAYER_SENTINEL), 1
    )
    return escape(before), escape(after)


def _player_link(record, url_parts: tuple[str, str] | None = None, *, initials: bool = False):
    """`<a href="/players/ID/">name</a>`, as format_html makes it (every part escaped); a
    player not listed publicly by their public name (`initials`: by initials) and without
    a link, their page being closed to the public. `url_parts`: `_player_url_parts` of the
    request's language and prefix, if known."""
    listed = getattr(record, "player_listed", True)
    name = bdi(public_name(record.player_name, listed=listed, initials=initials))
    if not player_linked(listed):
        return SafeString(name)
    before, after = url_parts or _player_url_parts(get_language(), get_script_prefix())
    return SafeString(f'<a href="{before}{escape(str(record.player_id))}{after}">{name}</a>')


def shown_player_name(record, *, initials: bool) -> str:
    """A standings row's player as a public table shows and sorts it (`public_name`)."""
    return public_name(
        record.player_name, listed=getattr(record, "player_listed", True), initials=initials
    )


def by_initials(column: tables.Column) -> tables.Column:
    """A copy of a name column that sorts by the name shown where players not listed
    publicly show by initials (the rows' `name_by_initials`)."""
    return tables.Column(
        verbose_name=column.verbose_name, attrs=column.attrs, order_by=("name_by_initials",)
    )


class StandingsTable(QuickBodyMixin, tables.Table):
    """Tournament or series standings: rank, player, one column per series, totals."""

    rank = tables.Column(verbose_name="#", attrs=NUM)
    player_name = tables.Column(verbose_name=_("Player"), attrs={"td": {"class": "name"}})
    club = tables.Column(verbose_name=_("Club"), attrs=TEXT_HIDE_PHONE)
    team = tables.Column(verbose_name=_("Team"), attrs=TEXT_HIDE_PHONE)
    # Mid-series the players have played different numbers of games so far.
    games = tables.Column(verbose_name=_("Games"), attrs=NUM)
    won = tables.Column(verbose_name=_("Won"), attrs=NARROW_NUM)
    lost = tables.Column(verbose_name=_("Lost"), attrs=NARROW_NUM)
    others_lost = tables.Column(verbose_name=_("Others' lost"), attrs=HIDE_PHONE_NUM)
    game_points = tables.Column(verbose_name=_("Game points"), attrs=HIDE_PHONE_NUM)
    list_points = tables.Column(verbose_name=_("Points"), attrs=NUM)

    keep_rows = True

    class Meta:
        orderable = True
        attrs = {"class": "standings"}
        empty_text = _("No results yet.")

    def __init__(
        self,
        data,
        *,
        series_numbers=(),
        list_scoring=True,
        exclude=(),
        in_play=False,
        initials=False,
        **kwargs,
    ):
        # Players not listed publicly by initials (`permissions.names_by_initials`).
        self.initials = initials
        extra = [
            (
                f"series_{n}",
                tables.Column(
                    verbose_name=_("S%(n)s") % {"n": n},
                    accessor=tables.A(f"series__{n}__list_points"),
                    attrs=HIDE_PHONE_NUM,
                    default="–",
                ),
            )
            for n in series_numbers
        ]
        if initials:
            # Sorted by the name shown: a hidden surname must not show through the order.
            extra.append(("player_name", by_initials(type(self).base_columns["player_name"])))
        sequence = [
            "rank",
            "player_name",
            "club",
            "team",
            *(name for name, _column in extra),
            "games",
            "won",
            "lost",
            "others_lost",
            "game_points",
            "list_points",
        ]
        exclude = (*exclude, *(() if list_scoring else ("others_lost",)))
        exclude = (*exclude, *(() if in_play else ("games",)))
        super().__init__(data, extra_columns=extra, sequence=sequence, exclude=exclude, **kwargs)
        # Games entered at a table count before the sheet is confirmed, marked (legend).
        self.has_provisional = any(getattr(row, "provisional", False) for row in data)
        # A result from a sheet closed short is ranked with the full ones, marked (legend).
        self.closed_short_notes = closed_short_notes(data)

    def render_list_points(self, value, record):
        if getattr(record, "provisional", False):
            value = format_html(
                '{} <abbr class="provisional" title="{}">*</abbr>', value, PROVISIONAL_TITLE
            )
        short = getattr(record, "closed_short", None)
        if short:
            value = format_html(
                '{} <abbr class="closed-short" title="{}">{}</abbr>',
                value,
                CLOSED_SHORT_TITLE,
                CLOSED_SHORT_MARK,
            )
        return value

    def value_list_points(self, value, record):
        return value

    def render_player_name(self, record):
        return _player_link(record, self._player_url, initials=self.initials)

    @cached_property
    def _player_url(self) -> tuple[str, str]:
        """The player page's address around the id, for this table's request."""
        return _player_url_parts(get_language(), get_script_prefix())

    def value_player_name(self, record):
        return shown_player_name(record, initials=self.initials)


class TeamStandingsTable(tables.Table):
    rank = tables.Column(verbose_name="#", attrs=NUM)
    team = tables.Column(verbose_name=_("Team"), attrs={"td": {"class": "wrap", "dir": "auto"}})
    members = tables.Column(verbose_name=_("Members"), attrs={"td": {"class": "name"}})
    won = tables.Column(verbose_name=_("Won"), attrs=NARROW_NUM)
    lost = tables.Column(verbose_name=_("Lost"), attrs=NARROW_NUM)
    list_points = tables.Column(verbose_name=_("Points"), attrs=NUM)

    class Meta:
        orderable = True
        empty_text = _("No teams.")

    def __init__(self, data, *, initials=False, **kwargs):
        self.initials = initials  # `permissions.names_by_initials`
        super().__init__(data, **kwargs)

    def render_members(self, record):
        return format_html_join(
            ", ",
            "{} ({})",
            (
                (bdi(shown_player_name(m, initials=self.initials)), m.list_points)
                for m in record.members
            ),
        )

    def value_members(self, record):
        return ", ".join(
            f"{shown_player_name(m, initials=self.initials)} ({m.list_points})"
            for m in record.members
        )


class RatingTable(QuickBodyMixin, tables.Table):
    """A rating list (`ratings.selectors.rating_list`): rank, player, home club, rating
    with its uncertainty, series rated. In the list's order (best first), not sortable."""

    rank = tables.Column(verbose_name="#", attrs=NUM)
    player = tables.Column(verbose_name=_("Player"), attrs={"td": {"class": "name"}})
    club = tables.Column(verbose_name=_("Club"), accessor="player", attrs=TEXT_HIDE_PHONE)
    rating = tables.Column(verbose_name=_("Rating"), attrs=NUM)
    series = tables.Column(verbose_name=_("Series"), attrs=HIDE_PHONE_NUM)

    class Meta:
        orderable = False
        attrs = {"class": "standings ratings"}
        empty_text = _("No player has a rating here yet.")

    def render_player(self, record):
        name = bdi(listed_name(record.player))
        if not player_linked(record.player.listed):  # no public page to link to
            return SafeString(name)
        parts = _player_url_parts(get_language(), get_script_prefix())
        return SafeString(
            f'<a href="{parts[0]}{escape(str(record.player.pk))}{parts[1]}">{name}</a>'
        )

    def value_player(self, record):
        return listed_name(record.player)

    def render_club(self, record):
        """The home club, linked to its own rating list."""
        club = record.player.club
        if club is None:
            return "–"
        url = reverse("club_ratings", kwargs={"club": club.pk})
        return format_html('<a href="{}">{}</a>', url, bdi(club.name))

    def value_club(self, record):
        club = record.player.club
        return club.name if club else ""

    def render_rating(self, record):
        return format_rating(record.rating, record.uncertainty)

    def value_rating(self, record):
        return record.rating
