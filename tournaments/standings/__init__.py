"""Standings and the public pages: tournament, series, team and league-season rankings
with their tie-break order, match-day points, a player's page, the projector.

selectors (reads) · tables (django-tables2) · charts · views · urls (the `public` pages)
"""
