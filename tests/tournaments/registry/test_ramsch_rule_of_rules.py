"""Gewinner-Ramsch is an ISPA house rule (scoring.variants): a North American tournament's
settings page does not offer it, and the form and the services refuse it with a clear
message, nothing changed (issue 27, defect 7)."""

import datetime
import re

import pytest
from django.urls import reverse

from tournaments.errors import UserError
from tournaments.models import Tournament
from tournaments.registry.services import tournament_create, tournament_update

pytestmark = pytest.mark.django_db


def ramsch_options(html: str) -> dict[str, str]:
    """value -> the <option> tag of the ramsch select."""
    select = re.search(r'<select name="ramsch_rule".*?</select>', html, re.S).group(0)
    return {
        re.search(r'value="([^"]*)"', tag).group(1): tag
        for tag in re.findall(r"<option[^>]*>", select)
    }


def test_na_settings_page_does_not_offer_gewinner_ramsch(client_for, secretary, na_tournament):
    url = reverse("manage:tournament_settings", kwargs={"tournament": na_tournament.slug})
    options = ramsch_options(client_for(secretary).get(url).content.decode())
    assert "hidden" in options["gewinner"] and 'data-only-rules="ispa"' in options["gewinner"]
    assert "hidden" not in options["hoyle"] and "hidden" not in options[""]


def test_ispa_settings_page_offers_gewinner_ramsch_not_hoyle(client_for, secretary, tournament):
    url = reverse("manage:tournament_settings", kwargs={"tournament": tournament.slug})
    options = ramsch_options(client_for(secretary).get(url).content.decode())
    assert "hidden" not in options["gewinner"]
    assert "hidden" in options["hoyle"] and "hidden" in options["league"]


def test_na_form_refuses_gewinner_ramsch_on_its_field_in_german(
    client_for, secretary, club, na_tournament
):
    url = "/de" + reverse("manage:tournament_new", kwargs={"club": club.pk})
    response = client_for(secretary).post(
        url,
        {
            "name": "Tournée",
            "date": "2026-11-21",
            "rules": "na",
            "games_per_series_4": 48,
            "games_per_series_3": 36,
            "ramsch_rule": "gewinner",
        },
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert response.status_code == 200
    errors = response.context["form"].errors["ramsch_rule"]
    assert "Gewinner-Ramsch ist eine ISPA-Hausregel" in errors[0]
    assert not Tournament.objects.filter(name="Tournée").exists()


@pytest.mark.parametrize("rules, ramsch", [("na", "gewinner"), ("ispa", "hoyle")])
def test_services_refuse_a_ramsch_variant_of_the_other_rule_set(club, rules, ramsch):
    with pytest.raises(UserError) as refused:
        tournament_create(
            club=club, name="X", date=datetime.date(2026, 11, 21), rules=rules, ramsch_rule=ramsch
        )
    assert refused.value.field == "ramsch_rule"
    assert not Tournament.objects.filter(name="X").exists()


def test_update_refuses_gewinner_ramsch_for_na_and_changes_nothing(na_tournament):
    with pytest.raises(UserError, match="Gewinner-Ramsch is an ISPA house rule"):
        tournament_update(tournament=na_tournament, ramsch_rule="gewinner")
    na_tournament.refresh_from_db()
    assert na_tournament.ramsch_rule == ""
