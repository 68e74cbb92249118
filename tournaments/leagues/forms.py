"""Forms of the leagues pages: season settings, teams, rosters, match days and venues."""

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from tournaments.alphabetical_fields import list_alphabetically
from tournaments.fields import NameChoiceField, NamesChoiceField
from tournaments.models import Club, Player, Season, Team, Tournament


class SeasonSettingsForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = ["teams_best_n", "team_size", "substitutes", "min_series", "best_series"]


class TeamForm(forms.Form):
    name = forms.CharField(label=_("Team"), max_length=120)
    club = NameChoiceField(label=_("Club"), queryset=Club.objects.none())

    def __init__(self, *args, clubs, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = clubs
        list_alphabetically(self.fields["club"])


class RosterForm(forms.Form):
    player = NameChoiceField(label=_("Player"), queryset=Player.objects.none())
    substitute = forms.BooleanField(label=_("Substitute"), required=False)

    def __init__(self, *args, team: Team, **kwargs):
        super().__init__(*args, **kwargs)
        # Every player of the club: one already on a roster is refused with its team's name.
        self.fields["player"].queryset = Player.objects.filter(club_id=team.club_id)
        list_alphabetically(self.fields["player"])


class MatchDayForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=160)
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    club = NameChoiceField(label=_("Host club"), queryset=Club.objects.none(), required=False)

    def __init__(self, *args, season: Season, **kwargs):
        super().__init__(*args, **kwargs)
        if season.league_id is not None:
            self.fields["club"].queryset = season.league.clubs.all()
            list_alphabetically(self.fields["club"])
        else:
            del self.fields["club"]


class VenueForm(forms.Form):
    name = forms.CharField(label=_("Venue"), max_length=120)
    secretary = forms.CharField(
        label=_("Venue secretary (user name)"), max_length=150, required=False
    )
    teams = NamesChoiceField(
        label=_("Teams"), queryset=Team.objects.none(), widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args, season: Season, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["teams"].queryset = season.teams.all()
        list_alphabetically(self.fields["teams"])

    def clean_secretary(self):
        username = self.cleaned_data["secretary"].strip()
        if not username:
            return None
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise forms.ValidationError(_("There is no user named %(name)s.") % {"name": username})
        return user


class SubstituteForm(forms.Form):
    """A substitute plays for a regular of the team on a match day not yet drawn."""

    match_day = NameChoiceField(label=_("Match day"), queryset=Tournament.objects.none())
    out = NameChoiceField(label=_("Regular player"), queryset=Player.objects.none())
    replacement = NameChoiceField(label=_("Substitute"), queryset=Player.objects.none())

    def __init__(self, *args, team: Team, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["match_day"].queryset = team.season.tournaments.filter(
            series__isnull=True, venues__teams=team
        ).order_by("date")
        self.fields["out"].queryset = Player.objects.filter(roster_entries__team=team)
        self.fields["replacement"].queryset = Player.objects.filter(
            roster_entries__team=team, roster_entries__substitute=True
        )
        list_alphabetically(self.fields["out"], self.fields["replacement"])
