"""Reads of the action log: a tournament's lines, newest first, filtered by kind and table,
each with its details in words."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import FieldDoesNotExist
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.models import ActionLog, Payment, Tournament
from tournaments.phrases import shown, shown_text

# Labels of the detail keys the services write (`log.services.action_record`).
DETAIL_LABELS = {
    "player": gettext_lazy("player"),
    "players": gettext_lazy("players"),
    "seed": gettext_lazy("seed"),
    "method": gettext_lazy("draw"),
    "keep_apart": gettext_lazy("keep apart"),
    "tables": gettext_lazy("tables"),
    "seats": gettext_lazy("seats"),
    "games": gettext_lazy("games"),
    "played": gettext_lazy("games played"),
    "length": gettext_lazy("series length"),
    "paper_totals": gettext_lazy("paper totals"),
    "differences": gettext_lazy("differences"),
    "choose": gettext_lazy("version"),
    "seat": gettext_lazy("seat"),
    "points": gettext_lazy("points"),
    "kind": gettext_lazy("kind"),
    "amount": gettext_lazy("amount"),
    "note": gettext_lazy("note"),
    "lots": gettext_lazy("lots"),
    "prizes": gettext_lazy("prizes"),
    "status": gettext_lazy("status"),
    "name": gettext_lazy("name"),
    # A league match day finished by its confirmation, and reopened (`leagues.services`).
    "confirmed": gettext_lazy("confirmed by the league"),
    "confirmation_withdrawn": gettext_lazy("league's confirmation withdrawn"),
    # Two records of one person merged, and a merge undone (`people.services`).
    "kept": gettext_lazy("kept"),
    "absorbed": gettext_lazy("absorbed"),
    "restored": gettext_lazy("restored"),
    "moved": gettext_lazy("moved"),
    "ratings_deleted": gettext_lazy("rating rows deleted"),
}


def _show(value) -> str:
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, list):
        return ", ".join(_show(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_show(v)}" for k, v in value.items())
    return str(value)


def _setting_label(field: str) -> str:
    """A changed setting's name in the reader's language (its model field's label)."""
    try:
        return str(Tournament._meta.get_field(field).verbose_name)
    except FieldDoesNotExist:
        return field.replace("_", " ")


def _setting_value(field: str, value) -> str:
    """A changed setting's value as logged (text: "True", "na") in the reader's words."""
    if value in ("True", "False"):
        return _show(value == "True")
    try:
        choices = dict(Tournament._meta.get_field(field).flatchoices)
    except FieldDoesNotExist:
        choices = {}
    if value in choices and value not in (None, ""):
        return str(choices[value])
    return _show(value)


def _payment_kind(value) -> str:
    """A payment's kind: stored as its code; older lines keep the label of their day."""
    if value in Payment.Kind.values:
        return str(Payment.Kind(value).label)
    return _show(value)


def describe(entry: ActionLog) -> list[str]:
    """The details of a line in words: "field: old → new" for changes, else "key: value"."""
    lines = []
    for key, value in (entry.details or {}).items():
        label = str(DETAIL_LABELS.get(key, key.replace("_", " ")))
        if key == "changes" and isinstance(value, dict):
            for field, pair in value.items():
                old, new = (pair + [None, None])[:2] if isinstance(pair, list) else (None, pair)
                lines.append(
                    f"{_setting_label(field)}: {_setting_value(field, old)}"
                    f" → {_setting_value(field, new)}"
                )
        elif key == "kind" and entry.kind in (
            ActionLog.Kind.PAYMENT,
            ActionLog.Kind.PAYMENT_DELETED,
        ):
            lines.append(f"{label}: {_payment_kind(value)}")
        elif key == "note" and isinstance(value, str):
            lines.append(f"{label}: {_show(shown_text(value))}")
        else:
            lines.append(f"{label}: {_show(value)}")
    return lines


@dataclass(frozen=True)
class LogLine:
    at: object
    kind: str
    kind_label: str
    by: str
    series_number: int | None
    table_number: int | None
    what: list[str]
    reason: str

    @property
    def where(self) -> str:
        if self.series_number and self.table_number:
            return _("Series %(s)s, table %(t)s") % {
                "s": self.series_number,
                "t": self.table_number,
            }
        if self.series_number:
            return _("Series %(s)s") % {"s": self.series_number}
        return ""


def who(entry) -> str:
    """The user's name, else the name the action was recorded under (a keeper's phone)."""
    if entry.user is not None:
        return entry.user.get_full_name() or entry.user.get_username()
    return shown(entry, "by_name") or _("unknown")


def tournament_log(
    tournament: Tournament,
    *,
    kind: str | None = None,
    series_number: int | None = None,
    table_number: int | None = None,
) -> list[LogLine]:
    """The tournament's action log, newest first."""
    entries = ActionLog.objects.filter(tournament=tournament).select_related("user")
    if kind:
        entries = entries.filter(kind=kind)
    if series_number:
        entries = entries.filter(series_number=series_number)
    if table_number:
        entries = entries.filter(table_number=table_number)
    return [
        LogLine(
            at=entry.at,
            kind=entry.kind,
            kind_label=str(entry.get_kind_display()),
            by=who(entry),
            series_number=entry.series_number,
            table_number=entry.table_number,
            what=describe(entry),
            reason=shown(entry, "reason"),
        )
        for entry in entries
    ]
