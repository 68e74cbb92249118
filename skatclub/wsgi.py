"""WSGI entry point of the Skat club site."""

import os

from django.conf import settings
from django.core.wsgi import get_wsgi_application

from skatclub import runtime
from skatclub.middleware import OverloadShedding

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skatclub.settings")
# No cyclic garbage collection while Django loads (runtime.py), as in manage.py.
runtime.collector_pause_for_start()
# In front of Django: a request that waited too long, or whose client has gone, costs
# next to nothing (skatclub/middleware.py).
application = OverloadShedding(
    get_wsgi_application(),
    after_ms=settings.SHED_AFTER_MS,
    trust_header=settings.SHED_TRUST_REQUEST_START,
)
# The worker's interpreter: the lock's switch interval, the garbage collector (runtime.py).
runtime.tune()
