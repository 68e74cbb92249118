"""Forms of the draw: how to draw a series (again), which two seats to swap."""

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Series


class DrawForm(forms.Form):
    KEEP_APART = Series.KeepApart.choices
    method = forms.ChoiceField(
        label=_("Draw"),
        choices=Series.DrawMethod.choices,
        initial=Series.DrawMethod.RANDOM,
        # The rule of each method: `draw.engine` (seeded draw, spread draw).
        help_text=_(
            "Seeded by the standings: the best four at table 1, the next four at table 2. "
            "By rating: the players by rating (those without one yet last, by name) dealt "
            "round the tables in a snake, 1 2 3 3 2 1 1 2 3 …, so that the strongest sit "
            "at different tables."
        ),
    )
    keep_apart = forms.ChoiceField(label=_("Keep apart"), choices=KEEP_APART, initial="team")
    seed = forms.IntegerField(
        label=_("Seed"),
        required=False,
        min_value=1,
        max_value=2**31 - 1,
        help_text=_("Leave empty for a new random draw; a seed repeats an earlier draw."),
    )
    # The series the form draws: the same form sent twice draws it once.
    number = forms.IntegerField(
        widget=forms.HiddenInput, required=False, min_value=1, max_value=32767
    )


class RedrawForm(DrawForm):
    """Draw a series again: its method stays, who is kept apart and the seed may change."""

    method = None
    number = None


class SeatSwapForm(forms.Form):
    seat_a = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=2**63 - 1)
    seat_b = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=2**63 - 1)
