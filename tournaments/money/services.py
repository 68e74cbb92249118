"""Writes of the money desk: fees, the prize plan, payments.

Amounts are exact Decimals with two places, never floats (a float raises TypeError).
Payments are stored signed from the cash box's view: fees paid in are positive, prize
payouts and refunds negative; `payment_record` takes a positive amount and signs it by
kind. The figures built from them (fees due, pot, balances) are
`money.selectors.tournament_money`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from decimal import Decimal, InvalidOperation

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.errors import UserError, check_text, validated
from tournaments.lifecycle import check_not_finished
from tournaments.log.services import Kind, action_record, check_once
from tournaments.models import Category, Payment, Prize, Registration, Tournament
from tournaments.money.selectors import ranking_label, tournament_money
from tournaments.permissions import acting_user
from tournaments.phrases import phrase, phrases_of

MONEY_SETTINGS = (
    "currency",
    "entry_fee",
    "table_fee",
    "lost_game_fee",
    "lost_game_fee_from",
    "lost_game_fee_high",
)


FEE_FIELDS = ("entry_fee", "table_fee", "lost_game_fee", "lost_game_fee_high")


def _decimal(value, *, label) -> Decimal | None:
    """A Decimal from a Decimal, an int or a numeric string; None and "" stay None."""
    if value is None or value == "":
        return None
    if isinstance(value, float | bool):
        raise TypeError(f"{label}: money is kept in Decimals, never in floats")
    try:
        number = Decimal(str(value).strip())
    except InvalidOperation:
        raise UserError(
            _("%(label)s: “%(value)s” is not an amount.") % {"label": label, "value": value}
        ) from None
    if not number.is_finite():
        raise UserError(
            _("%(label)s: “%(value)s” is not an amount.") % {"label": label, "value": value}
        )
    return number


def lost_game_tier_problem(*, start, high) -> UserError | None:
    """What is wrong with a tiered lost-game fee (`lost_game_fee_from` = `start`,
    `lost_game_fee_high` = `high`), or None: both are given or neither, and the higher fee
    starts at the 2nd lost game or later. The one rule of the money form, this service and
    the archive's import."""
    if start is not None:
        if isinstance(start, bool) or not isinstance(start, int) or start < 2:
            return UserError(
                _("The higher lost-game fee starts at the 2nd lost game or later."),
                field="lost_game_fee_from",
            )
        if high is None:
            return UserError(
                _("Enter the higher fee that applies from lost game no. %(n)s on.") % {"n": start},
                field="lost_game_fee_high",
            )
    elif high is not None:
        return UserError(
            _("Enter from which lost game of a series the higher fee applies."),
            field="lost_game_fee_from",
        )
    return None


def tournament_money_update(*, tournament: Tournament, user=None, **fields) -> Tournament:
    """Set the currency, the fees and the tiered lost-game fee of a tournament (logged)."""
    unknown = set(fields) - set(MONEY_SETTINGS)
    if unknown:
        raise TypeError(f"tournament_money_update got unknown fields {unknown}")
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        check_not_finished(tournament.pk)
        before = {name: getattr(tournament, name) for name in MONEY_SETTINGS}
        for key, value in fields.items():
            setattr(tournament, key, value)
        tournament.currency = (tournament.currency or "").strip().upper()
        if not re.fullmatch(r"[A-Z]{3}", tournament.currency):
            raise UserError(
                _("The currency is a three-letter code such as EUR, USD or CAD."),
                field="currency",
            )
        for name in FEE_FIELDS:
            label = Tournament._meta.get_field(name).verbose_name
            value = _decimal(getattr(tournament, name), label=label)
            if value is None and name != "lost_game_fee_high":
                value = Decimal("0")
            if value is not None and value < 0:
                raise UserError(
                    _("%(label)s cannot be negative.") % {"label": str(label).capitalize()},
                    field=name,
                )
            setattr(tournament, name, value)
        problem = lost_game_tier_problem(
            start=tournament.lost_game_fee_from, high=tournament.lost_game_fee_high
        )
        if problem is not None:
            raise problem
        validated(tournament)
        tournament.save(update_fields=list(MONEY_SETTINGS))
        changes = {
            name: [str(before[name]), str(getattr(tournament, name))]
            for name in MONEY_SETTINGS
            if str(before[name]) != str(getattr(tournament, name))
        }
        if changes:
            action_record(
                tournament=tournament, kind=Kind.SETTINGS, user=user, details={"changes": changes}
            )
    return tournament


def prize_plan_replace(
    *, tournament: Tournament, prizes: Sequence[Mapping], user=None
) -> list[Prize]:
    """Replace the prize plan with `prizes` (all or nothing).

    Each mapping has `scope` (overall, series, category), `series_number` (series only),
    `category` (category only), `rank`, and either `amount` or `share` (% of the pot); an
    optional `line` is the line number the director's text gave it, for the messages.
    Ranks are unique per ranking and the shares add up to at most 100 %.
    """
    built: list[tuple[int, Prize]] = []
    seen: dict[tuple, int] = {}
    shares = Decimal("0")
    for index, data in enumerate(prizes, start=1):
        line = data.get("line", index)

        def fail(message, line=line):
            raise UserError(_("Line %(line)s: %(error)s") % {"line": line, "error": message})

        scope = data.get("scope")
        series_number = data.get("series_number") or 0
        category = data.get("category") or ""
        rank = data.get("rank")
        if scope not in Prize.Scope.values:
            fail(_("choose the overall standings, a series or a category."))
        if scope == Prize.Scope.SERIES:
            if isinstance(series_number, bool) or not isinstance(series_number, int):
                fail(_("the series is a number."))
            if series_number < 1:
                fail(_("name the series (1, 2, …)."))
            if category:
                fail(_("a series prize has no category."))
        elif scope == Prize.Scope.CATEGORY:
            if category not in Category.values or not category:
                choices = ", ".join(str(label) for value, label in Category.choices if value)
                fail(_("choose a category: %(choices)s.") % {"choices": choices})
            if series_number:
                fail(_("a category prize is for the whole tournament, not one series."))
        elif series_number or category:
            fail(_("an overall prize has neither a series nor a category."))
        if isinstance(rank, bool) or not isinstance(rank, int) or rank < 1:
            fail(_("the rank is a whole number from 1 up."))
        amount = _decimal(data.get("amount"), label=_("amount"))
        share = _decimal(data.get("share"), label=_("share"))
        if amount is None and share is None:
            fail(_("give a fixed amount or a share of the pot."))
        if amount is not None and share is not None:
            fail(_("give a fixed amount or a share of the pot, not both."))
        if amount is not None and amount <= 0:
            fail(_("the amount must be above zero."))
        if share is not None:
            if not 0 < share <= 100:
                fail(_("a share is more than 0 % and at most 100 % of the pot."))
            shares += share
        key = (scope, series_number, category, rank)
        if key in seen:
            fail(
                _("%(ranking)s, rank %(rank)s is already on line %(other)s.")
                % {
                    "ranking": ranking_label(scope, series_number, category),
                    "rank": rank,
                    "other": seen[key],
                }
            )
        seen[key] = line
        built.append(
            (
                line,
                Prize(
                    tournament=tournament,
                    scope=scope,
                    series_number=series_number,
                    category=category,
                    rank=rank,
                    amount=amount,
                    share=share,
                ),
            )
        )
    if shares > 100:
        raise UserError(
            _("The shares add up to %(total)s %% of the pot, more than 100 %%.")
            % {"total": f"{shares.normalize():f}"}
        )
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        check_not_finished(tournament.pk)
        Prize.objects.filter(tournament=tournament).delete()
        for line, prize in built:
            try:
                validated(prize)
            except UserError as error:
                raise UserError(
                    _("Line %(line)s: %(error)s") % {"line": line, "error": error}
                ) from None
        created = Prize.objects.bulk_create([prize for _line, prize in built])
        action_record(
            tournament=tournament,
            kind=Kind.PRIZE_PLAN,
            user=user,
            details={
                "prizes": [
                    f"{ranking_label(p.scope, p.series_number, p.category)} {p.rank}: "
                    + (f"{p.amount:f}" if p.amount is not None else f"{p.share:f} %")
                    for p in created
                ]
            },
        )
        return created


def payment_record(
    *,
    registration: Registration,
    kind: str,
    amount: Decimal | int | str,
    note: str = "",
    user: AbstractBaseUser | None = None,
    key: str | None = None,
) -> Payment:
    """Record money paid in (fees) or out (a prize, a refund); `amount` is positive.
    `key`: the form's once key (a repeat raises `Replay`)."""
    if kind not in Payment.Kind.values:
        raise UserError(_("Unknown kind of payment."), field="kind")
    value = _decimal(amount, label=_("amount"))
    if value is None or value <= 0:
        raise UserError(
            _("Enter an amount above zero (to undo a payment, delete it)."), field="amount"
        )
    if not isinstance(note, str):
        raise TypeError("note must be text")
    check_text(note, field="note")
    with transaction.atomic():
        registration = (
            Registration.objects.select_for_update()
            .select_related("tournament", "player")
            .get(pk=registration.pk)
        )
        check_once(key)
        check_not_finished(registration.tournament_id)
        payment = Payment(
            registration=registration,
            kind=kind,
            amount=value if kind == Payment.Kind.FEES else -value,
            note=" ".join(note.split()),
            phrases=phrases_of(note=note),
            user=acting_user(user),
        )
        validated(payment)
        payment.save()
        action_record(
            tournament=registration.tournament,
            kind=Kind.PAYMENT,
            user=user,
            details={
                "player": registration.player.name,
                "kind": payment.kind,
                "amount": payment.amount,
                "note": payment.note,
            },
            key=key,
        )
    return payment


def payment_settle(
    *, registration: Registration, user: AbstractBaseUser | None = None, key: str | None = None
) -> list[Payment]:
    """Bring a player's balance to zero: take the open fees (or refund an overpayment) and
    hand out the prizes not yet paid; returns the payments recorded."""
    with transaction.atomic():
        registration = (
            Registration.objects.select_for_update()
            .select_related("tournament")
            .get(pk=registration.pk)
        )
        check_once(key)
        check_not_finished(registration.tournament_id)
        row = tournament_money(registration.tournament).row_of(registration.pk)
        payments = []
        if row.fees_open > 0:
            payments.append((Payment.Kind.FEES, row.fees_open, phrase("settled")))
        elif row.fees_open < 0:
            payments.append((Payment.Kind.REFUND, -row.fees_open, phrase("settled")))
        if row.prizes_open > 0:
            payments.append((Payment.Kind.PRIZE, row.prizes_open, _prize_note(row.prizes)))
        if not payments:
            raise UserError(
                _("%(name)s owes nothing and is owed nothing.") % {"name": row.player_name}
            )
        return [
            payment_record(
                registration=registration,
                kind=kind,
                amount=amount,
                note=note,
                user=user,
                key=key if index == 0 else None,
            )
            for index, (kind, amount, note) in enumerate(payments)
        ]


def _prize_note(prizes) -> str:
    """The prizes' titles as a payment note ("1. Overall, 2. Ladies", in the reader's
    language: `tournaments.phrases`)."""
    return phrase(
        "prizes", prizes=[[p.scope, p.series_number, p.category, p.rank] for p in prizes]
    )


def payment_delete(*, payment: Payment, user=None, reason: str = ""):
    with transaction.atomic():
        payment = (
            Payment.objects.select_for_update()
            .select_related("registration__tournament", "registration__player")
            .get(pk=payment.pk)
        )
        check_not_finished(payment.registration.tournament_id)
        action_record(
            tournament=payment.registration.tournament,
            kind=Kind.PAYMENT_DELETED,
            user=user,
            details={
                "player": payment.registration.player.name,
                "kind": payment.kind,
                "amount": payment.amount,
                "note": payment.note,
            },
            reason=reason,
        )
        payment.delete()
