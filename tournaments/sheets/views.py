"""The score-sheet screens of a table: enter rows, see the value live, correct, close.

A secretary keys the paper list row by row (`SheetView`); the live value comes from
`SheetPreviewView` (JSON, no write); a stored row is corrected with its history kept
(`GameCorrectView`); the last row can be deleted; penalties are added; the sheet is closed
against the paper totals (`SheetCloseView`) and reopened. Every score comes from `games`
(the one bridge to the rules engine); the views only parse, call and show.
"""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext as _
from django.views.generic import TemplateView, View

from tournaments.errors import UserError
from tournaments.games import game_mapping_of
from tournaments.log.services import Replay, once_key
from tournaments.models import Game, GameChange, Penalty
from tournaments.shared_views import SheetMixin, history, positive_int, preview_reply
from tournaments.sheets.forms import GameCorrectForm, GameRowForm, PaperTotalsForm, PenaltyForm
from tournaments.sheets.selectors import table_sheet
from tournaments.sheets.services import (
    game_correct,
    game_delete,
    game_record,
    game_seen,
    penalty_delete,
    penalty_law_record,
    penalty_record,
    table_close,
    table_reopen,
)


def desk_row_number(raw) -> int:
    """The game a desk row fills, as its form says (`game_record` answers a row sent again
    with the stored game). A row that does not say it is refused, never stored as the next
    game: sent twice, it would be stored twice."""
    number = positive_int(raw)
    if number is None:
        raise UserError(
            _(
                "The row does not say which game it is (the page is out of date): reload the "
                "sheet and enter the row again."
            ),
            code="number_missing",
        )
    return number


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
                    number=desk_row_number(request.POST.get("number")),
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


def seen_version(raw) -> int | None:
    """The game's version as the correcting form was opened (`sheets.services.game_seen`);
    None when the form does not say."""
    if raw is None or raw == "":
        return None
    try:
        seen = int(str(raw)[:20])
    except ValueError:
        seen = -1
    if seen < 0:
        raise UserError(_("The form is out of date: reload the game and correct it again."))
    return seen


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
                    seen=seen_version(request.POST.get("seen")),
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
            seen=game_seen(self.game),
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
