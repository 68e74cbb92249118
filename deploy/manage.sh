#!/bin/sh
# A manage.py command with the site's settings, as the service runs it:
#
#   sudo -u skatclub /srv/skatclub/deploy/manage.sh createsuperuser
#   sudo -u skatclub /srv/skatclub/deploy/manage.sh restore FILE
#
# reads the variables of /etc/skatclub/env (SKATCLUB_ENV names another file) as systemd's
# EnvironmentFile= does for the units, then runs the checkout's manage.py in its virtualenv.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
env_file=${SKATCLUB_ENV:-/etc/skatclub/env}
if [ ! -r "$env_file" ]; then
    echo "manage.sh: cannot read $env_file (the site's settings; README: Running a club's server)" >&2
    exit 1
fi
set -a
# shellcheck disable=SC1090
. "$env_file"
set +a
exec "$root/.venv/bin/python" "$root/manage.py" "$@"
