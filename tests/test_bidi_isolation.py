"""User text is isolated wherever a page shows it (issue 27, defect 13): a name holding a
RIGHT-TO-LEFT OVERRIDE (U+202E) reorders nothing after it.

The demo data (every kind of page: a finished, a running and a North American tournament,
a club season, a league with venues, money) with every user-entered name (clubs, players,
their teams, tournaments, seasons, leagues, teams, venues, users) holding an RLO. Each page
of the accessibility sweep's lists, and the league's pages, is read signed in as the demo
secretary (the director for the league's desk): every text holding the RLO sits in an
isolating element, a <bdi> or an element with dir="auto" (in HTML's rendering both isolate
their content); where no element can be (the page's <title>, an <option>), between the
plain-text isolates FSI and PDI (U+2068, U+2069). Attribute values are not reordered in the
text flow and are left as they are (a form posts back what it shows)."""

from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.db.models import F, Value
from django.db.models.functions import Concat

from tests.pages import en, manage_pages, public_pages
from tournaments import demo
from tournaments.entry.services import table_links_issue
from tournaments.models import Club, League, Player, Rating, Season, Table, Team, Tournament, Venue

pytestmark = pytest.mark.django_db

RLO, FSI, PDI = "\u202e", "\u2068", "\u2069"
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}
VOID |= {"track", "wbr"}
PLAIN = {"title", "option", "textarea"}  # text only: no element can isolate within


class Unisolated(HTMLParser):
    """The texts holding an RLO outside any isolating element, each with its elements."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        attrs = dict(attrs)
        isolating = tag == "bdi" or (attrs.get("dir") or "").lower() == "auto"
        self.stack.append((tag, isolating))

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index][0] == tag:
                del self.stack[index:]
                return

    def handle_data(self, data):
        if RLO not in data:
            return
        tags = [tag for tag, _isolating in self.stack]
        if tags and tags[-1] == "script":
            return
        if any(isolating for _tag, isolating in self.stack):
            return
        if tags and tags[-1] in PLAIN and _isolated_plain(data):
            return
        self.found.append(f"{'>'.join(tags[-4:])}: {data.strip()[:60]!r}")


def _isolated_plain(text: str) -> bool:
    """Each RLO between an FSI and its PDI."""
    depth = 0
    for ch in text:
        if ch == FSI:
            depth += 1
        elif ch == PDI:
            depth = max(depth - 1, 0)
        elif ch == RLO and depth == 0:
            return False
    return True


def unisolated(html: str) -> list[str]:
    parser = Unisolated()
    parser.feed(html)
    parser.close()
    return parser.found


@pytest.fixture
def site(db):
    made = demo.demo_create()
    running = made["running"]
    series = running.series.get(number=1)
    table_links_issue(series=series)
    made["table"] = (
        Table.objects.filter(series=series, closed=False, games__isnull=False)
        .order_by("number")
        .first()
    )
    # Rated players, so that the rating lists show names and clubs (10 series: listed);
    # the demo's closed tables have rated some of them already.
    for index, player in enumerate(Player.objects.order_by("pk")[:6]):
        Rating.objects.update_or_create(
            player=player, defaults={"mu": 25.0 + index, "sigma": 2.0, "series": 10}
        )
    # Every name a user enters, with the override in its middle.
    for model in (Club, Player, Tournament, Season, League, Team, Venue):
        model.objects.update(name=Concat(F("name"), Value(f" {RLO}x")))
    Player.objects.exclude(team="").update(team=Concat(F("team"), Value(f" {RLO}x")))
    get_user_model().objects.update(username=Concat(F("username"), Value(f"{RLO}x")))
    for name in ("club", "user", "finished", "running", "tournee", "season"):
        made[name].refresh_from_db()
    return made


def league_pages(site) -> list[str]:
    league = site["league"]
    day = league["match_days"][0]
    team = next(iter(league["teams"].values())) if isinstance(league["teams"], dict) else None
    team = team or league["teams"][0]
    pages = [
        en("league_season", season=league["season"].slug),
        en("match_day", tournament=day.slug),
        en("tournament_detail", tournament=day.slug),
        en("manage:leagues"),
        en("manage:league_season", season=league["season"].slug),
        en("manage:team", team=team.pk),
        en("manage:venue", tournament=day.slug, venue=day.venues.order_by("pk").first().pk),
        en("manage:tournament_log", tournament=site["running"].slug),
        en("manage:club_people", club=site["club"].pk),
        en("tournament_projector", tournament=site["running"].slug),
        en("season_detail", season=site["season"].slug),
        en("league_ratings", league=league["season"].league.slug),
    ]
    return pages


def test_every_page_isolates_user_text(client, site):
    user = site["user"]
    user.is_superuser = True  # the site's pages too, and every league desk
    user.save()
    client.force_login(user)
    paths = public_pages(site) + manage_pages(site) + league_pages(site)
    paths += [en("manage:site_people"), en("manage:site_clubs"), en("manage:site_leagues")]
    paths.append(f"/entry/{site['table'].entry_token}/")
    found = {}
    for path in paths:
        response = client.get(path, follow=True)
        assert response.status_code == 200, path
        lines = unisolated(response.content.decode())
        if lines:
            found[path] = lines
    assert not found, "\n".join(f"{path}: {line}" for path, ls in found.items() for line in ls)


def test_the_check_sees_an_override_outside_an_isolate():
    assert unisolated(f"<p>Anna {RLO}x (Altenburg)</p>")
    assert not unisolated(f"<p><bdi>Anna {RLO}x</bdi> (Altenburg)</p>")
    assert not unisolated(f'<p><span dir="auto">Anna {RLO}x</span></p>')
    assert unisolated(f"<title>Anna {RLO}x · Skat</title>")
    assert not unisolated(f"<title>{FSI}Anna {RLO}x{PDI} · Skat</title>")
