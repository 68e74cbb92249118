"""The draw of a series: the pure engine that seats players at tables of 3 and 4 (rules
§4), and drawing, redrawing, swapping seats, closing and reopening series.

engine (pure Python) · selectors (reads) · services (writes) · forms · views · urls
"""
