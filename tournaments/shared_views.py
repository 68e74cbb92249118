"""What several subjects' views share; a subject's views import these, never another
subject's views.

- `SeasonMixin`: `self.season` from the `season` slug (the season pages and downloads);
- `SeasonTablesMixin`: a page of a season's tables (the league's tables page and a club's
  season page): its state, who may see it, its tables for the category asked for;
- `category_of`: the `?category=` asked for;
- `SheetMixin`: a table of a tournament the signed-in secretary manages (the desk's sheet
  screens and the director's entry pages);
- `preview_reply`: the live value of a typed row as the desk's and the phone's scripts
  read it;
- `history`: a game's changes as lines "field: old → new";
- `positive_int`: a whole number from 1 up out of a query or form value;
- `show_error`: a refusal as a message, with links to the sheets it names;
- `entry_url`: the absolute address of a table's phone link, as the QR codes carry it;
- `confirmed`, `confirmation_page`: an action that cannot be undone asks once, without
  JavaScript: its first POST (or a GET) changes nothing and answers with a page that says
  what will happen; that page posts the same fields again with `confirmed=1`.
"""

from django.contrib import messages
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _

from tournaments import permissions
from tournaments.caching.answers import VersionedPageMixin
from tournaments.caching.states import State, season_state
from tournaments.errors import UserError
from tournaments.formats import game_field_label, game_value_shown
from tournaments.games import game_preview
from tournaments.leagues.selectors import SeasonTables, season_tables
from tournaments.mixins import ManageMixin, TableMixin
from tournaments.models import (
    Category,
    GameChange,
    GameType,
    RuleSet,
    Season,
    Series,
)
from tournaments.sheets.forms import GameRowForm, seats_of


class SeasonMixin:
    """`self.season` from the `season` slug."""

    @cached_property
    def season(self) -> Season:
        return get_object_or_404(
            Season.objects.select_related("club", "league"), slug=self.kwargs["season"]
        )

    @cached_property
    def can_manage(self) -> bool:
        return permissions.can_manage_season(self.request.user, self.season)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["season"] = self.season
        context["can_manage"] = self.can_manage
        return context


def category_of(request) -> str:
    """The category of `?category=`: one of `Category`'s, else "" (every player)."""
    category = request.GET.get("category", "")
    return category if category in Category.values else ""


class SeasonTablesMixin(VersionedPageMixin, SeasonMixin):
    """A page of a season's tables: answered from the season's state (ETag, 304, the
    shared cache); seen once a match day is published, or by who runs the season; its
    tables (`season_tables`) those of the category asked for, over the match days the
    viewer may see."""

    def page_state(self) -> State:
        state = season_state(self.kwargs["season"])
        if state is None:
            raise Http404
        return state

    def tables_asked(self) -> tuple[SeasonTables, str]:
        """The season's tables and the category they are of ("" for every player)."""
        season = self.season
        if not permissions.can_view_season(self.request.user, season):
            raise Http404
        category = category_of(self.request)
        viewer = self.request.user if self.request.user.is_authenticated else None
        return season_tables(season, category=category or None, viewer=viewer), category

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["categories"] = [c for c in Category.choices if c[0]]
        return context


class SheetMixin(TableMixin, ManageMixin):
    """A table of a tournament the signed-in secretary manages."""

    @cached_property
    def seats(self):
        return seats_of(self.table)

    @cached_property
    def is_na(self) -> bool:
        return self.tournament.rules == RuleSet.NA

    @cached_property
    def next_number(self) -> int:
        return max(self.table.games.values_list("number", flat=True), default=0) + 1

    def sheet_url(self, fragment: str = "") -> str:
        url = reverse(
            "manage:sheet",
            kwargs={
                "tournament": self.tournament.slug,
                "series": self.series.number,
                "table": self.table.number,
            },
        )
        return f"{url}#{fragment}" if fragment else url

    def row_form(self, data=None, **kwargs):
        return GameRowForm(
            data,
            table=self.table,
            tournament=self.tournament,
            number=self.next_number,
            seats=self.seats,
            **kwargs,
        )

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["seats"] = self.seats
        context["series_closed"] = self.series.status == Series.Status.CLOSED
        return context


def preview_reply(form: GameRowForm, *, table, number: int | None) -> JsonResponse:
    """The live value of a typed row as the screens' scripts read it (desk and phone):
    {"ok": true, value, score, won, overbid, list points, "text"}, or {"ok": false,
    "error", "field"} naming the field to mark."""
    if not form.is_valid():
        field, errors = next(iter(form.errors.items()))
        return JsonResponse(
            {"ok": False, "error": errors[0], "field": None if field == "__all__" else field}
        )
    try:
        result = game_preview(table=table, data=form.game_mapping(), number=number)
    except UserError as error:
        return JsonResponse({"ok": False, "error": str(error), "field": form.error_field(error)})
    text = preview_text(
        result, form.cleaned_data["game"], list_points=form.tournament.uses_list_points
    )
    return JsonResponse({"ok": True, **result, "text": text})


def preview_text(result: dict, game: str, *, list_points: bool) -> str:
    """The engine's figures in words: "Value 72 · +72 · won · list +122"."""
    parts = []
    if result["value"]:
        parts.append(_("Value %(value)s") % {"value": result["value"]})
    elif game == GameType.PASSED:
        parts.append(_("Passed in"))
    parts.append(f"{result['score']:+d}")
    if result["won"] is not None:
        parts.append(_("won") if result["won"] else _("lost"))
    if result["overbid"]:
        parts.append(_("overbid"))
    if list_points and game != GameType.PASSED:
        parts.append(_("list %(points)s") % {"points": f"{result['list_declarer']:+d}"})
        if result["list_others"]:
            parts.append(_("others %(points)s") % {"points": f"{result['list_others']:+d}"})
    return " · ".join(parts)


def show_error(request, error: UserError, tournament):
    """A refusal as a message; games still provisional or disputed come with links to
    their sheets' confirmation pages."""
    tables = getattr(error, "tables", None)
    if not tables:
        messages.error(request, str(error))
        return
    links = format_html_join(
        ", ",
        '<a href="{}">{}</a>',
        (
            (
                reverse(
                    "manage:entry_confirm",
                    kwargs={
                        "tournament": tournament.slug,
                        "series": u.series_number,
                        "table": u.table_number,
                    },
                ),
                _("series %(s)s table %(t)s") % {"s": u.series_number, "t": u.table_number},
            )
            for u in tables
        ),
    )
    messages.error(request, format_html("{} {}", str(error), links))


def entry_url(request, token: str) -> str:
    """The absolute address of a link, as the QR codes carry it."""
    return request.build_absolute_uri(reverse("entry", kwargs={"token": token}))


# --------------------------------------------------------------------------------------
# How a game's history reads
# --------------------------------------------------------------------------------------


def history(changes) -> list[dict]:
    """GameChange rows as lines "field: old → new" (a whole row for entries and deletions)."""
    entries = []
    for change in changes:
        lines = []
        if change.action == GameChange.Action.CORRECTED:
            for name, (old, new) in change.diff.items():
                lines.append(
                    (
                        game_field_label(name),
                        game_value_shown(name, old),
                        game_value_shown(name, new),
                    )
                )
        else:
            for name, value in change.diff.items():
                if name == "client_id":  # the phone's row id (entry.views): not for people
                    continue
                if value is None or value == "" or (value is False and name != "won"):
                    continue
                lines.append((game_field_label(name), None, game_value_shown(name, value)))
        entries.append({"change": change, "lines": lines})
    return entries


def positive_int(raw) -> int | None:
    """A whole number from 1 up out of a query or form value, else None."""
    try:
        value = int(raw)
    except (TypeError, ValueError):
        return None
    return value if value >= 1 else None


def confirmed(request) -> bool:
    """The POST carries the confirmation the page of `confirmation_page` adds."""
    return request.method == "POST" and request.POST.get("confirmed") == "1"


class AsksFirstMixin:
    """A view whose POST cannot be undone: a GET, or a POST without `confirmed`, shows its
    question (`ask`, a `confirmation_page`) and changes nothing; the confirmed POST goes on
    to the view's own `post`."""

    def ask(self, request):
        raise NotImplementedError

    def get(self, request, *args, **kwargs):
        return self.ask(request)

    def post(self, request, *args, **kwargs):
        if not confirmed(request):
            return self.ask(request)
        return super().post(request, *args, **kwargs)


def confirmation_page(
    request,
    *,
    title: str,
    question: str,
    button: str,
    cancel_url: str,
    tournament=None,
    action_url: str | None = None,
    button_class: str = "danger",
    ask_reason: bool = False,
):
    """The page that asks before an action that cannot be undone: nothing has changed yet;
    its button posts the fields of the request (the form that asked) again, confirmed."""
    fields = request.POST if request.method == "POST" else request.GET
    hidden = [
        (name, value)
        for name, values in fields.lists()
        if name not in ("csrfmiddlewaretoken", "confirmed")
        and not (ask_reason and name == "reason")
        for value in values
    ]
    return render(
        request,
        "tournaments/manage/confirm_action.html",
        {
            "tournament": tournament,
            "can_manage": True,
            "title": title,
            "question": question,
            "button": button,
            "button_class": button_class,
            "action_url": action_url or request.path,
            "cancel_url": cancel_url,
            "hidden": [*hidden, ("confirmed", "1")],
            "ask_reason": ask_reason,
            "unconfirmed": request.method == "POST",
        },
    )
