"""The money desk of a tournament (its club's secretaries only): fees, the prize plan,
payments and the cash summary (the prize list PDF and the workbook with the money sheet
are `exporters.views` downloads).

The figures are `money.selectors.tournament_money` (which also defines the pot, the balances
and the sign of payments); every change is a POST that calls one service and redirects.
A form with mistakes is shown again on the page with its messages and the text as typed.
"""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext as _
from django.views.generic import TemplateView, View

from tournaments.errors import UserError
from tournaments.formats import format_money
from tournaments.log.services import Replay, once_key
from tournaments.mixins import ManageMixin, TournamentMixin
from tournaments.models import Payment, Registration
from tournaments.money.forms import (
    MoneySettingsForm,
    PaymentForm,
    PrizePlanForm,
    prize_plan_text,
)
from tournaments.money.selectors import TournamentMoney, tournament_money
from tournaments.money.services import (
    payment_delete,
    payment_record,
    payment_settle,
    prize_plan_replace,
    tournament_money_update,
)


class MoneyMixin(TournamentMixin, ManageMixin):
    def money_url(self, fragment: str = "") -> str:
        url = reverse("manage:money", kwargs={"tournament": self.tournament.slug})
        return f"{url}#{fragment}" if fragment else url

    def amount(self, value) -> str:
        return format_money(value, self.tournament.currency)


class MoneyView(MoneyMixin, TemplateView):
    """Cash summary, one row per player with a quick payment, the prize plan, the fees."""

    template_name = "tournaments/manage/money.html"

    @cached_property
    def money(self) -> TournamentMoney:
        return tournament_money(self.tournament)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        money = self.money
        context.setdefault("settings_form", MoneySettingsForm.for_tournament(self.tournament))
        context.setdefault(
            "prize_form",
            PrizePlanForm(
                initial={"plan": prize_plan_text(self.tournament.prizes.all())},
                currency=self.tournament.currency,
            ),
        )
        names = {row.registration_id: row.player_name for row in money.rows}
        payments = list(
            Payment.objects.filter(registration__tournament=self.tournament)
            .select_related("user")
            .order_by("-at", "-pk")
        )
        for payment in payments:
            payment.player_name = names.get(payment.registration_id, "")
        context.update(
            money=money,
            summary=money.summary,
            currency=self.tournament.currency,
            payments=payments,
            kinds=Payment.Kind.choices,
        )
        return context


class MoneySettingsView(MoneyView):
    def get(self, request, *args, **kwargs):
        return redirect(self.money_url("fees"))

    def post(self, request, *args, **kwargs):
        form = MoneySettingsForm.for_tournament(self.tournament, request.POST)
        if form.is_valid():
            try:
                tournament_money_update(
                    tournament=self.tournament, user=request.user, **form.cleaned_data
                )
            except UserError as error:
                form.add_error(error.field if error.field in form.fields else None, str(error))
            else:
                messages.success(request, _("The fees are saved."))
                return redirect(self.money_url("fees"))
        return self.render_to_response(self.get_context_data(settings_form=form))


class PrizePlanView(MoneyView):
    def get(self, request, *args, **kwargs):
        return redirect(self.money_url("prizes"))

    def post(self, request, *args, **kwargs):
        form = PrizePlanForm(request.POST, currency=self.tournament.currency)
        if form.is_valid():
            try:
                prize_plan_replace(
                    tournament=self.tournament,
                    prizes=form.cleaned_data["prizes"],
                    user=request.user,
                )
            except UserError as error:
                form.add_error("plan", str(error))
            else:
                messages.success(request, _("The prize plan is saved."))
                return redirect(self.money_url("prizes"))
        return self.render_to_response(self.get_context_data(prize_form=form))


class PaymentRecordView(MoneyView):
    """The quick entry of a player's row: kind and amount (prefilled with what is open).

    A mistake shows the page again with the reason next to that row's amount, as typed."""

    def get(self, request, *args, **kwargs):
        return redirect(self.money_url())

    def refuse(self, registration, text: str):
        error = {
            "registration": registration.pk,
            "error": text,
            "amount": self.request.POST.get("amount", ""),
        }
        return self.render_to_response(self.get_context_data(pay_error=error))

    def post(self, request, *args, **kwargs):
        registration = get_object_or_404(
            Registration.objects.select_related("player"),
            pk=kwargs["registration"],
            tournament=self.tournament,
        )
        form = PaymentForm(request.POST)
        anchor = f"r{registration.pk}"
        if not form.is_valid():
            return self.refuse(
                registration, "; ".join(str(e) for errs in form.errors.values() for e in errs)
            )
        try:
            payment = payment_record(
                registration=registration,
                user=request.user,
                key=once_key(request.POST.get("once")),
                **form.cleaned_data,
            )
        except Replay as replay:
            messages.info(request, f"{registration.player.name}: {replay}")
        except UserError as error:
            return self.refuse(registration, str(error))
        else:
            messages.success(
                request,
                _("%(name)s: %(kind)s %(amount)s recorded.")
                % {
                    "name": registration.player.name,
                    "kind": payment.get_kind_display(),
                    "amount": self.amount(abs(payment.amount)),
                },
            )
        return redirect(self.money_url(anchor))


class PaymentSettleView(MoneyMixin, View):
    """Settle a player's row in one go: open fees taken, prizes handed out."""

    def post(self, request, *args, **kwargs):
        registration = get_object_or_404(
            Registration.objects.select_related("player"),
            pk=kwargs["registration"],
            tournament=self.tournament,
        )
        try:
            payments = payment_settle(
                registration=registration,
                user=request.user,
                key=once_key(request.POST.get("once")),
            )
        except Replay as replay:
            messages.info(request, str(replay))
        except UserError as error:
            messages.error(request, str(error))
        else:
            net = sum(p.amount for p in payments)
            text = (
                _("%(name)s settled: %(amount)s taken.")
                if net >= 0
                else _("%(name)s settled: %(amount)s paid out.")
            )
            messages.success(
                request, text % {"name": registration.player.name, "amount": self.amount(abs(net))}
            )
        return redirect(self.money_url(f"r{registration.pk}"))


class PaymentDeleteView(MoneyMixin, View):
    def post(self, request, *args, **kwargs):
        payment = get_object_or_404(
            Payment, pk=kwargs["pk"], registration__tournament=self.tournament
        )
        try:
            payment_delete(
                payment=payment, user=request.user, reason=request.POST.get("reason", "")
            )
        except UserError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("The payment was deleted."))
        return redirect(self.money_url("payments"))
