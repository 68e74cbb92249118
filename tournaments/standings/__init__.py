"""The rankings: tournament, series and team standings with their tie-break order, a
player's statistics, the series' table cards and progress.

selectors (reads) · sql (the standings' reads as SQL written once per shape) · cards (the
series page's table cards as HTML). The pages that show them live in `public/`.
"""
