"""WSGI entry point of the Skat club site."""

import os
import sys

from django.core.wsgi import get_wsgi_application

# The threads of a worker (`make serve`: THREADS) share one interpreter lock, which a
# running thread hands over every 5 ms by default: a page served from the cache in 2 ms
# then waits 5 ms at each step while another thread renders. Handed over every
# millisecond, the cached pages keep flowing while a render runs (bench/load.py).
sys.setswitchinterval(float(os.environ.get("PYTHON_SWITCH_INTERVAL", "0.001")))

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skatclub.settings")
application = get_wsgi_application()
