"""Forms of one person across clubs: finding a player of another club to add as a member.
They parse and check input; `people.services` writes."""

from django import forms
from django.utils.translation import gettext_lazy as _


class MemberSearchForm(forms.Form):
    q = forms.CharField(
        label=_("Name or federation number"),
        max_length=120,
        required=False,
        widget=forms.TextInput(attrs={"type": "search", "autocomplete": "off"}),
    )


class MemberAddForm(forms.Form):
    player = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
