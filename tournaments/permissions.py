"""Who may do what.

- A club's secretaries (and superusers) manage that club's players, seasons and tournaments:
  draw, enter and correct scores, print, publish.
- A league's directors run its seasons: the match days (draw, publish, confirm), the
  season's settings, closing it. A league match day belongs to the league, not to the club
  that hosts it.
- Each club's secretaries manage their own teams and rosters in a season.
- A venue's secretary enters and closes the sheets of that venue's tables only (and the
  league's directors may too).
- A player's record is kept by the secretaries of the player's home club (and site
  administrators): `can_edit_player`, the one rule of every page that changes a player.
  Any club's secretaries may make a player of another club a member of their club.
- Everyone else (players, the public, other clubs' secretaries) reads what is published.

Who sees what (`visible_tournaments`, the one rule of every list and every detail): the
public the published tournaments; a club's secretaries their club's own tournaments, drafts
included (not another league's match day their club hosts: it belongs to the league); a
league's directors their league's match days, drafts included; a venue's secretary the
match day of their venue. A season is seen where one of its match days is, or by who runs
it (`visible_seasons`).

A player not listed publicly (`Player.listed` off) has no public page
(`can_see_player_page`: those who manage the player still see it), is never linked from a
public output, and is shown by initials in public rating lists always and in the public
standings of a club's tournaments where the club chooses it (`names_by_initials`, the name
itself `formats.public_name`).

A write records who made it (`acting_user`): the signed-in user, or nobody for a phone's
table link.
"""

from django.db.models import Q, QuerySet

from tournaments.models import Club, League, Player, Season, Table, Team, Tournament, Venue


def can_manage_club(user, club: Club | None) -> bool:
    if club is None or not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return club.secretaries.filter(pk=user.pk).exists()


def can_edit_player(user, player) -> bool:
    """Edit a player's record, end or add their memberships, merge it: the secretaries of
    the player's home club (`Player.club`), who keep the record, and site administrators.
    A player without a home club: site administrators only. The one rule of every page
    that changes a player."""
    if player.club_id is None:
        return can_run_site(user)
    return can_manage_club(user, player.club)


def can_merge_players(user, kept, absorbed) -> bool:
    """Merge two records of one person: whoever may edit both (`can_edit_player`), since
    the absorbed record is gone afterwards."""
    return can_edit_player(user, kept) and can_edit_player(user, absorbed)


def can_see_player_page(user, player: Player) -> bool:
    """The player's public page: anyone for a player listed publicly, else only those who
    may edit the player (`can_edit_player`)."""
    return player.listed or can_edit_player(user, player)


def player_linked(listed: bool) -> bool:
    """Whether a public output links a player's name to their page: only when listed (a
    page closed to the public is not offered, whoever reads a shared page)."""
    return bool(listed)


STANDINGS, RATINGS = "standings", "ratings"


def names_by_initials(club: Club | None, *, output: str = STANDINGS) -> bool:
    """Whether a public output shows players not listed publicly by their initials
    (`formats.public_name`): a rating list (`RATINGS`) always; the standings (`STANDINGS`:
    the pages, projector, API, downloads and season tables of a club's tournaments) where
    the club chose it (`Club.initials_in_standings`), else by name, not linked. `club`:
    the tournament's (`tournament_names_by_initials`) or the club season's; None (a
    league's season) by name."""
    if output == RATINGS:
        return True
    if output != STANDINGS:
        raise ValueError(f"unknown public output {output!r}")
    return bool(club is not None and club.initials_in_standings)


def tournament_names_by_initials(tournament: Tournament) -> bool:
    """`names_by_initials` of a tournament's public standings: its club's choice, but for
    a league's match day, which belongs to the league (not to the club that hosts it) and
    shows names as the league's season does."""
    if tournament.season_id is not None and tournament.season.league_id is not None:
        return False
    return names_by_initials(tournament.club)


def can_direct_league(user, league: League | None) -> bool:
    if league is None or not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return league.directors.filter(pk=user.pk).exists()


def can_manage_season(user, season: Season) -> bool:
    """A league season: its league's directors; a club season: the club's secretaries."""
    if season.league_id is not None:
        return can_direct_league(user, season.league)
    return can_manage_club(user, season.club)


def can_manage_team(user, team: Team) -> bool:
    """A team and its roster: the secretaries of the team's club."""
    return can_manage_club(user, team.club)


def can_manage_tournament(user, tournament: Tournament) -> bool:
    season = tournament.season if tournament.season_id is not None else None
    if season is not None and season.league_id is not None:
        return can_direct_league(user, season.league)
    return can_manage_club(user, tournament.club)


def can_keep_venue(user, venue: Venue) -> bool:
    """A venue's page, its tables' links and sheets: its secretary, or whoever manages the
    match day."""
    if user.is_authenticated and venue.secretary_id == user.pk:
        return True
    return can_manage_tournament(user, venue.tournament)


def can_keep_table(user, table: Table) -> bool:
    """Enter, correct and close a table's sheet: at a venue its secretary (or whoever
    manages the tournament), else whoever manages the tournament."""
    if (
        table.venue_id is not None
        and user.is_authenticated
        and table.venue.secretary_id == user.pk
    ):
        return True
    return can_manage_tournament(user, table.series.tournament)


def managed_clubs(user):
    if not user.is_authenticated:
        return Club.objects.none()
    if user.is_superuser:
        return Club.objects.all()
    return Club.objects.filter(secretaries=user)


def visible_tournaments(user, queryset: QuerySet | None = None) -> QuerySet:
    """The tournaments of `queryset` (default: all) that `user` may see: the one rule of the
    home page, the API's list and detail, the season tables, the player page and every
    tournament page (`can_view_tournament`). `user` None: the public."""
    queryset = Tournament.objects.all() if queryset is None else queryset
    if user is None or not user.is_authenticated:
        return queryset.filter(published=True)
    if user.is_superuser:
        return queryset
    # Subqueries, not an OR across joins of three relations: no duplicate rows.
    own_club = Tournament.objects.filter(club__secretaries=user, season__league__isnull=True)
    own_league = Tournament.objects.filter(season__league__directors=user)
    own_venue = Tournament.objects.filter(venues__secretary=user)
    return queryset.filter(
        Q(published=True)
        | Q(pk__in=own_club.values("pk"))
        | Q(pk__in=own_league.values("pk"))
        | Q(pk__in=own_venue.values("pk"))
    )


def can_view_tournament(user, tournament: Tournament) -> bool:
    """Whether `user` may see `tournament`: `visible_tournaments`, for one."""
    if tournament.published:
        return True
    return visible_tournaments(user, Tournament.objects.filter(pk=tournament.pk)).exists()


def visible_seasons(user, queryset: QuerySet | None = None) -> QuerySet:
    """The seasons `user` may see: those with a match day they may see
    (`visible_tournaments`), and those they run (a club's secretaries its club's seasons, a
    league's directors its league's)."""
    queryset = Season.objects.all() if queryset is None else queryset
    seen = Q(pk__in=visible_tournaments(user).filter(season__isnull=False).values("season_id"))
    if user is None or not user.is_authenticated:
        return queryset.filter(seen)
    if user.is_superuser:
        return queryset
    run = Season.objects.filter(Q(club__secretaries=user) | Q(league__directors=user))
    return queryset.filter(seen | Q(pk__in=run.values("pk")))


def can_view_season(user, season: Season) -> bool:
    """Whether `user` may see `season`: `visible_seasons`, for one."""
    return visible_seasons(user, Season.objects.filter(pk=season.pk)).exists()


def acting_user(user):
    """The user a write records: the signed-in user, else None (anonymous, a table link)."""
    return user if user is not None and getattr(user, "is_authenticated", False) else None


def can_run_site(user) -> bool:
    """The site administrator: creates clubs and leagues and invites anyone to any role."""
    return bool(user is not None and user.is_authenticated and user.is_superuser)


def can_give_club_secretary(user, club: Club) -> bool:
    """Invite or revoke a club's secretaries: the site administrator, or a co-secretary."""
    return can_manage_club(user, club)


def can_give_league_director(user, league: League) -> bool:
    """Invite or revoke a league's directors: the site administrator only (a director who
    could appoint directors could also remove the others)."""
    return can_run_site(user)


def can_give_venue_secretary(user, venue) -> bool:
    """Invite or revoke a venue's secretary: whoever runs the venue's match day (a league
    season's: its directors; the site administrator)."""
    return can_manage_tournament(user, venue.tournament)


def venues_kept(user):
    """The venues `user` keeps as their secretary, each with its match day (and season),
    the latest match day first: the dashboard and the leagues page list them."""
    if not user.is_authenticated:
        return Venue.objects.none()
    return (
        Venue.objects.filter(secretary=user)
        .select_related("tournament__season")
        .order_by("-tournament__date", "-tournament__pk", "pk")
    )
