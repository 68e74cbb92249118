"""The shapes of the API's answers (pydantic models, which django-ninja turns into the
OpenAPI description and validates every answer against).

Codes, not labels: `rules`, `status`, `game`, `category` are the stored values
(`tournaments.models` choices), so a club's website can translate them itself.
"""

from __future__ import annotations

import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Schema(BaseModel):
    """Plain pydantic models: the views hand them dicts, so ninja's own `Schema` (which
    reads attributes of ORM objects) would only add its cost per row (a large live feed
    or standings: several times the time)."""


class NotFoundOut(Schema):
    """404: the address names nothing the viewer may see (a draft is 404 to the public)."""

    detail: str


class ParameterErrorOut(Schema):
    """One refused parameter, as pydantic reports it: where (`loc`), why (`msg`, `type`)."""

    model_config = ConfigDict(extra="allow")

    type: str
    loc: list[str | int]
    msg: str
    ctx: dict[str, Any] | None = None


class ValidationErrorOut(Schema):
    """422: a parameter of the wrong type or out of its range; nothing was read."""

    detail: list[ParameterErrorOut]


class TournamentOut(Schema):
    slug: str
    name: str
    date: datetime.date
    club: str
    season: str | None
    rules: str
    list_scoring: bool
    status: str
    published: bool
    version: int
    url: str


class SeriesSummary(Schema):
    number: int
    status: str
    draw_method: str
    tables: int


class TournamentDetailOut(TournamentOut):
    """A tournament's settings. The Seeger-Fabian bonuses (rules §2) are null where they do
    not count: the NA rule set (rules §3.6) and ISPA with list scoring off."""

    bonus_won: int | None
    bonus_lost: int | None
    bonus_others_3: int | None
    bonus_others_4: int | None
    games_per_series_3: int
    games_per_series_4: int
    # NA tables of five (rules §3.6): their series' length, null where the draw seats none.
    five_tables: bool = False
    games_per_series_5: int | None = None
    # How a deal everyone passed scores: "league" (NA rules §3.5), "hoyle", "gewinner"
    # (an ISPA house rule) or "" (none, ISPA rules §1.6); and whether two players tied for
    # the fewest points both win (null without ramsch).
    ramsch: str = ""
    ramsch_tie_both_win: bool | None = None
    kontra_allowed: bool
    double_entry: bool
    team_best_n: int | None
    series: list[SeriesSummary]


class SeatOut(Schema):
    seat: int
    player_id: int
    player: str


class TableOut(Schema):
    number: int
    size: int
    closed: bool
    games: int
    seats: list[SeatOut]


class SeriesOut(Schema):
    number: int
    status: str
    draw_method: str
    draw_seed: int
    tables: list[TableOut]


class GameOut(Schema):
    """One row of a sheet: the declared game and the values stored when it was entered."""

    number: int
    declarer: int | None
    game: str
    trump: str
    matadors: int | None
    without: bool
    hand: bool
    schneider_announced: bool
    schwarz_announced: bool
    ouvert: bool
    won: bool | None
    schneider: bool
    schwarz: bool
    card_points: int | None
    bid: int | None
    kontra: bool
    re: bool
    ramsch: str
    value: int
    score: int
    is_won: bool
    is_lost: bool
    overbid: bool
    list_declarer: int
    list_others: int
    provisional: bool
    version: int


class SheetRowOut(Schema):
    number: int
    dealer: int
    game: GameOut | None
    running: dict[int, int]
    disputed: bool


class SeatSummaryOut(Schema):
    seat: int
    player_id: int
    player_name: str
    game_points: int
    won: int
    lost: int
    others_lost: int
    won_bonus: int
    lost_bonus: int
    others_bonus: int
    penalties: int
    list_points: int


class SheetOut(Schema):
    series: int
    table: int
    size: int
    closed: bool
    length: int
    list_scoring: bool
    provisional: bool
    seats: list[SeatOut]
    rows: list[SheetRowOut]
    summary: list[SeatSummaryOut]


class SeriesResultOut(Schema):
    number: int
    table: int
    list_points: int
    game_points: int
    won: int
    lost: int
    others_lost: int
    # Why the player's sheet was closed before its length; null for a full sheet.
    closed_short: str | None = None


class StandingOut(Schema):
    """One row of the standings; `club` and `team` are null for none, as in standings.json
    (interchange.md "Standings JSON")."""

    rank: int
    player_id: int
    player: str
    club: str | None
    team: str | None
    category: str
    list_points: int
    game_points: int
    won: int
    lost: int
    others_lost: int
    provisional: bool
    series: list[SeriesResultOut]


class TeamMemberOut(Schema):
    player_id: int
    player: str
    list_points: int


class TeamOut(Schema):
    rank: int
    team: str
    counted: int
    list_points: int
    game_points: int
    won: int
    lost: int
    members: list[TeamMemberOut]


class FeedGameOut(GameOut):
    series: int
    table: int
    disputed: bool


class SheetLengthOut(Schema):
    series: int
    table: int
    games: int


class LiveFeedOut(Schema):
    """Poll with `since` = the `version` of the last answer; games come again at most."""

    tournament: str
    since: int
    version: int
    more: bool
    games: list[FeedGameOut]
    sheets: list[SheetLengthOut]


class SeasonOut(Schema):
    slug: str
    name: str
    club: str
    teams_best_n: int | None
    url: str


class MatchDayOut(Schema):
    tournament: str
    name: str
    date: datetime.date


class SeasonPlayerOut(Schema):
    rank: int | None  # null: fewer series than the season's minimum
    player_id: int | None  # null: a closed season's archive keeps names only
    player: str
    club: str | None  # null: none, as in standings.json
    team: str | None
    category: str
    list_points: int  # of the counted series (the best `best_series`)
    won: int
    lost: int
    series_played: int | None = None
    series_counted: int | None = None
    match_days: dict[str, int]  # tournament slug → list points


class SeasonTeamDayOut(Schema):
    tournament: str
    rank: int
    list_points: int
    match_points_won: float
    match_points_lost: float


class SeasonTeamOut(Schema):
    rank: int
    team: str
    club: str | None = None
    match_points_won: float
    match_points_lost: float
    list_points: int
    match_days: list[SeasonTeamDayOut]


class SeasonDetailOut(SeasonOut):
    match_days: list[MatchDayOut]
    players: list[SeasonPlayerOut]
    teams: list[SeasonTeamOut]


class PlayerSeriesOut(Schema):
    tournament: str
    date: datetime.date
    series: int
    table: int
    seat: int
    games: int
    list_points: int
    game_points: int
    won: int
    lost: int
    # The career's figures (optional): the place at the table (null before its first game)
    # of how many players, and the list points scaled to 48 games (× 48 / games).
    place_at_table: int | None = None
    players_at_table: int | None = None
    scaled_48: float | None = None


class CareerTournamentOut(Schema):
    tournament: str
    name: str
    date: datetime.date
    club: str | None
    place: int | None  # in the final standings; null while not finished
    players: int | None
    series: int
    list_points: int


class CareerSeasonOut(Schema):
    season: str  # slug
    name: str
    team: str | None
    rank: int | None  # null: not ranked (fewer series than the season's minimum)
    players: int  # ranked players of the season's player table
    list_points: int | None
    series: str  # "14", or "10/14" where the best 10 count


class YearAverageOut(Schema):
    year: int
    series: int
    average_48: float | None


class FormPointOut(Schema):
    tournament: str
    date: datetime.date
    series: int
    scaled_48: float
    moving_average: float  # of the last `form_window` series


class TableMateOut(Schema):
    player_id: int
    name: str
    tables: int


class MeetingOut(Schema):
    tournament: str
    date: datetime.date
    series: int
    table: int
    list_points: int
    other_list_points: int
    outcome: str  # above, tied or below: the player's list points against the other's


class HeadToHeadOut(Schema):
    player_id: int
    player: str
    other_id: int
    other: str
    together: int  # tables with a game shared
    above: int  # more list points than the other at the table
    tied: int
    below: int
    meetings: list[MeetingOut]  # newest first


class GameTypeOut(Schema):
    game: str
    declared: int
    won: int
    lost: int


class PlayerOut(Schema):
    id: int
    name: str
    club: str | None
    team: str | None  # null: none, as in standings.json
    category: str
    url: str
    tournaments: int
    series_played: int
    games_played: int
    games_declared: int
    won: int
    lost: int
    list_points: int
    average_list_points: float | None
    history: list[PlayerSeriesOut]
    by_type: list[GameTypeOut]
    # The career (optional fields, as the player's page shows them).
    clubs: list[str] | None = None  # the home club first
    average_48: float | None = None  # mean of the series scaled to 48 games
    tournament_results: list[CareerTournamentOut] | None = None  # newest first
    seasons: list[CareerSeasonOut] | None = None
    years: list[YearAverageOut] | None = None  # newest first
    form_window: int | None = None
    form: list[FormPointOut] | None = None  # date order
    table_mates: list[TableMateOut] | None = None  # most frequent first


class RatingRowOut(Schema):
    """One row of a rating list: `rating` ± `uncertainty` as the pages show them (1,500 the
    start, ± two standard deviations; `ratings.method.shown`)."""

    rank: int = Field(description="Place in the list; equal ratings share a rank.")
    player_id: int
    player: str = Field(description="The name the public rating lists show.")
    club: str | None = Field(description="The player's home club.")
    category: str = Field(description="ladies, youth, seniors, or empty.")
    rating: int = Field(description="The rating as shown: 1500 at the start.")
    uncertainty: int = Field(description="± two standard deviations, in rating points.")
    series: int = Field(description="Series (closed tables) rated so far.")
    url: str | None = Field(
        description="The player's page; null for a player not listed publicly."
    )


class RatingStepOut(Schema):
    """The player's rating after one closed table."""

    date: datetime.date
    tournament: str | None = Field(
        description="The tournament's slug; null for one the viewer may not see."
    )
    series: int | None
    table: int | None
    place: int = Field(description="At the table: 1 the most list points; ties share a place.")
    rating: int
    uncertainty: int
    change: int = Field(description="The shown rating's step at this table.")


class PlayerRatingOut(Schema):
    """A player's rating: null until `shown_from` series are rated (`series` so far)."""

    player_id: int
    player: str = Field(description="The name the public rating lists show.")
    rating: int | None = Field(description="null until `shown_from` series are rated.")
    uncertainty: int | None
    series: int = Field(description="Series (closed tables) rated so far.")
    shown_from: int = Field(description="Rated series from which a rating is shown.")
    history: list[RatingStepOut] = Field(description="One step per rated table, oldest first.")
