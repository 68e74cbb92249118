#!/usr/bin/env python
"""Django's command-line utility for the Skat club site."""

import os
import sys


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skatclub.settings")
    # No cyclic garbage collection while Django loads; on again once the apps are ready.
    from skatclub.runtime import collector_pause_for_start

    collector_pause_for_start()
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
