"""A player's career: every tournament, series and season, the average per series scaled
to 48 games, the form over time, the table mates and head to head with another player.

selectors (reads, built on the standings' and leagues' selectors). The pages that show
them live in `public/`, the API's answers in `api/`.
"""
