"""Forms of the registry's pages. They parse and check input; services write."""

from django import forms
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.alphabetical_fields import list_alphabetically
from tournaments.choices import RAMSCH_RULE_SETS, ramsch_rule_refusal
from tournaments.fields import NameChoiceField, NamesChoiceField
from tournaments.models import Category, Club, Membership, Player, Season, Tournament
from tournaments.registry.selectors import federation_number_taken


class RulesSelect(forms.Select):
    """A select whose options belong to one rule set (`option_rules`: value -> "na" or
    "ispa"): each such option carries `data-only-rules`, so the page offers it only while
    its rule set is chosen (static/js/forms.js), and is hidden when drawn for the other."""

    def __init__(self, *args, option_rules=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.option_rules = dict(option_rules or {})
        self.rules_now = ""

    def create_option(self, name, value, *args, **kwargs):
        option = super().create_option(name, value, *args, **kwargs)
        only = self.option_rules.get(str(value))
        if only:
            option["attrs"]["data-only-rules"] = only
            if self.rules_now and only != self.rules_now:
                option["attrs"]["hidden"] = True
        return option


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
            "five_tables",
            "games_per_series_5",
            "ramsch_rule",
            "ramsch_tie_both_win",
            "kontra_allowed",
            "team_best_n",
            "double_entry",
            "prizes_split_ties",
            "published",
        ]
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}
        field_classes = {"season": NameChoiceField}

    # The page's groups of fields, and those that only the ISPA rules have (the Seeger-Fabian
    # bonuses, Kontra and Re): hidden while North American rules are chosen.
    GROUPS = [
        (_("Event"), ("name", "date", "season", "rules", "published")),
        (
            _("Scoring"),
            ("list_scoring", "bonus_won", "bonus_lost", "bonus_others_3", "bonus_others_4"),
        ),
        (
            _("Series and tables"),
            (
                "games_per_series_4",
                "games_per_series_3",
                "five_tables",
                "games_per_series_5",
                "kontra_allowed",
            ),
        ),
        (_("Ramsch"), ("ramsch_rule", "ramsch_tie_both_win")),
        (_("Teams and entry"), ("team_best_n", "double_entry")),
    ]
    ISPA_ONLY = (
        "list_scoring",
        "bonus_won",
        "bonus_lost",
        "bonus_others_3",
        "bonus_others_4",
        "kontra_allowed",
    )
    NA_ONLY = ("five_tables", "games_per_series_5", "ramsch_tie_both_win")

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["season"].queryset = Season.objects.filter(club=club)
        for name in ("games_per_series_4", "games_per_series_3", "games_per_series_5"):
            self.fields[name].min_value = 1
            self.fields[name].widget.attrs["min"] = 1
        for name in self.ISPA_ONLY:
            self.fields[name].only_rules = "ispa"
        for name in self.NA_ONLY:
            self.fields[name].only_rules = "na"
        # Only North American tournaments with tables of five use it: may stay empty.
        self.fields["games_per_series_5"].required = False
        # Hoyle's ramsch is North American, Gewinner-Ramsch an ISPA house rule: each is
        # offered only under its rule set.
        widget = RulesSelect(
            choices=self.fields["ramsch_rule"].choices, option_rules=RAMSCH_RULE_SETS
        )
        widget.rules_now = self.rules_now
        self.fields["ramsch_rule"].widget = widget

    @property
    def rules_field(self):
        return self["rules"]

    @property
    def rules_now(self) -> str:
        """The rule set the page is drawn for (what was sent, else the stored one)."""
        return str(self["rules"].value() or "")

    def fieldsets(self):
        """(legend, bound fields, the rule set the whole group belongs to or "")."""
        groups = []
        for legend, names in self.GROUPS:
            only = {getattr(self.fields[name], "only_rules", "") for name in names}
            group_only = only.pop() if len(only) == 1 else ""
            groups.append((legend, [self[name] for name in names], group_only))
        return groups

    def clean(self):
        data = super().clean()
        if data.get("rules") == "na" and data.get("kontra_allowed"):
            # The box is hidden under North American rules (a box ticked before the rule
            # set changed): Kontra and Re are an ISPA house rule, so it is simply off.
            data["kontra_allowed"] = False
        if data.get("games_per_series_5") is None:
            data["games_per_series_5"] = (
                self.instance.games_per_series_5
                or Tournament._meta.get_field("games_per_series_5").default
            )
        refusal = ramsch_rule_refusal(data.get("rules") or "", data.get("ramsch_rule") or "")
        if refusal and data.get("rules"):
            self.add_error("ramsch_rule", refusal)
        if data.get("rules") == "ispa":
            # Hidden under ISPA rules, as Kontra is under NA rules: tables of five and a
            # shared ramsch tie are North American settings (rules §3.5, §3.6).
            data["ramsch_tie_both_win"] = False
            data["five_tables"] = False
        return data


class SeasonForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = ["name", "teams_best_n"]


class PlayerForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ["name", "team", "category", "federation_number", "listed"]

    def clean_federation_number(self):
        # Site-wide: the refusal names who has the number (the services say the same).
        number = self.cleaned_data["federation_number"].strip()
        taken = federation_number_taken(number, exclude=self.instance.pk)
        if taken:
            raise forms.ValidationError(taken)
        return number


class ClubSettingsForm(forms.ModelForm):
    """A club's own settings, edited by its secretaries."""

    class Meta:
        model = Club
        fields = ["initials_in_standings"]


class QuickAddPlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    team = forms.CharField(label=_("Team"), max_length=120, required=False)
    category = forms.ChoiceField(label=_("Category"), choices=Category.choices, required=False)


class RegistrationAddForm(forms.Form):
    players = NamesChoiceField(
        label=_("Players of the club"),
        queryset=Player.objects.none(),
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        # The club's members: its home players and the players of other clubs who are
        # members too (`Membership`).
        members = Membership.objects.filter(club=tournament.club_id).values("player_id")
        self.fields["players"].queryset = (
            Player.objects.filter(Q(club=tournament.club_id) | Q(pk__in=members))
            .exclude(registrations__tournament=tournament)
            .distinct()
        )
        list_alphabetically(self.fields["players"])


class PlayerListUploadForm(forms.Form):
    file = forms.FileField(
        label=_("Player list"),
        help_text=_(
            "CSV or Excel (.xlsx) with a header row: name (or first name and last name), "
            "club, team, category, federation number."
        ),
    )
