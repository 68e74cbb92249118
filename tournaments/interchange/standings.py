"""The machine-readable standings of interchange.md ("Standings JSON")."""

from __future__ import annotations

from tournaments.models import Tournament
from tournaments.standings.selectors import tournament_standings


def standings_json(tournament: Tournament) -> list[dict]:
    """The standings as interchange.md "Standings JSON" has them, in rank order."""
    return [
        {
            "rank": row.rank,
            "player": row.player_name,
            "club": row.club or None,
            "team": row.team or None,
            "list_points": row.list_points,
            "game_points": row.game_points,
            "won": row.won,
            "lost": row.lost,
            "others_lost": row.others_lost,
            "series": [
                {
                    "number": result.number,
                    "list_points": result.list_points,
                    "game_points": result.game_points,
                    "won": result.won,
                    "lost": result.lost,
                }
                for result in sorted(row.series.values(), key=lambda r: r.number)
            ],
        }
        for row in tournament_standings(tournament)
    ]
