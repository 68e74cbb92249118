"""Forms of the money page: fees, the prize plan (one prize per line of text), payments.

They parse and check the input; `money.services` validates again and writes.

The prize plan is typed as text, one prize per line, so that a director can set up the
usual plan in a few seconds and copy it from the last evening:

    overall #1: 50%          the winner of the tournament gets 50 % of the pot
    overall #2: 5.00         the runner-up a fixed amount
    series 1 #1: 10          the winner of series 1
    ladies #1: 2,50          the best lady (youth, seniors alike)

The ranking words are English or German (overall/gesamt, series/serie, ladies/damen,
youth/jugend, seniors/senioren), the "#" is optional, amounts take a decimal point or a
comma, a trailing % makes a share of the pot, and lines starting with "--" are comments.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from django import forms
from django.utils.formats import number_format
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from tournaments.models import Category, Payment, Prize, Tournament
from tournaments.money.services import MONEY_SETTINGS, lost_game_tier_problem

RANKING_WORDS = {
    "overall": (Prize.Scope.OVERALL, ""),
    "gesamt": (Prize.Scope.OVERALL, ""),
    "total": (Prize.Scope.OVERALL, ""),
    "series": (Prize.Scope.SERIES, ""),
    "serie": (Prize.Scope.SERIES, ""),
    "round": (Prize.Scope.SERIES, ""),
    "runde": (Prize.Scope.SERIES, ""),
    "ladies": (Prize.Scope.CATEGORY, Category.LADIES),
    "damen": (Prize.Scope.CATEGORY, Category.LADIES),
    "youth": (Prize.Scope.CATEGORY, Category.YOUTH),
    "jugend": (Prize.Scope.CATEGORY, Category.YOUTH),
    "seniors": (Prize.Scope.CATEGORY, Category.SENIORS),
    "senioren": (Prize.Scope.CATEGORY, Category.SENIORS),
}
# The words the plan is written back with, per language.
CANONICAL = {
    "en": {"overall": "overall", "series": "series", "ladies": "ladies", "youth": "youth",
           "seniors": "seniors"},
    "de": {"overall": "gesamt", "series": "serie", "ladies": "damen", "youth": "jugend",
           "seniors": "senioren"},
}  # fmt: skip

LINE = re.compile(r"^(?P<word>[^\W\d_]+)\s*(?P<first>\d+)?\s*(?:#\s*(?P<second>\d+))?\s*\.?$")
NUMBER = re.compile(r"^\d+(?:[.,]\d+)?$")


class PrizePlanError(ValueError):
    pass


def parse_amount(text: str, *, currency: str = "") -> tuple[Decimal | None, Decimal | None]:
    """ "50%" → (None, 50); "2,50 €" → (2.50, None). Raises PrizePlanError."""
    value = text.strip()
    is_share = value.endswith("%")
    value = value.rstrip("%").strip()
    for mark in ("€", "$", "£", "EUR", "USD", "CAD", currency):
        if mark:
            value = value.replace(mark, "").replace(mark.lower(), "")
    value = value.strip()
    if not NUMBER.match(value):
        raise PrizePlanError(
            _("“%(text)s” is not an amount: write 5, 2.50, 2,50 or 50%% (no thousand marks).")
            % {"text": text.strip()}
        )
    try:
        number = Decimal(value.replace(",", "."))
    except InvalidOperation:  # pragma: no cover - the pattern above admits only numbers
        raise PrizePlanError(_("“%(text)s” is not an amount.") % {"text": text.strip()}) from None
    if -number.as_tuple().exponent > 2:
        raise PrizePlanError(_("“%(text)s”: at most two decimal places.") % {"text": text.strip()})
    return (None, number) if is_share else (number, None)


def parse_prize_plan(text: str, *, currency: str = "") -> list[dict]:
    """The prize mappings of `money.services.prize_plan_replace`, with their line numbers.

    Raises PrizePlanError with one message per bad line.
    """
    prizes, errors = [], []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("--"):
            continue
        try:
            prizes.append({"line": number, **_parse_line(line, currency=currency)})
        except PrizePlanError as error:
            errors.append(_("Line %(line)s: %(error)s") % {"line": number, "error": error})
    if errors:
        raise PrizePlanError("\n".join(errors))
    return prizes


def _parse_line(line: str, *, currency: str) -> dict:
    example = _("write it like “overall #1: 50%”, “series 2 #1: 10” or “ladies #1: 2.50”.")
    if ":" not in line and "=" not in line:
        raise PrizePlanError(example)
    head, _sep, value = re.split(r"([:=])", line, maxsplit=1)
    match = LINE.match(head.strip())
    if not match:
        raise PrizePlanError(example)
    word = match["word"].casefold()
    if word not in RANKING_WORDS:
        words = ", ".join(sorted({"overall", "series", "ladies", "youth", "seniors"}))
        raise PrizePlanError(
            _("“%(word)s” is not a ranking; use one of %(words)s.")
            % {"word": match["word"], "words": words}
        )
    scope, category = RANKING_WORDS[word]
    numbers = [int(n) for n in (match["first"], match["second"]) if n is not None]
    if scope == Prize.Scope.SERIES:
        if len(numbers) != 2:
            raise PrizePlanError(_("name the series and the rank: “series 2 #1: 10”."))
        series_number, rank = numbers
    else:
        if len(numbers) != 1:
            raise PrizePlanError(_("give one rank: “%(word)s #1: …”.") % {"word": word})
        series_number, rank = 0, numbers[0]
    amount, share = parse_amount(value, currency=currency)
    return {
        "scope": scope,
        "series_number": series_number,
        "category": category,
        "rank": rank,
        "amount": amount,
        "share": share,
    }


def prize_plan_text(prizes) -> str:
    """The plan written back in the syntax above, in the active language's words."""
    language = "de" if (get_language() or "en").startswith("de") else "en"
    words = CANONICAL[language]
    ordered = sorted(
        prizes,
        key=lambda p: (
            ["overall", "series", "category"].index(p.scope),
            p.series_number,
            Category.values.index(p.category) if p.category in Category.values else 99,
            p.rank,
        ),
    )
    lines = []
    for prize in ordered:
        if prize.scope == Prize.Scope.SERIES:
            head = f"{words['series']} {prize.series_number} #{prize.rank}"
        elif prize.scope == Prize.Scope.CATEGORY:
            head = f"{words.get(prize.category, prize.category)} #{prize.rank}"
        else:
            head = f"{words['overall']} #{prize.rank}"
        if prize.share is not None:
            share = Decimal(prize.share).normalize()
            places = max(0, -share.as_tuple().exponent)
            value = number_format(share, decimal_pos=places) + "%"
        else:
            value = number_format(Decimal(prize.amount), decimal_pos=2)
        lines.append(f"{head}: {value}")
    return "\n".join(lines)


AMOUNT = re.compile(r"^\d+(?:[.,]\d{1,2})?$")


class MoneyField(forms.DecimalField):
    """An amount as people type it in either language: "10", "10,00" and "10.00" are ten.

    Django's localized parsing would read "10.00" in German (and "10,00" in English) as a
    thousands mark, i.e. 1000; an amount at the money desk has no thousands marks, so one
    point or comma before at most two digits is the decimal mark, whatever the language.
    """

    def to_python(self, value):
        if value in self.empty_values:
            return None
        text = str(value).strip().replace(" ", "").replace("\u00a0", "")
        for mark in ("€", "$", "£"):
            text = text.replace(mark, "")
        if not AMOUNT.match(text):
            raise forms.ValidationError(
                _("“%(text)s” is not an amount: write 10, 10.00 or 10,00 (no thousand marks).")
                % {"text": str(value).strip()},
                code="invalid",
            )
        return Decimal(text.replace(",", "."))


def _money_field(label, *, required=True, help_text=""):
    return MoneyField(
        label=label,
        required=required,
        min_value=Decimal("0"),
        max_digits=8,
        decimal_places=2,
        localize=True,
        help_text=help_text,
        widget=forms.TextInput(attrs={"inputmode": "decimal", "size": 8}),
    )


class MoneySettingsForm(forms.Form):
    currency = forms.CharField(
        label=gettext_lazy("Currency"),
        max_length=3,
        help_text=gettext_lazy("Three letters: EUR, USD, CAD, …"),
        widget=forms.TextInput(attrs={"size": 4}),
    )
    entry_fee = _money_field(gettext_lazy("Entry fee"))
    table_fee = _money_field(
        gettext_lazy("Table or card fee per series"),
        help_text=gettext_lazy("Stays with the club; not part of the pot."),
    )
    lost_game_fee = _money_field(gettext_lazy("Fee per lost game"))
    lost_game_fee_from = forms.IntegerField(
        label=gettext_lazy("Higher fee from lost game no."),
        required=False,
        min_value=2,
        help_text=gettext_lazy("Per series, e.g. 4: the 4th lost game and every further one."),
        widget=forms.NumberInput(attrs={"size": 4}),
    )
    lost_game_fee_high = _money_field(gettext_lazy("Higher fee per lost game"), required=False)

    @classmethod
    def for_tournament(cls, tournament: Tournament, data=None):
        initial = {name: getattr(tournament, name) for name in MONEY_SETTINGS}
        return cls(data, initial=initial, prefix="fees")

    def clean_currency(self):
        return self.cleaned_data["currency"].strip().upper()

    def clean(self):
        data = super().clean()
        if "lost_game_fee_from" in self.errors or "lost_game_fee_high" in self.errors:
            return data
        problem = lost_game_tier_problem(
            start=data.get("lost_game_fee_from"), high=data.get("lost_game_fee_high")
        )
        if problem is not None:
            self.add_error(problem.field, str(problem))
        return data


class PrizePlanForm(forms.Form):
    plan = forms.CharField(
        label=gettext_lazy("Prize plan"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 8, "cols": 36, "spellcheck": "false"}),
    )

    def __init__(self, *args, currency: str = "", **kwargs):
        kwargs.setdefault("prefix", "prizes")
        super().__init__(*args, **kwargs)
        self.currency = currency

    def clean_plan(self):
        text = self.cleaned_data["plan"]
        try:
            self.cleaned_data["prizes"] = parse_prize_plan(text, currency=self.currency)
        except PrizePlanError as error:
            raise forms.ValidationError(str(error).split("\n")) from None
        return text


class PaymentForm(forms.Form):
    kind = forms.ChoiceField(label=gettext_lazy("Kind"), choices=Payment.Kind.choices)
    amount = MoneyField(
        label=gettext_lazy("Amount"),
        min_value=Decimal("0.01"),
        max_digits=10,
        decimal_places=2,
        localize=True,
    )
    note = forms.CharField(label=gettext_lazy("Note"), max_length=120, required=False)
