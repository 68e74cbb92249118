"""The public read-only JSON API (`/api/v1/`, django-ninja) and `/t/<slug>/standings.json`.

Everything here reads through the subjects' selectors (`standings.selectors`,
`sheets.selectors`) and lays the figures out as JSON; nothing is computed or written.
Drafts (unpublished tournaments) are 404 to the public and visible to their club's
secretaries, as on the HTML pages. Responses carry an ETag from the tournament versions
(`tournaments.versions`) and Last-Modified from when a version last moved, and answer
conditional GETs with 304; the answers of a state are computed once and shared
(`tournaments.caching`); `cors` lets any site read them with GET.
"""
