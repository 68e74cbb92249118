"""Entry at the table on the players' own phones, and the director's side of it.

A table's *link* (`/entry/<token>/`) opens its score sheet on any phone, with no account:
the seats, the sheet with its running totals and the entry row laid out for one hand. The
phone's script (static/js/entry.js) keeps the rows it could not send yet and sends them
again with the same `client_id`, so a row is entered once however often it arrives. The
link works only for its table, only while the series is in play and the sheet open; an
unknown or revoked link is a friendly 404 that says nothing about what exists, except to a
row that went in before the link was revoked (its answer lost): that row is told it is on
the sheet (410 "gone_entered"), so the phone does not offer it for entry again. Once the
series is closed the link shows the sheet only if the tournament is published. A refusal
because the sheet moved on (409) carries the sheet as it stands, so the phone renumbers
the rows it still holds.

Under double entry the second list keeper's link (`entry_token_2`) keys the second copy of
the sheet; that keeper can confirm the sheet once both copies agree. The director's pages
(`manage:entry_*`) confirm, settle differing rows side by side, and issue, reissue or
revoke the links. Every write is a service call (`entry.services.game_record_at_table`,
`sheet_copy_record`, `sheet_confirm`, `sheet_settle`, `table_link_*`).

What every page behind a link shares (`EntryLinkMixin`) is in `entry.mixins`.
"""

import json
import uuid

from django.contrib import messages
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.generic import TemplateView, View

from tournaments.entry.forms import LinkActionForm, RowSendForm, SettleForm
from tournaments.entry.mixins import EntryLinkMixin, phone_texts, read_json
from tournaments.entry.selectors import sheet_copies_compare
from tournaments.entry.services import (
    client_id_changed,
    game_record_at_table,
    row_undo_at_table,
    series_links_revoke,
    sheet_confirm,
    sheet_copy_record,
    sheet_settle,
    table_link_reissue,
    table_link_revoke,
    table_links_issue,
)
from tournaments.errors import UserError
from tournaments.mixins import ManageMixin, SeriesMixin
from tournaments.models import SheetCopy
from tournaments.qr import qr_svg
from tournaments.shared_views import (
    SheetMixin,
    entry_url,
    history,
    positive_int,
    preview_reply,
)
from tournaments.sheets.selectors import table_sheet

# HTTP status of a refused row, by the UserError's code (anything else: 400).
STATUS_BY_CODE = {
    "closed": 410,
    "deleted": 410,
    "client_id_conflict": 409,
    "number_taken": 409,
    "number_gap": 409,
    "complete": 409,
}


# --------------------------------------------------------------------------------------
# The phone's pages
# --------------------------------------------------------------------------------------


class EntryPageView(EntryLinkMixin, TemplateView):
    """The phone's page: GET shows the sheet and the entry row; POST (no script) enters it."""

    template_name = "tournaments/entry/page.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        state = self.state()
        form = kwargs.get("form") or self.row_form()
        number = self.next_number
        html = state.pop("html")
        totals_html = state.pop("totals_html")
        context.update(
            tournament=self.tournament,
            series=self.series,
            table=self.table,
            seats=self.seats,
            keeper=self.keeper,
            second_copy=self.second_copy,
            double_entry=self.tournament.double_entry,
            is_open=self.is_open,
            form=form,
            state=state,
            sheet_html=html,
            totals_html=totals_html,
            number=number,
            dealer=self.table.dealer_of(number),
            also_out=self.table.also_out(number),
            dealer_name=(state["next"] or {}).get("dealer_name", ""),
            complete=state["next"] is None,
            client_id=uuid.uuid4(),
            urls=self.urls(),
            token=self.kwargs["token"],
            texts={
                **phone_texts(),
                "seats": {s.number: s.player.name for s in self.seats},
            },
        )
        return context

    def post(self, request, *args, **kwargs):
        return EntryGamesView.as_view()(request, *args, **kwargs)


class EntryStateView(EntryLinkMixin, View):
    def get(self, request, *args, **kwargs):
        return JsonResponse({"ok": True, "state": self.state()})


class EntryPreviewView(EntryLinkMixin, View):
    """The live value of the row being typed (no write): as on the secretary's screen."""

    def post(self, request, *args, **kwargs):
        number = positive_int(request.POST.get("number")) or self.next_number
        form = self.row_form(request.POST, number=number)
        return preview_reply(form, table=self.table, number=number)


class EntryGamesView(EntryLinkMixin, View):
    """Enter one row from the phone: JSON {client_id, number, data} from the script, or the
    plain form (no script). Sent again with the same client_id → the stored row, once."""

    def post(self, request, *args, **kwargs):
        as_json = request.content_type == "application/json"
        if as_json:
            body = read_json(request.body)
            if not isinstance(body, dict) or not isinstance(body.get("data"), dict):
                return self.refuse(
                    UserError(
                        _(
                            "The row could not be read: send one JSON object with the row's "
                            "client_id, number and data."
                        ),
                        code="bad_json",
                    ),
                    as_json=True,
                )
            meta = RowSendForm({"client_id": body.get("client_id"), "number": body.get("number")})
            data = {k: v for k, v in body["data"].items() if isinstance(k, str)}
        else:
            meta = RowSendForm(request.POST)
            data = request.POST
        if not meta.is_valid():
            return self.refuse(
                UserError(_("The row has no valid id; reload the page."), code="bad_client_id"),
                as_json=as_json,
            )
        number = meta.cleaned_data["number"]
        form = self.row_form(data, number=number)
        replay = self.stored(meta.cleaned_data["client_id"])
        if replay is not None and not form.is_valid():
            # The same id with a row that does not even check: not the row stored with it.
            return self.refuse(
                client_id_changed(replay["number"] if isinstance(replay, dict) else replay.number),
                as_json=as_json,
            )
        if replay is None and not form.is_valid():
            if as_json:
                field, errors = next(iter(form.errors.items()))
                return JsonResponse(
                    {
                        "ok": False,
                        "code": "invalid",
                        "error": errors[0],
                        "field": None if field == "__all__" else field,
                    },
                    status=400,
                )
            return self.render_form(form)
        try:
            record = sheet_copy_record if self.second_copy else game_record_at_table
            stored, created = record(
                table=self.table,
                data=form.game_mapping(),
                client_id=meta.cleaned_data["client_id"],
                number=number,
            )
        except UserError as error:
            if as_json:
                return self.refuse(error, as_json=True, form=form)
            form.add_user_error(error)
            return self.render_form(form)
        if not as_json:
            return redirect(self.urls()["page"] + "#sheet")
        for name in ("sheet", "compare"):  # read before the row went in
            self.__dict__.pop(name, None)
        number = stored["number"] if isinstance(stored, dict) else stored.number
        return JsonResponse(
            {
                "ok": True,
                "created": created,
                "number": number,
                "client_id": str(meta.cleaned_data["client_id"]),
                "state": self.state(),
            },
            status=201 if created else 200,
        )

    def stored(self, client_id):
        """The row this client_id already entered at this table, if any."""
        if self.second_copy:
            copy = SheetCopy.objects.filter(table=self.table).first()
            rows = copy.rows if copy else []
            return next((r for r in rows if r.get("client_id") == str(client_id)), None)
        return self.table.games.filter(client_id=client_id).first()

    def refuse(self, error: UserError, *, as_json: bool, form=None):
        status = STATUS_BY_CODE.get(error.code, 400)
        if as_json:
            field = form.error_field(error) if form is not None else None
            body = {"ok": False, "code": error.code, "error": str(error), "field": field}
            if status == 409:
                # The sheet moved on (or is full): the phone shows it and renumbers its rows.
                for name in ("sheet", "compare"):
                    self.__dict__.pop(name, None)
                body["state"] = self.state()
            return JsonResponse(body, status=status)
        messages.error(self.request, str(error))
        return redirect(self.urls()["page"])

    def render_form(self, form):
        view = EntryPageView()
        view.setup(self.request, **self.kwargs)
        view.table, view.keeper = self.table, self.keeper
        view.series, view.tournament = self.series, self.tournament
        return view.render_to_response(view.get_context_data(form=form))


class EntryUndoView(EntryLinkMixin, View):
    """Take back this phone's last row while it is provisional: JSON {client_id}."""

    def post(self, request, *args, **kwargs):
        try:
            body = json.loads(request.body or b"{}")
        except (ValueError, RecursionError):
            body = None
        client_id = body.get("client_id") if isinstance(body, dict) else None
        try:
            number = row_undo_at_table(
                table=self.table, client_id=client_id, second_copy=self.second_copy
            )
        except UserError as error:
            # A bad id is the phone's mistake (400); the rest concern the sheet's state.
            status = 400 if error.code == "bad_client_id" else STATUS_BY_CODE.get(error.code, 409)
            body = {"ok": False, "code": error.code, "error": str(error)}
            return JsonResponse(body, status=status)
        return JsonResponse({"ok": True, "number": number, "state": self.state()})


class EntryPhoneConfirmView(EntryLinkMixin, View):
    """Under double entry the second list keeper confirms the sheet once both copies agree."""

    def post(self, request, *args, **kwargs):
        if not self.second_copy:
            return self.unknown_link(request, kwargs["token"])
        try:
            count = sheet_confirm(table=self.table, second_keeper=True)
        except UserError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("The sheet is confirmed (%(n)s games).") % {"n": count})
        return redirect(self.urls()["page"])


# --------------------------------------------------------------------------------------
# The director's pages
# --------------------------------------------------------------------------------------


class EntryConfirmView(SheetMixin, TemplateView):
    """A table's entry at the phones: its links, the provisional rows, both copies side by
    side under double entry, and the confirmation (POST)."""

    template_name = "tournaments/manage/entry_confirm.html"

    def post(self, request, *args, **kwargs):
        try:
            count = sheet_confirm(table=self.table, user=request.user)
        except UserError as error:
            messages.error(request, str(error))
        else:
            if count:
                messages.success(
                    request,
                    _("%(table)s: the sheet is confirmed (%(n)s games).")
                    % {"table": self.table, "n": count},
                )
            else:
                messages.info(request, _("There is nothing to confirm."))
        return redirect(_next_or(request, self.confirm_url()))

    def confirm_url(self) -> str:
        return reverse("manage:entry_confirm", kwargs=self.kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        sheet = table_sheet(self.table, blank_rows=False)
        compare = sheet_copies_compare(self.table) if self.tournament.double_entry else []
        provisional = sum(1 for row in sheet.rows if row.game and row.game.provisional)
        unsettled = [row for row in compare if row.unsettled]
        links = []
        for keeper, token in (
            (1, self.table.entry_token),
            (2, self.table.entry_token_2 if self.tournament.double_entry else None),
        ):
            if keeper == 2 and not self.tournament.double_entry:
                continue
            url = entry_url(self.request, token) if token else ""
            links.append({"keeper": keeper, "url": url, "qr": qr_svg(url) if url else ""})
        context.update(
            sheet=sheet,
            played=sum(1 for row in sheet.rows if row.game is not None),
            provisional=provisional,
            compare=compare,
            unsettled=unsettled,
            can_confirm=provisional > 0 and not unsettled,
            links=links,
            changes=history(self.table.changes.select_related("user")[:30]),
        )
        return context


class EntrySettleView(SheetMixin, View):
    """Take one copy's version of a differing row (or of every one)."""

    def post(self, request, *args, **kwargs):
        form = SettleForm(request.POST)
        url = reverse("manage:entry_confirm", kwargs=self.kwargs)
        if not form.is_valid():
            messages.error(request, _("Choose a version."))
            return redirect(url)
        try:
            numbers = sheet_settle(
                table=self.table,
                choose=form.cleaned_data["choose"],
                number=form.cleaned_data["number"],
                user=request.user,
            )
        except UserError as error:
            messages.error(request, str(error))
        else:
            label = _("first copy") if form.cleaned_data["choose"] == "first" else _("second copy")
            messages.success(
                request,
                _("Game %(numbers)s: the %(copy)s's version counts.")
                % {"numbers": ", ".join(map(str, numbers)) or "—", "copy": label},
            )
        return redirect(url)


class EntryLinkView(SheetMixin, View):
    """Reissue or revoke one table's link (one keeper's, or both)."""

    def post(self, request, *args, **kwargs):
        form = LinkActionForm(request.POST)
        target = _next_or(request, reverse("manage:entry_confirm", kwargs=self.kwargs))
        if not form.is_valid():
            messages.error(request, _("Unknown action."))
            return redirect(target)
        action, keeper = form.cleaned_data["action"], form.cleaned_data["keeper"]
        try:
            if action == "revoke":
                table_link_revoke(table=self.table, keeper=keeper, user=request.user)
                messages.success(
                    request, _("%(table)s: the link is revoked.") % {"table": self.table}
                )
            else:
                table_link_reissue(table=self.table, keeper=keeper, user=request.user)
                messages.success(
                    request,
                    _("%(table)s: a new link is issued; the old one no longer works.")
                    % {"table": self.table},
                )
        except UserError as error:
            messages.error(request, str(error))
        return redirect(target)


class EntryLinksView(SeriesMixin, ManageMixin, View):
    """Issue the missing links of a series, reissue them all, or revoke them all."""

    def post(self, request, *args, **kwargs):
        form = LinkActionForm(request.POST)
        target = reverse(
            "manage:series",
            kwargs={"tournament": self.tournament.slug, "series": self.series.number},
        )
        if not form.is_valid():
            messages.error(request, _("Unknown action."))
            return redirect(target + "#links")
        action = form.cleaned_data["action"]
        if action == "revoke":
            count = series_links_revoke(series=self.series, user=request.user)
            messages.success(request, _("The links of %(n)s tables are revoked.") % {"n": count})
        else:
            count = table_links_issue(
                series=self.series, reissue=action == "reissue", user=request.user
            )
            messages.success(request, _("%(n)s links issued.") % {"n": count})
        return redirect(target + "#links")


class EntryQrView(SheetMixin, View):
    """The QR code of a table's link as an SVG image (`?keeper=2`: the second keeper's)."""

    def get(self, request, *args, **kwargs):
        keeper = request.GET.get("keeper") == "2"
        token = self.table.entry_token_2 if keeper else self.table.entry_token
        if not token or (keeper and not self.tournament.double_entry):
            return HttpResponse(status=404)
        response = HttpResponse(
            qr_svg(entry_url(request, token), standalone=True), content_type="image/svg+xml"
        )
        response["Cache-Control"] = "no-store, private"
        return response


def _next_or(request, default: str) -> str:
    """`next` if it is a path on this site (not `//evil.com`, `/\\evil.com`), else default."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    safe = target.startswith("/") and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if safe else default
