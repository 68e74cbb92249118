"""What the commands look up by the short name given on the command line: the object, or a
CommandError that names what is missing. Light to import (models only), so that a read
command does not load the import and export machinery to find its tournament."""

from django.core.management.base import CommandError

from tournaments.models import Club, League, Season, Tournament


def tournament_by_slug(slug: str) -> Tournament:
    try:
        return Tournament.objects.get(slug=slug)
    except Tournament.DoesNotExist:
        raise CommandError(f"no tournament with slug '{slug}'") from None


def season_by_slug(slug: str) -> Season:
    try:
        return Season.objects.select_related("league", "club").get(slug=slug)
    except Season.DoesNotExist:
        raise CommandError(f"no season with slug '{slug}'") from None


def club_by_name(name: str) -> Club:
    try:
        return Club.objects.get(name=name)
    except Club.DoesNotExist:
        raise CommandError(f"no club named '{name}'") from None


def league_by_slug(slug: str) -> League:
    try:
        return League.objects.get(slug=slug)
    except League.DoesNotExist:
        raise CommandError(f"no league with slug '{slug}'") from None
