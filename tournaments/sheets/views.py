"""The score-sheet screens of a table: enter rows, see the value live, correct, close.

A secretary keys the paper list row by row (`SheetView`); the live value comes from
`SheetPreviewView` (JSON, no write); a stored row is corrected with its history kept
(`GameCorrectView`); the last row can be deleted; penalties are added; the sheet is closed
against the paper totals (`SheetCloseView`) and reopened. Every score comes from `games`
(the one bridge to the rules engine); the views only parse, call and show.
"""

from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext as _
from django.views.generic import TemplateView, View

from tournaments.errors import UserError
from tournaments.games import game_mapping_of, game_preview
from tournaments.log.services import Replay, once_key
from tournaments.mixins import ManageMixin, TableMixin
from tournaments.models import (
    Game,
    GameChange,
    GameType,
    Penalty,
    RamschResult,
    RuleSet,
    Series,
    Trump,
)
from tournaments.sheets.forms import (
    GameCorrectForm,
    GameRowForm,
    PaperTotalsForm,
    PenaltyForm,
    seats_of,
)
from tournaments.sheets.selectors import table_sheet
from tournaments.sheets.services import (
    game_correct,
    game_delete,
    game_record,
    penalty_delete,
    penalty_law_record,
    penalty_record,
    table_close,
    table_reopen,
)


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


class SheetView(SheetMixin, TemplateView):
    """GET: the sheet so far and the entry row. POST: enter the next row (then GET again)."""

    template_name = "tournaments/manage/sheet.html"

    def post(self, request, *args, **kwargs):
        form = self.row_form(request.POST)
        if form.is_valid():
            try:
                game_record(
                    table=self.table,
                    data=form.game_mapping(),
                    user=request.user,
                    number=positive_int(request.POST.get("number")),
                )
            except Replay as replay:
                messages.info(request, str(replay))
                return redirect(self.sheet_url("entry"))
            except UserError as error:
                form.add_user_error(error)
            else:
                return redirect(self.sheet_url("entry"))
        return self.render_to_response(self.get_context_data(form=form))

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        sheet = table_sheet(self.table, blank_rows=False)
        played = sum(1 for row in sheet.rows if row.game is not None)
        form = kwargs.get("form") or self.row_form()
        form.set_focus()
        dealer = self.table.dealer_of(self.next_number)
        context.update(
            sheet=sheet,
            form=form,
            played=played,
            complete=played >= sheet.length,
            next_number=self.next_number,
            dealer=dealer,
            dealer_seat=next((s for s in self.seats if s.number == dealer), None),
            also_out=self.table.also_out(self.next_number),
            last_row=sheet.rows[-1] if sheet.rows else None,
            penalty_form=PenaltyForm(seats=self.seats, na=self.is_na),
            penalties=list(self.table.penalties.all()),
            penalty_changes=list(self.table.penalty_changes.select_related("user")[:20]),
            close_form=PaperTotalsForm(
                seats=self.seats,
                initial={f"seat_{k}": v for k, v in (self.table.paper_totals or {}).items()},
            ),
            changes=history(
                self.table.changes.exclude(action=GameChange.Action.CREATED)
                # Confirming provisional rows is not a correction (entry_confirm shows it).
                .exclude(diff__has_key="provisional")
                .select_related("user")[:20]
            ),
            provisional=sum(1 for row in sheet.rows if row.game and row.game.provisional),
            disputed=sum(1 for row in sheet.rows if row.disputed),
            preview_url=reverse("manage:sheet_preview", kwargs=self.kwargs),
        )
        return context


class SheetPreviewView(SheetMixin, View):
    """The live value of a row being typed: JSON from `games.game_preview`, no write."""

    def post(self, request, *args, **kwargs):
        number = positive_int(request.GET.get("game"))
        form = GameRowForm(
            request.POST,
            table=self.table,
            tournament=self.tournament,
            number=number or self.next_number,
            seats=self.seats,
        )
        return preview_reply(form, table=self.table, number=number)


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


class GameCorrectView(SheetMixin, TemplateView):
    """Correct an entered row; the change (who, when, old → new) goes into its history."""

    template_name = "tournaments/manage/game_correct.html"

    @cached_property
    def game(self) -> Game:
        return get_object_or_404(Game, table=self.table, number=self.kwargs["game"])

    def correct_form(self, data=None, **kwargs):
        return GameCorrectForm(
            data,
            table=self.table,
            tournament=self.tournament,
            number=self.game.number,
            seats=self.seats,
            **kwargs,
        )

    def post(self, request, *args, **kwargs):
        form = self.correct_form(request.POST)
        if form.is_valid():
            try:
                before = self.game.updated
                game = game_correct(
                    game=self.game,
                    data=form.game_mapping(),
                    user=request.user,
                    reason=form.cleaned_data["reason"],
                )
            except UserError as error:
                if self.table.closed:  # the page shows no form to put the error on
                    messages.error(request, str(error))
                    return redirect(self.sheet_url(f"game-{self.game.number}"))
                form.add_user_error(error)
            else:
                if game.updated == before:
                    messages.info(request, _("Nothing was changed."))
                else:
                    messages.success(request, _("Game %(n)s was corrected.") % {"n": game.number})
                return redirect(self.sheet_url(f"game-{game.number}"))
        return self.render_to_response(self.get_context_data(form=form))

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        form = kwargs.get("form") or self.correct_form(
            initial=GameRowForm.initial_from(game_mapping_of(self.game))
        )
        form.set_focus()
        context.update(
            game=self.game,
            form=form,
            dealer=self.table.dealer_of(self.game.number),
            also_out=self.table.also_out(self.game.number),
            is_last=self.game.number == self.next_number - 1,
            history=history(
                self.table.changes.filter(game_number=self.game.number).select_related("user")
            ),
            preview_url=reverse(
                "manage:sheet_preview",
                kwargs={k: v for k, v in self.kwargs.items() if k != "game"},
            )
            + f"?game={self.game.number}",
            sheet_url=self.sheet_url(f"game-{self.game.number}"),
        )
        return context


class GameDeleteView(SheetMixin, View):
    """Delete the last row (a row in the middle is corrected instead)."""

    def post(self, request, *args, **kwargs):
        game = get_object_or_404(Game, table=self.table, number=kwargs["game"])
        try:
            game_delete(game=game, user=request.user, reason=request.POST.get("reason", ""))
        except UserError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("Game %(n)s was deleted.") % {"n": game.number})
        return redirect(self.sheet_url("entry"))


class PenaltyView(SheetMixin, View):
    def post(self, request, *args, **kwargs):
        form = PenaltyForm(request.POST, seats=self.seats, na=self.is_na)
        if form.is_valid():
            data = form.cleaned_data
            try:
                if data.get("law"):
                    penalty_law_record(
                        table=self.table,
                        number=data["game"],
                        seat=data["seat"],
                        law=data["law"],
                        user=request.user,
                    )
                else:
                    penalty_record(
                        table=self.table,
                        user=request.user,
                        seat=data["seat"],
                        points=data["points"],
                        reason=data["reason"],
                        key=once_key(request.POST.get("once")),
                    )
            except Replay as replay:
                messages.info(request, str(replay))
            except UserError as error:
                messages.error(request, str(error))
            else:
                messages.success(request, _("The penalty was entered."))
        else:
            messages.error(
                request,
                _("The penalty was not entered: %(errors)s")
                % {"errors": " ".join(e for errors in form.errors.values() for e in errors)},
            )
        return redirect(self.sheet_url("penalties"))


class PenaltyDeleteView(SheetMixin, View):
    """Remove a mistyped penalty (kept in the penalty history); a new one is entered instead."""

    def post(self, request, *args, **kwargs):
        penalty = get_object_or_404(Penalty, table=self.table, pk=kwargs["pk"])
        try:
            penalty_delete(
                penalty=penalty, user=request.user, reason=request.POST.get("reason", "")
            )
        except UserError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("The penalty was removed."))
        return redirect(self.sheet_url("penalties"))


class SheetCloseView(SheetMixin, TemplateView):
    """Close a sheet: the series length is checked and the paper totals compared."""

    template_name = "tournaments/manage/sheet_close.html"

    def post(self, request, *args, **kwargs):
        form = PaperTotalsForm(request.POST, seats=self.seats)
        differences = []
        if form.is_valid():
            accept = bool(request.POST.get("accept"))
            try:
                differences = table_close(
                    table=self.table,
                    paper_totals=form.paper_totals(),
                    accept_differences=accept,
                    user=request.user,
                    short_reason=form.cleaned_data.get("short_reason") or "",
                )
            except UserError as error:
                form.add_user_error(error)
            else:
                if not differences or accept:
                    messages.success(request, _("%(table)s is closed.") % {"table": self.table})
                    if self.table.venue_id and not self.can_manage:
                        # A venue's secretary goes back to the venue's tables, not the desk.
                        return redirect(
                            "manage:venue",
                            tournament=self.tournament.slug,
                            venue=self.table.venue_id,
                        )
                    return redirect(
                        "manage:series",
                        tournament=self.tournament.slug,
                        series=self.series.number,
                    )
        return self.render_to_response(self.get_context_data(form=form, differences=differences))

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        form = kwargs.get("form") or PaperTotalsForm(
            seats=self.seats,
            initial={f"seat_{k}": v for k, v in (self.table.paper_totals or {}).items()},
        )
        sheet = table_sheet(self.table, blank_rows=False)
        context.update(
            form=form,
            differences=[
                {
                    "seat": d.seat,
                    "player": d.player,
                    "paper": d.paper,
                    "computed": d.computed,
                    "difference": d.paper - d.computed,
                }
                for d in kwargs.get("differences") or []
            ],
            sheet=sheet,
            played=sum(1 for row in sheet.rows if row.game is not None),
            sheet_url=self.sheet_url(),
        )
        return context


class SheetReopenView(SheetMixin, View):
    def post(self, request, *args, **kwargs):
        try:
            table_reopen(
                table=self.table, user=request.user, reason=request.POST.get("reason", "")
            )
        except UserError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("%(table)s is open again.") % {"table": self.table})
        return redirect(self.sheet_url("entry"))


# --------------------------------------------------------------------------------------
# How a game's history reads
# --------------------------------------------------------------------------------------

CHOICE_LABELS = {"game": GameType, "trump": Trump, "ramsch": RamschResult}


def _field_label(name: str) -> str:
    return str(Game._meta.get_field(name).verbose_name)


def _show(name: str, value) -> str:
    if value is None or value == "":
        return "—"
    if name == "won":
        return _("won") if value else _("lost")
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if name in CHOICE_LABELS:
        try:
            return str(CHOICE_LABELS[name](value).label)
        except ValueError:
            return str(value)
    return str(value)


def history(changes) -> list[dict]:
    """GameChange rows as lines "field: old → new" (a whole row for entries and deletions)."""
    entries = []
    for change in changes:
        lines = []
        if change.action == GameChange.Action.CORRECTED:
            for name, (old, new) in change.diff.items():
                lines.append((_field_label(name), _show(name, old), _show(name, new)))
        else:
            for name, value in change.diff.items():
                if name == "client_id":  # the phone's row id (entry.views): not for people
                    continue
                if value is None or value == "" or (value is False and name != "won"):
                    continue
                lines.append((_field_label(name), None, _show(name, value)))
        entries.append({"change": change, "lines": lines})
    return entries


def positive_int(raw) -> int | None:
    """A whole number from 1 up out of a query or form value, else None."""
    try:
        value = int(raw)
    except (TypeError, ValueError):
        return None
    return value if value >= 1 else None
