"""Forms of the people pages: a club, a league, an invitation, accepting one, a season of a
league."""

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.alphabetical_fields import list_alphabetically
from tournaments.fields import NamesChoiceField
from tournaments.models import Club


class ClubForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    city = forms.CharField(label=_("City"), max_length=120, required=False)


class LeagueForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    clubs = NamesChoiceField(
        label=_("Member clubs"),
        queryset=Club.objects.all(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        list_alphabetically(self.fields["clubs"])


class InviteForm(forms.Form):
    email = forms.EmailField(
        label=_("E-mail (optional)"),
        required=False,
        help_text=_("The link is shown to copy; with an e-mail server it is also mailed here."),
    )


class AcceptForm(forms.Form):
    """A new account for the invited person (a signed-in person just accepts)."""

    username = forms.CharField(label=_("User name"), max_length=150)
    password = forms.CharField(label=_("Password"), widget=forms.PasswordInput, strip=False)
    password_again = forms.CharField(
        label=_("Password again"), widget=forms.PasswordInput, strip=False
    )

    def clean(self):
        data = super().clean()
        if data.get("password") and data.get("password") != data.get("password_again"):
            self.add_error("password_again", _("The two passwords differ."))
        return data


class LeagueSeasonForm(forms.Form):
    name = forms.CharField(label=_("Season"), max_length=120)
