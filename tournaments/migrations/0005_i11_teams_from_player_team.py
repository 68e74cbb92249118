"""Today's free-text teams become team entities of each season (a roster per season).

For every season, the players registered in (or seated at) its tournaments who have a
`Player.team` are put on the roster of a team of that name in that season; the team belongs
to the club most of its members play for (the season's club when they have none). The text
field stays on the player, so tournaments outside any season keep their teams as before.
"""

from collections import Counter, defaultdict

from django.db import migrations


def teams_from_player_team(apps, schema_editor):
    Season = apps.get_model("tournaments", "Season")
    Player = apps.get_model("tournaments", "Player")
    Team = apps.get_model("tournaments", "Team")
    RosterEntry = apps.get_model("tournaments", "RosterEntry")
    for season in Season.objects.order_by("pk"):
        players = (
            Player.objects.filter(registrations__tournament__season=season)
            .exclude(team="")
            .distinct()
            .order_by("name", "pk")
        )
        members = defaultdict(list)
        for player in players:
            members[player.team].append(player)
        for name, roster in sorted(members.items()):
            clubs = Counter(p.club_id for p in roster if p.club_id is not None)
            club_id = clubs.most_common(1)[0][0] if clubs else season.club_id
            if club_id is None:
                continue
            team = Team.objects.create(season=season, club_id=club_id, name=name)
            RosterEntry.objects.bulk_create(
                RosterEntry(team=team, season=season, player=p) for p in roster
            )


def teams_back_to_text(apps, schema_editor):
    # The text field was never changed: dropping the entities is the whole way back.
    apps.get_model("tournaments", "Team").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0004_i11_leagues")]

    operations = [migrations.RunPython(teams_from_player_team, teams_back_to_text)]
