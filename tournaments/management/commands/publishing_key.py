"""`manage.py publishing_key create|revoke`: the keys a hall site publishes here with
(`tournaments.publishing`).

    publishing_key create --club NAME [--name TEXT]
    publishing_key create --league SLUG --venue NAME [--match-day SLUG] [--name TEXT]
    publishing_key revoke PREFIX

`--club` names the club whose tournaments the key may publish (created if the site has no
club of that name). `--league` and `--venue` make a key for the tables of one venue of a
match day: the league's match day that has a venue of that name; `--match-day` (the match
day's slug) is required when several have one. `create` prints the key alone on its last
line: it is shown this once (the site keeps its hash). `revoke` takes the prefix the key
pages show (or the whole key).
"""

from django.core.management.base import BaseCommand, CommandError

from tournaments.errors import UserError
from tournaments.models import Club, League, PublishingKey, Venue
from tournaments.publishing.services import key_create, key_digest, key_revoke
from tournaments.registry.services import club_create


class Command(BaseCommand):
    help = "Create or revoke a key that a hall site publishes a tournament with."

    def add_arguments(self, parser):
        parser.add_argument("action", choices=["create", "revoke"])
        parser.add_argument("key", nargs="?", help="revoke: the key or its prefix")
        parser.add_argument("--club", help="the club whose tournaments the key publishes")
        parser.add_argument("--league", help="the league's slug (a venue's key)")
        parser.add_argument("--venue", help="the venue's name (a venue's key)")
        parser.add_argument("--match-day", help="the match day's slug, if several have the venue")
        parser.add_argument("--name", help="what the key is for (default: the hall's name)")

    def handle(self, *args, action, key=None, **options):
        if action == "revoke":
            return self.revoke(key)
        club, venue = self.scope(options)
        name = options["name"] or (club.name if club else f"{venue.name} ({venue.tournament})")
        try:
            row, raw = key_create(name=name, club=club, venue=venue)
        except UserError as error:
            raise CommandError(str(error)) from None
        scope = f"club {club.name}" if club else f"venue {venue.name} of {venue.tournament.slug}"
        self.stdout.write(f"Publishing key {row.prefix}… for {scope} (shown this once):")
        self.stdout.write(raw)

    def scope(self, options):
        if options["club"]:
            if options["league"] or options["venue"]:
                raise CommandError("give --club, or --league with --venue, not both")
            name = " ".join(options["club"].split())
            try:
                club = Club.objects.filter(name=name).first() or club_create(name=name)
            except UserError as error:
                raise CommandError(str(error)) from None
            return club, None
        if not (options["league"] and options["venue"]):
            raise CommandError("give --club NAME, or --league SLUG with --venue NAME")
        league = League.objects.filter(slug=options["league"]).first()
        if league is None:
            raise CommandError(f"no league with slug '{options['league']}'")
        venues = Venue.objects.filter(
            tournament__season__league=league, name=options["venue"]
        ).select_related("tournament")
        if options["match_day"]:
            venues = venues.filter(tournament__slug=options["match_day"])
        venues = list(venues.order_by("tournament__date", "tournament__slug"))
        if not venues:
            raise CommandError(f"no match day of {league.slug} has a venue '{options['venue']}'")
        if len(venues) > 1:
            days = ", ".join(v.tournament.slug for v in venues)
            raise CommandError(f"several match days have that venue ({days}): give --match-day")
        return None, venues[0]

    def revoke(self, given):
        if not given:
            raise CommandError("revoke: give the key or its prefix")
        keys = list(
            PublishingKey.objects.filter(digest=key_digest(given))
            or PublishingKey.objects.filter(prefix=given, revoked_at__isnull=True)
        )
        if len(keys) != 1:
            raise CommandError("no such key" if not keys else "several keys: give the whole key")
        key_revoke(key=keys[0])
        self.stdout.write(f"revoked {keys[0].prefix}…")
