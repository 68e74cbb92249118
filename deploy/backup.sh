#!/bin/sh
# The nightly backup of the site's database (skatclub-backup.service), with rotation:
#
#   deploy/backup.sh DIR
#
# writes DIR/skatclub-YYYY-MM-DD.backup (today's date; a second run on the same day
# replaces it) with `manage.py backup`, then keeps the newest KEEP_DAILY (default 7) of
# these files and, of the older ones, the newest of each ISO week for KEEP_WEEKLY (default
# 4) weeks; the other skatclub-*.backup files in DIR are removed. Other files are left alone.
#
# The site's settings (DATABASE_URL, DJANGO_SECRET_KEY, ...) come from the environment, as
# for the site itself. Any failure stops the script with a non-zero exit before anything
# is removed, and a backup that did not finish never takes a dated name.
set -eu

dir=${1:?usage: deploy/backup.sh DIR}
keep_daily=${KEEP_DAILY:-7}
keep_weekly=${KEEP_WEEKLY:-4}
root=$(cd "$(dirname "$0")/.." && pwd)

target="$dir/skatclub-$(date +%F).backup"
partial="$dir/.skatclub-backup.partial"
trap 'rm -f "$partial"' EXIT
"$root/.venv/bin/python" "$root/manage.py" backup "$partial"
if [ ! -s "$partial" ]; then
    echo "backup.sh: manage.py backup wrote nothing to $partial" >&2
    exit 1
fi
mv -f "$partial" "$target"

# Newest first (the date in the name sorts), each kept as one of the newest daily ones or
# as the newest of its week among the older ones.
daily=0
weeks=" "
weekly=0
for path in $(find "$dir" -maxdepth 1 -type f -name 'skatclub-*.backup' | sort -r); do
    day=$(basename "$path" .backup)
    day=${day#skatclub-}
    case $day in
        [0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]) ;;
        *) continue ;;  # not one of ours: leave it
    esac
    if [ "$daily" -lt "$keep_daily" ]; then
        daily=$((daily + 1))
        continue
    fi
    week=$(date -d "$day" +%G-W%V)
    case $weeks in
        *" $week "*) ;;  # an older file of a week already kept
        *)
            if [ "$weekly" -lt "$keep_weekly" ]; then
                weeks="$weeks$week "
                weekly=$((weekly + 1))
                continue
            fi
            ;;
    esac
    rm -f "$path"
    echo "backup.sh: removed $path"
done
echo "backup.sh: $target written; kept the newest $daily daily and $weekly weekly backups"
