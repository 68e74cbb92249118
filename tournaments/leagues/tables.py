"""django-tables2 tables of a season's team and player tables (`leagues.selectors` rows),
for both pages that show them: the season's tables page (`leagues.views`, a column per
match day) and a club's season page (`public.views`, sortable)."""

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from tournaments.formats import bdi, format_match_points, public_name
from tournaments.permissions import player_linked

NUM = {"th": {"class": "num"}, "td": {"class": "num"}}
HIDE_PHONE = {"th": {"class": "hide-phone"}, "td": {"class": "hide-phone"}}
# User text (a club, a team): its cell isolated, as `public.tables.TEXT_HIDE_PHONE`.
TEXT_HIDE_PHONE = {"th": {"class": "hide-phone"}, "td": {"class": "hide-phone", "dir": "auto"}}
TEXT_NAME = {"td": {"class": "name", "dir": "auto"}}
HIDE_PHONE_NUM = {"th": {"class": "num hide-phone"}, "td": {"class": "num hide-phone"}}
NARROW_NUM = {"th": {"class": "num hide-narrow"}, "td": {"class": "num hide-narrow"}}


def _day_columns(match_days, accessor):
    return [
        (
            f"day_{number}",
            tables.Column(
                verbose_name=_("Day %(n)s") % {"n": number},
                accessor=tables.A(accessor(day)),
                attrs=HIDE_PHONE_NUM,
                default="–",
            ),
        )
        for number, day in enumerate(match_days, start=1)
    ]


class SeasonTeamTable(tables.Table):
    """The team table: match points, then list points (rules §4). Not sortable unless
    `orderable=True` is given; a column per `match_days`."""

    rank = tables.Column(verbose_name="#", attrs=NUM)
    team = tables.Column(verbose_name=_("Team"), attrs=TEXT_NAME)
    club = tables.Column(verbose_name=_("Club"), attrs=TEXT_HIDE_PHONE)
    match_points = tables.Column(verbose_name=_("Match points"), attrs=NUM, empty_values=())
    list_points = tables.Column(verbose_name=_("Points"), attrs=NUM)

    class Meta:
        orderable = False
        empty_text = _("No teams yet.")

    def __init__(self, data, *, match_days=(), **kwargs):
        extra = _day_columns(match_days, lambda day: f"days__{day.slug}__list_points")
        sequence = ["rank", "team", "club", *(n for n, _c in extra), "match_points", "list_points"]
        super().__init__(data, extra_columns=extra, sequence=sequence, **kwargs)

    def render_match_points(self, record):
        return format_match_points(record.match_points_won, record.match_points_lost)

    def value_match_points(self, record):
        return format_match_points(record.match_points_won, record.match_points_lost)

    def order_match_points(self, rows, is_descending):
        ordered = sorted(
            rows, key=lambda r: (r.match_points_won, -r.match_points_lost), reverse=is_descending
        )
        return ordered, True


class SeasonPlayerTable(tables.Table):
    """The player table: one column of list points per counted match day, then the
    counted series ("10/14") and their totals; players below the season's minimum of series
    are listed without a rank. Not sortable unless `orderable=True` is given."""

    rank = tables.Column(verbose_name="#", attrs=NUM, default="–")
    name = tables.Column(verbose_name=_("Player"), attrs={"td": {"class": "name"}})
    team = tables.Column(verbose_name=_("Team"), attrs=TEXT_HIDE_PHONE)
    series = tables.Column(verbose_name=_("Series"), attrs=NUM, empty_values=())
    won = tables.Column(verbose_name=_("Won"), attrs=NARROW_NUM)
    lost = tables.Column(verbose_name=_("Lost"), attrs=NARROW_NUM)
    list_points = tables.Column(verbose_name=_("Points"), attrs=NUM)

    class Meta:
        orderable = False
        empty_text = _("No results yet.")

    def __init__(self, data, *, match_days=(), initials=False, **kwargs):
        # Players not listed publicly by initials (`permissions.names_by_initials`).
        self.initials = initials
        extra = _day_columns(match_days, lambda day: f"days__{day.slug}")
        if initials:
            # Sorted by the name shown: a hidden surname must not show through the order.
            column = type(self).base_columns["name"]
            extra.append(
                (
                    "name",
                    tables.Column(
                        verbose_name=column.verbose_name,
                        attrs=column.attrs,
                        order_by=("name_by_initials",),
                    ),
                )
            )
        sequence = ["rank", "name", "team", *(n for n, _c in extra)]
        sequence += ["series", "won", "lost", "list_points"]
        super().__init__(data, extra_columns=extra, sequence=sequence, **kwargs)

    def shown_name(self, record) -> str:
        return public_name(record.name, listed=record.listed, initials=self.initials)

    def render_name(self, record):
        # A closed season's archive keeps the names only; a player not listed publicly
        # has no public page to link to.
        if record.player_id is None or not player_linked(record.listed):
            return bdi(self.shown_name(record))
        return format_html(
            '<a href="{}">{}</a>',
            reverse("player_detail", kwargs={"pk": record.player_id}),
            bdi(self.shown_name(record)),
        )

    def value_name(self, record):
        return self.shown_name(record)

    def order_rank(self, rows, is_descending):
        # The unranked (None) stay below the ranked, either way.
        ranked = sorted(
            (r for r in rows if r.rank is not None), key=lambda r: r.rank, reverse=is_descending
        )
        return ranked + [r for r in rows if r.rank is None], True

    def order_series(self, rows, is_descending):
        ordered = sorted(
            rows, key=lambda r: (r.series_counted, r.series_played), reverse=is_descending
        )
        return ordered, True
