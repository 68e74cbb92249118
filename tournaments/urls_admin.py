"""Secretaries and directors (sign-in required; a club's secretaries only): every subject's
`manage` pages in the `manage` namespace, under /manage/."""

from tournaments.accounts import urls as accounts
from tournaments.draw import urls as draw
from tournaments.entry import urls as entry
from tournaments.exporters import urls as exporters
from tournaments.hall import urls as hall
from tournaments.leagues import urls as leagues
from tournaments.log import urls as log
from tournaments.money import urls as money
from tournaments.people import urls as people
from tournaments.publishing import urls as publishing
from tournaments.registry import urls as registry
from tournaments.sheets import urls as sheets

app_name = "manage"

urlpatterns = [
    *registry.manage,
    *draw.manage,
    *sheets.manage,
    *entry.manage,
    *money.manage,
    *exporters.manage,
    *leagues.manage,
    *log.manage,
    *accounts.manage,
    *people.manage,
    *publishing.manage,
    *hall.manage,
]
