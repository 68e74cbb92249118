"""Score sheets at the desk: enter a table's games row by row, correct and delete them,
penalties, closing a sheet against the paper totals; and `seat_lines`, each seat's result
at its table, where every standing starts.

services (writes) · writing (the one writing step every writer of a sheet goes through) ·
totals (the seats' stored totals) · selectors (reads) · forms · views · urls (the `manage`
pages)
"""
