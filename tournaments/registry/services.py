"""Writes of the registry: clubs, seasons, players, tournaments and their registrations,
and importing a player list.

Changing a tournament's scoring settings recomputes its stored values
(`games.scores_recompute`) and the seats' totals (`sheets.totals`); turning on double entry
issues the second keepers' links. Every write that changes what a tournament's pages show
bumps its version (`versions.version_bump`).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournaments.entry.services import table_links_issue
from tournaments.errors import UserError, validated
from tournaments.games import scores_recompute
from tournaments.models import (
    Club,
    Game,
    Player,
    Registration,
    RuleSet,
    Season,
    Seat,
    Series,
    Table,
    Tournament,
    has_control_characters,
)
from tournaments.sheets.totals import seat_totals_rebuild
from tournaments.versions import version_bump


def unique_slug(model, text: str, *, max_length: int = 80) -> str:
    base = slugify(text)[: max_length - 6].strip("-") or "t"
    slug, n = base, 2
    while model.objects.filter(slug=slug).exists():
        slug = f"{base}-{n}"
        n += 1
    return slug


def club_create(*, name: str, city: str = "", secretaries: Iterable = ()) -> Club:
    with transaction.atomic():
        club = validated(Club(name=name.strip(), city=city.strip()))
        club.save()
        club.secretaries.set(list(secretaries))
    return club


def season_create(
    *, club: Club, name: str, teams_best_n: int | None = None, slug: str | None = None
) -> Season:
    with transaction.atomic():
        season = Season(
            club=club,
            name=name.strip(),
            slug=slug or unique_slug(Season, name),
            teams_best_n=teams_best_n,
        )
        validated(season)
        season.save()
    return season


def player_create(
    *,
    name: str,
    club: Club | None,
    team: str = "",
    category: str = "",
    federation_number: str = "",
) -> Player:
    with transaction.atomic():
        player = validated(
            Player(
                name=" ".join(name.split()),
                club=club,
                team=team.strip(),
                category=category,
                federation_number=federation_number.strip(),
            )
        )
        try:
            player.save()
        except IntegrityError:
            raise UserError(
                _("Another player of this club has federation number %(n)s.")
                % {"n": federation_number}
            ) from None
    return player


def player_update(*, player: Player, **fields) -> Player:
    allowed = {"name", "team", "category", "federation_number"}
    unknown = set(fields) - allowed
    if unknown:
        raise TypeError(f"player_update got unknown fields {unknown}")
    with transaction.atomic():
        for key, value in fields.items():
            setattr(player, key, " ".join(value.split()) if key == "name" else value.strip())
        validated(player)
        player.save()
        # The player's name, team and category show on every tournament they play in.
        for tournament_id in (
            Tournament.objects.filter(
                Q(registrations__player=player) | Q(series__seats__player=player)
            )
            .order_by("pk")
            .values_list("pk", flat=True)
            .distinct()
        ):
            version_bump(tournament_id=tournament_id)
    return player


TOURNAMENT_SETTINGS = (
    "rules",
    "list_scoring",
    "bonus_won",
    "bonus_lost",
    "bonus_others_3",
    "bonus_others_4",
    "games_per_series_3",
    "games_per_series_4",
    "kontra_allowed",
    "team_best_n",
    "published",
    "double_entry",
)


def tournament_create(
    *,
    club: Club,
    name: str,
    date: datetime.date,
    season: Season | None = None,
    slug: str | None = None,
    **settings,
) -> Tournament:
    unknown = set(settings) - set(TOURNAMENT_SETTINGS)
    if unknown:
        raise TypeError(f"tournament_create got unknown settings {unknown}")
    with transaction.atomic():
        tournament = Tournament(
            club=club,
            season=season,
            name=name.strip(),
            date=date,
            slug=slug or unique_slug(Tournament, f"{name} {date:%Y-%m-%d}"),
            **settings,
        )
        validated(tournament)
        if tournament.rules == RuleSet.NA and tournament.kontra_allowed:
            raise UserError(_("Kontra and Re are an ISPA house rule (rules §1.7)."))
        tournament.save()
    return tournament


def tournament_update(*, tournament: Tournament, **fields) -> Tournament:
    """Change a tournament's name, date or settings; scores are recomputed when rules change."""
    allowed = {"name", "date", "season", *TOURNAMENT_SETTINGS}
    unknown = set(fields) - allowed
    if unknown:
        raise TypeError(f"tournament_update got unknown fields {unknown}")
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        double_before = tournament.double_entry
        scoring_fields = set(TOURNAMENT_SETTINGS) - {"team_best_n", "published", "double_entry"}
        changes_scoring = any(
            getattr(tournament, key) != value
            for key, value in fields.items()
            if key in scoring_fields
        )
        if (
            "rules" in fields
            and fields["rules"] != tournament.rules
            and Game.objects.filter(table__series__tournament=tournament).exists()
        ):
            raise UserError(_("Games have been entered; the rule set can no longer change."))
        for size in (3, 4):
            length = fields.get(f"games_per_series_{size}")
            if length is None:
                continue
            longest = (
                Table.objects.filter(series__tournament=tournament, size=size)
                .annotate(played=Count("games"))
                .filter(played__gt=length)
                .order_by("-played", "series__number", "number")
                .select_related("series")
                .first()
            )
            if longest is not None:
                raise UserError(
                    _(
                        "Table %(table)s of series %(series)s already holds %(played)s games; "
                        "a series at a table of %(size)s cannot be shorter than that."
                    )
                    % {
                        "table": longest.number,
                        "series": longest.series.number,
                        "played": longest.played,
                        "size": size,
                    },
                    field=f"games_per_series_{size}",
                )
        for key, value in fields.items():
            setattr(tournament, key, value)
        validated(tournament)
        tournament.save()
        if changes_scoring:
            scores_recompute(tournament=tournament)
        if changes_scoring or tournament.double_entry != double_before:
            # Double entry decides which rows count (disputed ones do not).
            seat_totals_rebuild(tournament=tournament)
        version_bump(tournament_id=tournament.pk)
        if tournament.double_entry and not double_before:
            # Turned on after a draw: the second keepers' links of the series still in play.
            for series in tournament.series.exclude(status=Series.Status.CLOSED):
                table_links_issue(series=series)
    return tournament


def tournament_set_status(*, tournament: Tournament, status: str) -> Tournament:
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if (
            status == Tournament.Status.FINISHED
            and tournament.series.filter(status=Series.Status.OPEN).exists()
        ):
            raise UserError(_("Close every series before finishing the tournament."))
        tournament.status = status
        tournament.save(update_fields=["status"])
        version_bump(tournament_id=tournament.pk)
    return tournament


def registration_add(*, tournament: Tournament, players: Iterable[Player]) -> int:
    """Register players (already registered ones and repeats are skipped); returns how many
    were added."""
    with transaction.atomic():
        existing = set(tournament.registrations.values_list("player_id", flat=True))
        new = []
        for player in players:
            if player.pk not in existing:
                existing.add(player.pk)
                new.append(Registration(tournament=tournament, player=player))
        Registration.objects.bulk_create(new)
        if new:
            version_bump(tournament_id=tournament.pk)
    return len(new)


def registration_remove(*, registration: Registration):
    with transaction.atomic():
        if Seat.objects.filter(
            series__tournament=registration.tournament_id, player=registration.player_id
        ).exists():
            raise UserError(_("This player has been seated in a series and cannot be removed."))
        if registration.payments.exists():
            raise UserError(_("Money has been booked for this player; remove the payments first."))
        registration.delete()
        version_bump(tournament_id=registration.tournament_id)


def registration_set_lots(*, tournament: Tournament, lots: Mapping[int, int | None]):
    """Record the order a draw by lot gave among tied players (rules §2)."""
    with transaction.atomic():
        for registration in tournament.registrations.select_for_update():
            if registration.player_id in lots:
                registration.lot = lots[registration.player_id]
                registration.save(update_fields=["lot"])
        version_bump(tournament_id=tournament.pk)


@dataclass(frozen=True)
class ImportResult:
    created: int
    reused: int
    registered: int


def players_import(*, tournament: Tournament, rows: Sequence[Mapping]) -> ImportResult:
    """Register an imported player list: known players are reused, new ones created.

    A row's club is the tournament's club when empty or equal to it; another club is found
    by name or created (open tournaments have guests). A player is the same when the club
    and the federation number agree, or else the club and the name.
    """
    created = reused = 0
    players = []
    with transaction.atomic():
        clubs = {tournament.club.name.casefold(): tournament.club}
        for row in rows:
            # Before any look-up: PostgreSQL refuses a NUL even in a query's parameters.
            if any(
                isinstance(value, str) and has_control_characters(value) for value in row.values()
            ):
                raise UserError(_("Remove the control character (such as NUL or a line break)."))
            club_name = (row.get("club") or "").strip()
            club = clubs.get(club_name.casefold()) if club_name else tournament.club
            if club is None:
                club = Club.objects.filter(name__iexact=club_name).first() or club_create(
                    name=club_name
                )
                clubs[club_name.casefold()] = club
            number = (row.get("federation_number") or "").strip()
            name = " ".join(str(row.get("name") or "").split())
            player = None
            if number:
                player = Player.objects.filter(club=club, federation_number=number).first()
            if player is None:
                player = Player.objects.filter(club=club, name__iexact=name).first()
            if player is None:
                player = player_create(
                    name=name,
                    club=club,
                    team=row.get("team") or "",
                    category=row.get("category") or "",
                    federation_number=number,
                )
                created += 1
            else:
                reused += 1
            players.append(player)
        registered = registration_add(tournament=tournament, players=players)
    return ImportResult(created=created, reused=reused, registered=registered)
