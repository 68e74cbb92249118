"""WSGI entry point of the Skat club site."""

import os

from django.core.wsgi import get_wsgi_application

from skatclub import runtime

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skatclub.settings")
application = get_wsgi_application()
# The worker's interpreter: the lock's switch interval, the garbage collector (runtime.py).
runtime.tune()
