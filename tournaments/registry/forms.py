"""Forms of the registry's pages. They parse and check input; services write."""

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Category, Player, Season, Tournament


class TournamentForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = [
            "name",
            "date",
            "season",
            "rules",
            "list_scoring",
            "bonus_won",
            "bonus_lost",
            "bonus_others_3",
            "bonus_others_4",
            "games_per_series_4",
            "games_per_series_3",
            "kontra_allowed",
            "team_best_n",
            "double_entry",
            "prizes_split_ties",
            "published",
        ]
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["season"].queryset = Season.objects.filter(club=club)
        for name in ("games_per_series_4", "games_per_series_3"):
            self.fields[name].min_value = 1
            self.fields[name].widget.attrs["min"] = 1

    def clean(self):
        data = super().clean()
        if data.get("rules") == "na" and data.get("kontra_allowed"):
            self.add_error("kontra_allowed", _("Kontra and Re are an ISPA house rule."))
        return data


class SeasonForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = ["name", "teams_best_n"]


class PlayerForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ["name", "team", "category", "federation_number"]


class QuickAddPlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    team = forms.CharField(label=_("Team"), max_length=120, required=False)
    category = forms.ChoiceField(label=_("Category"), choices=Category.choices, required=False)


class RegistrationAddForm(forms.Form):
    players = forms.ModelMultipleChoiceField(
        label=_("Players of the club"),
        queryset=Player.objects.none(),
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["players"].queryset = Player.objects.filter(club=tournament.club).exclude(
            registrations__tournament=tournament
        )


class PlayerListUploadForm(forms.Form):
    file = forms.FileField(
        label=_("Player list"),
        help_text=_(
            "CSV or Excel (.xlsx) with a header row: name (or first name and last name), "
            "club, team, category, federation number."
        ),
    )
