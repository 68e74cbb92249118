"""WSGI entry point of the Skat club site."""

import os

from django.core.wsgi import get_wsgi_application

from skatclub import runtime

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skatclub.settings")
# No cyclic garbage collection while Django loads (runtime.py), as in manage.py.
runtime.collector_pause_for_start()
application = get_wsgi_application()
# The worker's interpreter: the lock's switch interval, the garbage collector (runtime.py).
runtime.tune()
