"""Public pages: published tournaments, standings, sheets, players, seasons, downloads, and
each tournament's standings.json;
the one-time links of invitations and new passwords."""

from tournaments.accounts import urls as accounts
from tournaments.api import urls as api
from tournaments.exporters import urls as exporters
from tournaments.leagues import urls as leagues
from tournaments.public import urls as public

urlpatterns = [*public.public, *exporters.public, *api.public, *leagues.public, *accounts.public]
