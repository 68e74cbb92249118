"""django-tables2 tables of the season pages; they lay out `leagues.selectors` rows."""

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from tournaments.formats import format_match_points

NUM = {"th": {"class": "num"}, "td": {"class": "num"}}
HIDE_PHONE = {"th": {"class": "hide-phone"}, "td": {"class": "hide-phone"}}
HIDE_PHONE_NUM = {"th": {"class": "num hide-phone"}, "td": {"class": "num hide-phone"}}


def _day_columns(match_days, accessor):
    return [
        (
            f"day_{number}",
            tables.Column(
                verbose_name=_("Day %(n)s") % {"n": number},
                accessor=tables.A(accessor(day)),
                attrs=HIDE_PHONE_NUM,
                default="–",
                orderable=False,
            ),
        )
        for number, day in enumerate(match_days, start=1)
    ]


class SeasonTeamTable(tables.Table):
    """The team table: match points, then list points (rules §4)."""

    rank = tables.Column(verbose_name="#", attrs=NUM)
    team = tables.Column(verbose_name=_("Team"), attrs={"td": {"class": "name"}})
    club = tables.Column(verbose_name=_("Club"), attrs=HIDE_PHONE)
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


class SeasonPlayerTable(tables.Table):
    """The player table: the counted series' list points; unranked below the minimum."""

    rank = tables.Column(verbose_name="#", attrs=NUM, default="–")
    name = tables.Column(verbose_name=_("Player"), attrs={"td": {"class": "name"}})
    team = tables.Column(verbose_name=_("Team"), attrs=HIDE_PHONE)
    series = tables.Column(verbose_name=_("Series"), attrs=NUM, empty_values=())
    won = tables.Column(verbose_name=_("Won"), attrs=HIDE_PHONE_NUM)
    lost = tables.Column(verbose_name=_("Lost"), attrs=HIDE_PHONE_NUM)
    list_points = tables.Column(verbose_name=_("Points"), attrs=NUM)

    class Meta:
        orderable = False
        empty_text = _("No results yet.")

    def __init__(self, data, *, match_days=(), **kwargs):
        extra = _day_columns(match_days, lambda day: f"days__{day.slug}")
        sequence = ["rank", "name", "team", *(n for n, _c in extra)]
        sequence += ["series", "won", "lost", "list_points"]
        super().__init__(data, extra_columns=extra, sequence=sequence, **kwargs)
