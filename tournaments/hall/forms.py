"""The hall's publishing form: the public site's address and the key it gave (entered once:
kept for the sender, never shown again), and for a league match day kept at several venues
the venue this hall keeps. `hall.services` checks and writes."""

from django import forms
from django.utils.translation import gettext_lazy as _


class PublicationForm(forms.Form):
    url = forms.CharField(
        label=_("Public site"),
        max_length=500,
        help_text=_("Its address, such as https://skat.example.org."),
        widget=forms.URLInput(attrs={"autocomplete": "url", "inputmode": "url"}),
    )
    key = forms.CharField(
        label=_("Publishing key"),
        max_length=200,
        help_text=_("The key the public site gave for this club; it is not shown again."),
        widget=forms.PasswordInput(attrs={"autocomplete": "off"}),
    )
    venue = forms.CharField(
        label=_("Venue"),
        max_length=100,
        required=False,
        help_text=_(
            "Only for a league match day at several venues, with the key the league gave "
            "your venue: its name as the league site shows it. Leave it empty otherwise."
        ),
    )
