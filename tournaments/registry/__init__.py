"""Who plays: clubs, players, seasons, tournaments and their registrations, and importing
a player list.

services (writes) · player_import (reads a CSV or Excel list) · forms · views · urls
"""
