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

from django.db import IntegrityError, connection, transaction
from django.db.models import Count
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournaments.choices import ramsch_rule_refusal
from tournaments.entry.selectors import check_all_confirmed
from tournaments.entry.services import table_links_issue
from tournaments.errors import UserError, check_text, validated
from tournaments.games import scores_recompute
from tournaments.lifecycle import check_not_finished, finished_error
from tournaments.log.services import Kind, action_record, check_once
from tournaments.models import (
    Club,
    Game,
    GameChange,
    MatchDayConfirmation,
    Membership,
    Penalty,
    PenaltyChange,
    Player,
    Registration,
    RuleSet,
    Season,
    Seat,
    Series,
    SheetCopy,
    Table,
    Tournament,
    has_control_characters,
)
from tournaments.phrases import phrase
from tournaments.ratings.services import date_key, ratings_replay
from tournaments.registry.matching import person_key
from tournaments.registry.players import player_update  # noqa: F401 (imported from here too)
from tournaments.registry.selectors import (
    check_importable,
    federation_number_message,
    federation_number_taken,
    import_decisions,
)
from tournaments.sheets.totals import seat_totals_rebuild
from tournaments.standings.selectors import tied_groups, tournament_standings
from tournaments.versions import version_bump


def unique_slug(model, text: str, *, max_length: int = 80) -> str:
    base = slugify(text)[: max_length - 6].strip("-") or "t"
    slug, n = base, 2
    while model.objects.filter(slug=slug).exists():
        slug = f"{base}-{n}"
        n += 1
    return slug


def _log_created(kind, *, club, tournament=None, user=None, key=None, name=""):
    action_record(
        tournament=tournament, club=club, kind=kind, user=user, details={"name": name}, key=key
    )


def club_create(*, name: str, city: str = "", secretaries: Iterable = ()) -> Club:
    check_text(name, field="name")
    check_text(city, field="city")
    with transaction.atomic():
        club = validated(Club(name=name.strip(), city=city.strip()))
        club.save()
        club.secretaries.set(list(secretaries))
    return club


def season_create(
    *,
    club: Club,
    name: str,
    teams_best_n: int | None = None,
    slug: str | None = None,
    user=None,
    key: str | None = None,
) -> Season:
    check_text(name, field="name")
    with transaction.atomic():
        check_once(key)
        season = Season(
            club=club,
            name=name.strip(),
            slug=slug or unique_slug(Season, name),
            teams_best_n=teams_best_n,
        )
        validated(season)
        season.save()
        if key:
            _log_created(Kind.SEASON_CREATED, club=club, user=user, key=key, name=season.name)
    return season


def player_create(
    *,
    name: str,
    club: Club | None,
    team: str = "",
    category: str = "",
    federation_number: str = "",
    listed: bool = True,
    user=None,
    key: str | None = None,
) -> Player:
    """A new player; `key` (a form's once key) logs the creation and makes a repeat a
    `Replay`."""
    for field, value in (("name", name), ("team", team), ("federation_number", federation_number)):
        check_text(value, field=field)
    taken = federation_number_taken(federation_number)
    if taken:
        raise UserError(taken, field="federation_number")
    with transaction.atomic():
        check_once(key)
        player = validated(
            Player(
                name=" ".join(name.split()),
                club=club,
                team=team.strip(),
                category=category,
                federation_number=federation_number.strip(),
                listed=bool(listed),
            )
        )
        try:
            player.save()
        except IntegrityError:
            raise UserError(
                federation_number_taken(player.federation_number)
                or _("This federation number is already taken."),
                field="federation_number",
            ) from None
        if club is not None:
            Membership.objects.create(player=player, club=club)
        if key:
            _log_created(Kind.PLAYER_CREATED, club=club, user=user, key=key, name=player.name)
    return player


def players_create(entries: Sequence[dict]) -> list[Player]:
    """Many new players at once (an import), each checked as `player_create` checks one;
    `entries` hold `player_create`'s arguments (no `key`, no `user`). One query checks
    the federation numbers against the site's players, one INSERT writes them all."""
    if not entries:  # (no savepoint for nothing: an import asks with none often)
        return []
    players = []
    for entry in entries:
        name, team = entry["name"], entry.get("team", "")
        number = entry.get("federation_number", "")
        for field, value in (("name", name), ("team", team), ("federation_number", number)):
            check_text(value, field=field)
        player = Player(
            name=" ".join(name.split()),
            club=entry["club"],
            team=team.strip(),
            category=entry.get("category", ""),
            federation_number=number.strip(),
            listed=entry.get("listed", True),
        )
        # The federation number, unique site-wide, is checked below for all at once.
        # The club is a saved row (no query each); the federation number below.
        players.append(validated(player, exclude=["club"], constraints=False))
    numbered = [p for p in players if p.federation_number]
    taken = {
        holder.federation_number: holder
        for holder in Player.objects.filter(
            federation_number__in={p.federation_number for p in numbered}
        ).select_related("club")
    }
    for player in numbered:
        if player.federation_number in taken:
            raise UserError(federation_number_message(taken[player.federation_number]))
        taken[player.federation_number] = player
    with transaction.atomic():
        created = Player.objects.bulk_create(players, batch_size=1000)
        memberships_create(created)
        return created


def memberships_create(players: Sequence[Player]) -> None:
    """Each new player's membership of their home club (`Player.club`), in one INSERT."""
    Membership.objects.bulk_create(
        [Membership(player=p, club=p.club) for p in players if p.club is not None],
        batch_size=1000,
    )


def memberships_join(pairs: Iterable[tuple[Player, Club]]) -> None:
    """Known players who join a club an import says they play for, in one INSERT (one
    a member already stays as they are)."""
    Membership.objects.bulk_create(
        [Membership(player=player, club=club) for player, club in pairs],
        batch_size=1000,
        ignore_conflicts=True,
    )


TOURNAMENT_SETTINGS = (
    "rules",
    "list_scoring",
    "bonus_won",
    "bonus_lost",
    "bonus_others_3",
    "bonus_others_4",
    "games_per_series_3",
    "games_per_series_4",
    "games_per_series_5",
    "five_tables",
    "ramsch_rule",
    "ramsch_tie_both_win",
    "kontra_allowed",
    "team_best_n",
    "published",
    "double_entry",
    "prizes_split_ties",
)


def check_ramsch_rule(tournament: Tournament):
    """Refuse a ramsch variant of the other rule set (Gewinner-Ramsch at an NA tournament)."""
    refusal = ramsch_rule_refusal(tournament.rules, tournament.ramsch_rule)
    if refusal:
        raise UserError(refusal, field="ramsch_rule")


def tournament_create(
    *,
    club: Club,
    name: str,
    date: datetime.date,
    season: Season | None = None,
    slug: str | None = None,
    user=None,
    key: str | None = None,
    checked: bool = False,
    **settings,
) -> Tournament:
    """A new tournament of `club`. `checked`: its settings come from a document the
    interchange reader has checked (each setting and their combinations), its club and
    season from the caller's transaction and its slug is free (the import looked): the
    model's field checks run, not the queries that check its constraints, foreign keys
    and unique slug again (seven a tournament, a season document's match days each)."""
    unknown = set(settings) - set(TOURNAMENT_SETTINGS)
    if unknown:
        raise TypeError(f"tournament_create got unknown settings {unknown}")
    check_text(name, field="name")
    with transaction.atomic():
        check_once(key)
        tournament = Tournament(
            club=club,
            season=season,
            name=name.strip(),
            date=date,
            slug=slug or unique_slug(Tournament, f"{name} {date:%Y-%m-%d}"),
            **settings,
        )
        check_ramsch_rule(tournament)
        if checked:
            validated(tournament, exclude=("club", "season", "slug"), constraints=False)
        else:
            validated(tournament)
        if tournament.rules == RuleSet.NA and tournament.kontra_allowed:
            raise UserError(_("Kontra and Re are an ISPA house rule (rules §1.7)."))
        tournament.save()
        _log_created(
            Kind.TOURNAMENT_CREATED,
            club=club,
            tournament=tournament,
            user=user,
            key=key,
            name=tournament.name,
        )
    return tournament


# What a finished tournament may still change: whether it is shown, and how it is called.
# Not its season: moving it would change two seasons' final tables.
CHANGEABLE_WHEN_FINISHED = {"published", "name", "date"}


def tournament_update(*, tournament: Tournament, user=None, **fields) -> Tournament:
    """Change a tournament's name, date or settings; scores are recomputed when rules change.

    A finished tournament's settings are locked (reopen it first); every change is logged
    with its old and new values.
    """
    allowed = {"name", "date", "season", *TOURNAMENT_SETTINGS}
    unknown = set(fields) - allowed
    if unknown:
        raise TypeError(f"tournament_update got unknown fields {unknown}")
    check_text(fields.get("name"), field="name")
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        changed = {
            key: [getattr(tournament, key), value]
            for key, value in fields.items()
            if getattr(tournament, key) != value
        }
        if tournament.status == Tournament.Status.FINISHED and (
            set(changed) - CHANGEABLE_WHEN_FINISHED
        ):
            raise finished_error()
        double_before = tournament.double_entry
        scoring_fields = set(TOURNAMENT_SETTINGS) - {
            "team_best_n",
            "published",
            "double_entry",
            "prizes_split_ties",
        }
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
        if (
            fields.get("five_tables") is False
            and Table.objects.filter(series__tournament=tournament, size=5).exists()
        ):
            raise UserError(
                _("Tables of five have been drawn; they can no longer be switched off."),
                field="five_tables",
            )
        for size in (3, 4, 5):
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
        check_ramsch_rule(tournament)
        validated(tournament)
        tournament.save()
        if changes_scoring:
            scores_recompute(tournament=tournament)
        if changes_scoring or tournament.double_entry != double_before:
            # Double entry decides which rows count (disputed ones do not).
            seat_totals_rebuild(tournament=tournament)
            ratings_replay(since=date_key(tournament.date))
        if "date" in changed:
            # The results move in the ratings' order: replay from the earlier date.
            ratings_replay(since=date_key(min(changed["date"])))
        version_bump(tournament_id=tournament.pk)
        if tournament.double_entry and not double_before:
            # Turned on after a draw: the second keepers' links of the series still in play.
            for series in tournament.series.exclude(status=Series.Status.CLOSED):
                table_links_issue(series=series)
        if changed:
            action_record(
                tournament=tournament,
                kind=Kind.SETTINGS,
                user=user,
                details={
                    "changes": {
                        key: [
                            str(old) if old is not None else None,
                            str(new) if new is not None else None,
                        ]
                        for key, (old, new) in changed.items()
                    }
                },
            )
    return tournament


def tournament_finish(*, tournament: Tournament, user=None, reason: str = "") -> Tournament:
    """Finish a tournament: every series closed, no game provisional or disputed. Its
    settings and draws are locked until it is reopened (`tournament_reopen`)."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if tournament.status == Tournament.Status.FINISHED:
            raise UserError(_("The tournament is already finished."), code="replay")
        if not tournament.series.exists():
            raise UserError(_("No series has been drawn; there is nothing to finish."))
        if tournament.series.filter(status=Series.Status.OPEN).exists():
            raise UserError(_("Close every series before finishing the tournament."))
        check_all_confirmed(Table.objects.filter(series__tournament=tournament))
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])
        action_record(tournament=tournament, kind=Kind.FINISHED, user=user, reason=reason)
        version_bump(tournament_id=tournament.pk)
    return tournament


def tournament_reopen(*, tournament: Tournament, user=None, reason: str = "") -> Tournament:
    """Reopen a finished tournament (logged): settings and draws can change again."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if tournament.status != Tournament.Status.FINISHED:
            raise UserError(_("The tournament is not finished."))
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
        # A league match day's confirmation made it final: reopened, it is provisional again
        # until its director confirms it anew.
        withdrawn, _deleted = MatchDayConfirmation.objects.filter(tournament=tournament).delete()
        action_record(
            tournament=tournament,
            kind=Kind.REOPENED,
            user=user,
            reason=reason,
            details={"confirmation_withdrawn": True} if withdrawn else None,
        )
        version_bump(tournament_id=tournament.pk)
    return tournament


def tournament_set_status(*, tournament: Tournament, status: str, user=None) -> Tournament:
    """Finish or reopen (see `tournament_finish`, `tournament_reopen`); a tournament that
    is not finished stays as it is when asked to run."""
    if status == Tournament.Status.FINISHED:
        return tournament_finish(tournament=tournament, user=user)
    if tournament.status != Tournament.Status.FINISHED:
        return Tournament.objects.get(pk=tournament.pk)
    return tournament_reopen(tournament=tournament, user=user)


def tournament_delete(*, tournament: Tournament, user=None):
    """Delete a draft: a tournament with no series drawn and no money booked."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if tournament.series.exists() or tournament.status != Tournament.Status.PLANNED:
            raise UserError(_("Only a draft can be deleted: this tournament has series drawn."))
        if Registration.objects.filter(tournament=tournament, payments__isnull=False).exists():
            raise UserError(_("Money has been booked for this tournament; it cannot be deleted."))
        tournament.delete()


def tournament_purge(*, tournament: Tournament):
    """Delete a tournament with everything it holds, in the caller's transaction (an
    import's `--replace`).

    The score sheets' rows go first, one DELETE per kind found by the tournament's tables:
    Django's cascade from the tournament would load every game (a game has penalties and a
    change log pointing at it) to delete them one batch at a time, which made replacing a
    tournament of 96,000 games take 6 s and 90 MB more than importing it. The rest (tables,
    series, registrations and what hangs on them, a few thousand rows) goes by the cascade;
    the database's foreign keys refuse the transaction if anything were left pointing at a
    deleted row."""
    tables = Table.objects.filter(series__tournament=tournament)
    # Nothing points at these: each is one DELETE with the tables as a subquery.
    for model in (GameChange, PenaltyChange, SheetCopy, Seat):
        model.objects.filter(table__in=tables).delete()
    Penalty.objects.filter(table__in=tables).delete()  # a few, their change log gone
    # The games' penalties and change log are gone: the games themselves by one statement
    # (a queryset's delete would still load each one for the relations it no longer has).
    with connection.cursor() as cursor:
        cursor.execute(
            f"DELETE FROM {Game._meta.db_table} WHERE table_id IN"
            f" (SELECT t.id FROM {Table._meta.db_table} t"
            f" INNER JOIN {Series._meta.db_table} s ON s.id = t.series_id"
            " WHERE s.tournament_id = %s)",
            [tournament.pk],
        )
    tournament.delete()


def registration_add(
    *,
    tournament: Tournament,
    players: Iterable[Player],
    user=None,
    key: str | None = None,
    reason: str = "",
) -> int:
    """Register players (already registered ones and repeats are skipped); returns how many
    were added. A withdrawn player registered again is back in the draw."""
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        check_once(key)
        check_not_finished(tournament.pk)
        registered = dict(tournament.registrations.values_list("player_id", "withdrawn"))
        new, back = [], []
        for player in players:
            if player.pk not in registered:
                registered[player.pk] = False
                new.append(Registration(tournament=tournament, player=player))
            elif registered[player.pk]:
                registered[player.pk] = False
                back.append(player)
        Registration.objects.bulk_create(new)
        if back:
            tournament.registrations.filter(player__in=back).update(withdrawn=False)
        if new or back:
            version_bump(tournament_id=tournament.pk)
        if new or back or key:
            action_record(
                tournament=tournament,
                kind=Kind.REGISTRATION_ADDED,
                user=user,
                details={"players": [r.player.name for r in new] + [p.name for p in back]},
                reason=reason,
                key=key,
            )
    return len(new) + len(back)


def registrations_restore(*, tournament: Tournament, players: Sequence[Player]) -> int:
    """Register `players` (distinct) in a tournament the caller's transaction has just
    created (an import), logged as `registration_add` logs them; without its lock, its
    read of the registrations (there are none) and its version bump (the import bumps the
    version once everything is written)."""
    players = list(dict.fromkeys(players))
    with transaction.atomic():
        Registration.objects.bulk_create(
            [Registration(tournament=tournament, player=player) for player in players]
        )
        if players:
            action_record(
                tournament=tournament,
                kind=Kind.REGISTRATION_ADDED,
                details={"players": [player.name for player in players]},
            )
    return len(players)


def player_quick_add(
    *, tournament: Tournament, name: str, user=None, key: str | None = None, **fields
) -> Player:
    """A new player of the tournament's club, registered at once (one transaction; the
    form's once key makes a double submit a `Replay`)."""
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        check_once(key)
        check_not_finished(tournament.pk)
        player = player_create(name=name, club=tournament.club, **fields)
        registration_add(tournament=tournament, players=[player], user=user, key=key)
    return player


def registration_remove(*, registration: Registration, user=None):
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=registration.tournament_id).first()
        check_not_finished(registration.tournament_id)
        if Seat.objects.filter(
            series__tournament=registration.tournament_id, player=registration.player_id
        ).exists():
            raise UserError(
                _(
                    "This player has been seated in a series and cannot be removed; withdraw "
                    "them instead (results kept, not drawn again)."
                )
            )
        if registration.payments.exists():
            raise UserError(_("Money has been booked for this player; remove the payments first."))
        action_record(
            tournament=registration.tournament,
            kind=Kind.REGISTRATION_REMOVED,
            user=user,
            details={"player": registration.player.name},
        )
        registration.delete()
        version_bump(tournament_id=registration.tournament_id)


def registration_withdraw(
    *, registration: Registration, user=None, reason: str = "", undo: bool = False
) -> Registration:
    """A player who leaves: not drawn again, their results kept (`undo`: back in the draw)."""
    with transaction.atomic():
        registration = (
            Registration.objects.select_for_update()
            .select_related("player", "tournament")
            .get(pk=registration.pk)
        )
        check_not_finished(registration.tournament_id)
        if registration.withdrawn != undo:
            return registration
        registration.withdrawn = not undo
        registration.save(update_fields=["withdrawn"])
        action_record(
            tournament=registration.tournament,
            kind=Kind.REGISTRATION_ADDED if undo else Kind.REGISTRATION_WITHDRAWN,
            user=user,
            details={"player": registration.player.name},
            reason=reason,
        )
    return registration


LOT_MAX = 9999


def lots_wanted(group: Sequence) -> str:
    """What the draw by lot wants of one tied group (standings rows): a different number
    for each of its players, 1 to the group's size in the natural numbering."""
    first = group[0]
    return _(
        "Tied at %(points)s points, %(won)s won, %(lost)s lost: %(names)s. Enter the "
        "drawn order in whole numbers, a different one for each of them: 1 to %(count)s "
        "(1 ranks first)."
    ) % {
        "points": first.list_points,
        "won": first.won,
        "lost": first.lost,
        "names": ", ".join(row.player_name for row in group),
        "count": len(group),
    }


def lot_group_of(tournament: Tournament, player_id: int) -> list | None:
    """The tied group (standings rows) the player is in, None when they are tied with
    nobody."""
    for group in tied_groups(tournament_standings(tournament)):
        if any(row.player_id == player_id for row in group):
            return group
    return None


def registration_set_lots(*, tournament: Tournament, lots: Mapping[int, int | None], user=None):
    """Record the order a draw by lot gave among tied players (rules §2).

    The numbers only order players within one tied group, so each group is numbered on
    its own: 1, 2, … in every group (the natural numbering), or any other different
    numbers within a group. Two players of one group with the same number are refused
    with the group and the numbers it wants; nothing is saved then."""
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        check_not_finished(tournament.pk)
        for group in tied_groups(tournament_standings(tournament)):
            given = [lots[row.player_id] for row in group if lots.get(row.player_id) is not None]
            if len(set(given)) != len(given) or any(
                not 1 <= number <= LOT_MAX for number in given
            ):
                raise UserError(lots_wanted(group))
        changed = {}
        for registration in tournament.registrations.select_for_update().select_related("player"):
            if registration.player_id in lots and registration.lot != lots[registration.player_id]:
                changed[registration.player.name] = [
                    registration.lot,
                    lots[registration.player_id],
                ]
                registration.lot = lots[registration.player_id]
                registration.save(update_fields=["lot"])
        if changed:
            action_record(
                tournament=tournament, kind=Kind.LOTS, user=user, details={"changes": changed}
            )
        version_bump(tournament_id=tournament.pk)


@dataclass(frozen=True)
class ImportResult:
    created: int
    reused: int
    registered: int


def players_import(
    *,
    tournament: Tournament,
    rows: Sequence[Mapping],
    user=None,
    key: str | None = None,
    previewed: Sequence | None = None,
    choices: Mapping[int, int] | None = None,
) -> ImportResult:
    """Register an imported player list: known players are linked, new ones created.

    Each row goes as `registry.selectors.import_decisions` says (`choices` settle rows of
    several candidates); with `previewed` (the preview's `RowDecision.outcome`s) a list
    that would now go otherwise is refused. A known player joins the row's club where the
    importer runs it. A refused row refuses the whole list (its line in the message),
    nothing written. The tournament's row is locked first and `key` (the confirmation's
    once key) checked under it, so the same confirmation sent twice, even at once,
    registers once (the second is a `Replay`).
    """
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        check_once(key)
        check_not_finished(tournament.pk)
        for row in rows:
            # Before any look-up: PostgreSQL refuses a NUL even in a query's parameters.
            if any(
                isinstance(value, str) and has_control_characters(value) for value in row.values()
            ):
                raise UserError(_("Remove the control character (such as NUL or a line break)."))
        decisions = import_decisions(tournament=tournament, rows=rows, user=user, choices=choices)
        check_importable(decisions, previewed)
        new_clubs: dict[str, Club] = {}
        players: list[Player | None] = []
        entries, slots, seen, joining = [], [], {}, []
        for row, decision in zip(rows, decisions, strict=True):
            club = decision.club
            if decision.new_club:
                club_name = " ".join(str(row.get("club") or "").split())
                club = new_clubs.get(club_name.casefold())
                if club is None:
                    club = new_clubs[club_name.casefold()] = club_create(name=club_name)
            if decision.player is not None:
                players.append(decision.player)
                if decision.joins:
                    joining.append((decision.player, club))
                continue
            name = " ".join(str(row.get("name") or "").split())
            same = (club.pk, person_key(name))
            if same in seen:  # the list names one new player twice: one player
                players.append(None)
                slots.append((len(players) - 1, seen[same]))
                continue
            seen[same] = len(entries)
            slots.append((len(players), len(entries)))
            players.append(None)
            entries.append(
                {
                    "name": name,
                    "club": club,
                    "team": row.get("team") or "",
                    "category": row.get("category") or "",
                    "federation_number": (row.get("federation_number") or "").strip(),
                }
            )
        created = players_create(entries)
        memberships_join(joining)
        for index, entry in slots:
            players[index] = created[entry]
        registered = registration_add(
            tournament=tournament,
            players=players,
            user=user,
            key=key,
            reason=phrase("player_list_import"),
        )
    return ImportResult(created=len(created), reused=len(rows) - len(slots), registered=registered)
