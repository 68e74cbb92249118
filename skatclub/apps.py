"""The project's own app: nothing but the end of start-up (skatclub/runtime.py)."""

from django.apps import AppConfig


class StartedConfig(AppConfig):
    """Last of INSTALLED_APPS, so that its `ready` comes when every other app is ready."""

    name = "skatclub"
    verbose_name = "Skat club site"

    def ready(self):
        from skatclub import runtime

        # The collector, paused while Django loaded (manage.py, wsgi.py), runs again.
        runtime.collector_resume()
