"""The public pages: the home page, a tournament's standings, series, tables and teams, a
player's page, a club's season, the projector and the version the live pages poll.

They read the rankings of `standings/` through the standings kept per version
(`caching.standings`) and answer from the states of `caching.states` (ETag, 304, the
shared cache); their django-tables2 tables (`tables.py`) and the player's chart
(`charts.py`) live here too.
"""
