"""Public pages: published tournaments, standings, sheets, players, seasons, downloads."""

from tournaments.exporters import urls as exporters
from tournaments.leagues import urls as leagues
from tournaments.standings import urls as standings

urlpatterns = [*standings.public, *exporters.public, *leagues.public]
