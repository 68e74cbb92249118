"""The tournament's log page for its secretaries: every logged action, newest first,
filterable by kind and by series and table."""

from django.views.generic import TemplateView

from tournaments.log.selectors import tournament_log
from tournaments.mixins import ManageMixin, TournamentMixin
from tournaments.models import ActionLog


def _number(raw) -> int | None:
    try:
        value = int(str(raw)[:6])
    except (TypeError, ValueError):
        return None
    return value if value >= 1 else None


class TournamentLogView(TournamentMixin, ManageMixin, TemplateView):
    template_name = "tournaments/manage/log.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        kind = self.request.GET.get("kind") or ""
        if kind not in ActionLog.Kind.values:
            kind = ""
        series_number = _number(self.request.GET.get("series"))
        table_number = _number(self.request.GET.get("table"))
        context.update(
            lines=tournament_log(
                self.tournament,
                kind=kind or None,
                series_number=series_number,
                table_number=table_number,
            ),
            kinds=ActionLog.Kind.choices,
            kind=kind,
            series_number=series_number,
            table_number=table_number,
        )
        return context
