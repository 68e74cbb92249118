"""Import, second half: a checked plan (`reader`) written to the database in one
transaction, bulk where it can be (series, tables, seats, games, penalties), then the
archive's parts (`interchange.archive`, `archive_write` below)."""

from __future__ import annotations

from collections import defaultdict

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournaments.errors import UserError
from tournaments.interchange.archive import ArchivePlan, director_actions_write
from tournaments.interchange.common import GAME_BATCH, InterchangeError
from tournaments.interchange.reader import _Checker, _SeriesPlan
from tournaments.models import (
    Club,
    Game,
    GameChange,
    Payment,
    Penalty,
    PenaltyChange,
    Player,
    Prize,
    Registration,
    Season,
    Seat,
    Series,
    SheetCopy,
    Table,
    Tournament,
)
from tournaments.registry.services import (
    club_create,
    player_create,
    registration_add,
    season_create,
    tournament_create,
)
from tournaments.sheets.totals import seat_totals_rebuild
from tournaments.versions import version_bump


def _insert(model, objects: list):
    """Insert and set the primary keys (bulk where the database returns them)."""
    if not objects:
        return
    if connection.features.can_return_rows_from_bulk_insert:
        model.objects.bulk_create(objects, batch_size=GAME_BATCH)
    else:  # pragma: no cover - every supported database returns the keys
        for obj in objects:
            obj.save(force_insert=True)


class _Writer:
    def __init__(self, checker: _Checker):
        self.plan = checker
        self.clubs: dict[str, Club] = {}

    def club(self, name: str) -> Club:
        if name not in self.clubs:
            club = Club.objects.filter(name=name).first()
            self.clubs[name] = club or club_create(name=name)
        return self.clubs[name]

    def players(self) -> dict[str, Player]:
        """Reuse existing players by name and club (the k-th of equals the k-th by pk)."""
        names = {p.name for p in self.plan.players}
        existing: dict[tuple[str, str | None], list[Player]] = defaultdict(list)
        for player in Player.objects.filter(name__in=names).select_related("club").order_by("pk"):
            existing[(player.name, player.club.name if player.club else None)].append(player)
        by_id = {}
        for entry in self.plan.players:
            reusable = existing[(entry.name, entry.club)]
            if reusable:
                by_id[entry.id] = reusable.pop(0)
            else:
                extra = self.plan.archive.players.get(entry.id, {}) if self.plan.archive else {}
                by_id[entry.id] = player_create(
                    name=entry.name,
                    club=self.club(entry.club) if entry.club else None,
                    team=entry.team,
                    **extra,
                )
        return by_id

    def slug(self) -> str:
        """The archived slug, else the one `tournament_create` would give a new tournament."""
        archive, settings = self.plan.archive, self.plan.tournament
        if archive is not None and archive.slug:
            return archive.slug
        return slugify(f"{settings.name} {settings.date:%Y-%m-%d}")[:74].strip("-") or "t"

    def write(self, *, replace: bool = False) -> Tournament:
        plan = self.plan
        settings = plan.tournament
        archive = plan.archive
        with transaction.atomic():
            slug = self.slug()
            existing = Tournament.objects.select_for_update().filter(slug=slug).first()
            if existing is not None and not replace:
                raise InterchangeError(
                    [
                        _(
                            "tournament '%(slug)s' already exists: nothing was imported "
                            "(replace it with --replace)"
                        )
                        % {"slug": slug}
                    ]
                )
            if existing is not None:
                existing.delete()
            owner = plan.owner if isinstance(plan.owner, Club) else self.club(plan.owner)
            players = self.players()
            extra = {"published": True}  # imported results are finished work: show them
            season = None
            if archive is not None:
                extra = {
                    key: value
                    for key, value in archive.tournament.items()
                    if key in ("published", "double_entry", "team_best_n")
                }
                season = self.season(archive.season, owner)
            tournament = tournament_create(
                club=owner,
                name=settings.name,
                date=settings.date,
                season=season,
                slug=slug,
                rules=settings.rules,
                list_scoring=settings.list_scoring,
                bonus_won=settings.bonus_won,
                bonus_lost=settings.bonus_lost,
                bonus_others_3=settings.bonus_others_3,
                bonus_others_4=settings.bonus_others_4,
                games_per_series_3=settings.games_per_series_3,
                games_per_series_4=settings.games_per_series_4,
                games_per_series_5=settings.games_per_series_5,
                five_tables=settings.five_tables,
                ramsch_rule=settings.ramsch_rule,
                ramsch_tie_both_win=settings.ramsch_tie_both_win,
                kontra_allowed=settings.kontra_allowed,
                **extra,
            )
            if archive is None or archive.registrations is None:
                registered = [players[p.id] for p in plan.players]
            else:
                registered = [players[pid] for pid, _lot in archive.registrations]
            registration_add(tournament=tournament, players=registered)
            tables, seats, games, penalties = [], [], [], []
            for series_plan in plan.series:
                series = series_plan.series
                series.tournament = tournament
                for table_plan in series_plan.tables:
                    table = table_plan.table
                    table.closed = len(table_plan.games) == tournament.games_per_series(table.size)
                    tables.append(table)
                    games.extend(table_plan.games)
                    penalties.extend(table_plan.penalties)
                    seats.extend(
                        Seat(
                            table=table,
                            table_size=table.size,
                            series=series,
                            number=number,
                            player=players[pid],
                        )
                        for number, pid in enumerate(table_plan.player_ids, start=1)
                    )
                series.started = any(t.games for t in series_plan.tables)
                closed = all(t.table.closed for t in series_plan.tables)
                series.status = Series.Status.CLOSED if closed else Series.Status.OPEN
            if archive is not None:
                archive_apply(archive, plan.series)
                client_ids = [g.client_id for g in games if g.client_id is not None]
                if Game.objects.filter(client_id__in=client_ids).exists():
                    raise InterchangeError(
                        [_("archive: the site already holds games of these phone rows")]
                    )
            _insert(Series, [s.series for s in plan.series])
            _insert(Table, tables)
            Seat.objects.bulk_create(seats, batch_size=GAME_BATCH)
            for game in games:  # found by their tournament (indexed), not through the seats
                game.tournament = tournament
            _insert(Game, games)
            _insert(Penalty, penalties)
            if archive is not None:
                tournament.status = archive.tournament["status"]
            elif plan.series and all(s.series.status == Series.Status.CLOSED for s in plan.series):
                tournament.status = Tournament.Status.FINISHED
            elif games:
                tournament.status = Tournament.Status.RUNNING
            else:
                tournament.status = Tournament.Status.PLANNED
            tournament.save(update_fields=["status"])
            if archive is not None:
                archive_write(archive, tournament=tournament, players=players, plan=plan.series)
            # The seats' stored totals (read by the standings), after the second copies that
            # decide which rows are disputed; then one version for the whole import.
            seat_totals_rebuild(tournament=tournament)
            version_bump(tournament_id=tournament.pk)
        return tournament

    def season(self, data: dict | None, owner: Club) -> Season | None:
        """The archived league season: the site's of that slug, else a new one of `owner`."""
        if data is None:
            return None
        season = Season.objects.filter(slug=data["slug"]).first()
        return season or season_create(
            club=owner, name=data["name"], teams_best_n=data["teams_best_n"], slug=data["slug"]
        )


def import_document(doc, *, club: Club | str | None = None, replace: bool = False) -> Tournament:
    """Create a tournament from a document, or raise InterchangeError and write nothing.

    `club` runs the tournament: a Club, or a club name (created if missing); by default the
    archived club, else the most frequent club of the document's players. A tournament of
    the same slug (archived, else from name and date) is refused unless `replace`, which
    deletes it and imports the document in one transaction.
    """
    checker = _Checker(doc, club)
    checker.check()
    try:
        return _Writer(checker).write(replace=replace)
    except UserError as error:  # a service refused what the checks let through
        raise InterchangeError([str(error)]) from None


# --------------------------------------------------------------------------------------
# The archive's parts (`interchange.archive`)
# --------------------------------------------------------------------------------------


def archive_apply(archive: ArchivePlan, series_plans: list[_SeriesPlan]):
    """Before the bulk inserts: the archived state of series, tables and games."""
    for series_plan in series_plans:
        kept = archive.series.get(series_plan.series.number)
        if kept is None:
            continue
        for name, value in kept.values.items():
            setattr(series_plan.series, name, value)
        for table_plan in series_plan.tables:
            table = kept.tables.get(table_plan.table.number)
            if table is None:
                continue
            table_plan.table.closed = table.closed
            table_plan.table.paper_totals = table.paper_totals
            for game in table_plan.games:
                game.provisional = game.number in table.provisional
                game.client_id = table.client_ids.get(game.number)


def _restore_times(model, objects: list, name: str, times: list):
    """`auto_now_add` stamps an insert with the present: put the archived times back."""
    for obj, moment in zip(objects, times, strict=True):
        setattr(obj, name, moment)
    model.objects.bulk_update(objects, [name], batch_size=GAME_BATCH)


def archive_write(archive: ArchivePlan, *, tournament: Tournament, players, plan):
    """After the sheets: lots, money, history and second copies of the archive."""
    users = dict(
        get_user_model()
        .objects.filter(username__in=archive.usernames())
        .values_list("username", "pk")
    )
    registrations = {r.player_id: r for r in Registration.objects.filter(tournament=tournament)}
    for player_id, lot in archive.registrations or []:
        registrations[players[player_id].pk].lot = lot
    Registration.objects.bulk_update(registrations.values(), ["lot"])

    if archive.money:
        for name, value in archive.money.items():
            setattr(tournament, name, value)
        tournament.full_clean(exclude=["slug", "club", "season"])
        tournament.save(update_fields=list(archive.money))
    for prize in archive.prizes:
        prize.tournament = tournament
        prize.full_clean(exclude=["tournament"])
    _insert(Prize, archive.prizes)
    payments, times = [], []
    for player_id, payment, by in archive.payments:
        registration = registrations.get(players[player_id].pk)
        if registration is None:
            raise InterchangeError(
                [_("a payment names player '%(id)s', who is not registered") % {"id": player_id}]
            )
        payment.registration, payment.user_id = registration, users.get(by)
        payments.append(payment)
        times.append(payment.at)
    _insert(Payment, payments)
    _restore_times(Payment, payments, "at", times)

    game_changes, penalty_changes, copies = [], [], []
    for series_plan in plan:
        kept = archive.series.get(series_plan.series.number)
        for table_plan in series_plan.tables if kept else []:
            table = table_plan.table
            state = kept.tables.get(table.number)
            if state is None:
                continue
            games = {game.number: game for game in table_plan.games}
            for change, current, by in state.game_changes:
                change.table, change.user_id = table, users.get(by)
                change.game = games.get(change.game_number) if current else None
                game_changes.append(change)
            for change, index, by in state.penalty_changes:
                change.table, change.user_id = table, users.get(by)
                change.penalty = None if index is None else table_plan.penalties[index]
                penalty_changes.append(change)
            if state.second_copy is not None:
                copies.append(SheetCopy(table=table, rows=state.second_copy))
    for model, changes in ((GameChange, game_changes), (PenaltyChange, penalty_changes)):
        times = [change.at for change in changes]
        _insert(model, changes)
        _restore_times(model, changes, "at", times)
    SheetCopy.objects.bulk_create(copies)
    director_actions_write(archive, tournament, users)
