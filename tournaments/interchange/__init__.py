"""The tournament interchange format `skat-tournament/1` (`../shared/rules/interchange.md`).

One JSON document holds a whole tournament: its settings, its players and every table sheet
of every series with every game, and (optional, `archive`) the money, the correction
history, the provisional and double-entry state and the draw. This package reads and
writes such documents and gives the machine-readable standings of the same contract:

- `common`: the format's name, field lists, limits and `InterchangeError`;
- `export`: a tournament as a document (`export_document`);
- `reader`: a document checked into a plan, nothing written (`_Checker`);
- `writer`: the plan written in one transaction (`import_document`);
- `archive`: the optional `archive` object, exported, checked and written;
- `standings_json`: "Standings JSON", from `standings.selectors` (the API serves it too).

Terms:
- a *document* is the decoded JSON object; player *ids* ("p1", "p2", ...) are local to it;
- a *place* names where a message applies: "players[3]", "series 2, table 3, game 17";
- a *plan* is a checked document held in memory (unsaved model instances), ready to write.

Import is all-or-nothing. `import_document` checks the whole document first, every game
through `games.game_build` (the one bridge to the rules engine, against in-memory tables),
collects every problem as a located message and raises `InterchangeError`; only a clean
document is written, inside one transaction. Export numbers the players in name order, so
export → import → export gives the same document.

Choices the contract leaves open (the archive, when present, records these instead):
- `penalties` is written only for a table that has some (it is optional on import too);
- an imported tournament is published: its results are finished work from elsewhere;
- a document player is an existing player of the same name and club (the k-th of several
  equal entries is the k-th such player by pk, else a new one); an existing player's team
  is left as it is;
- the club that runs the tournament is the one named on import, else the archived one,
  else the most frequent club of the document's players (the first listed among equals);
- a tournament is the same as one on the site when its slug is: the archived slug, else
  the one its name and date give. Importing it again is refused unless replacing it;
- statuses follow the sheets: a complete sheet is closed, a series of closed sheets is
  closed, the tournament is finished when every series is closed, running when it has
  games, else planned. Without an archive, series have draw seed 0 and no game history.
"""

from tournaments.interchange.common import FORMAT, InterchangeError
from tournaments.interchange.export import export_document
from tournaments.interchange.writer import import_document
from tournaments.standings.selectors import standings_json

__all__ = ["FORMAT", "InterchangeError", "export_document", "import_document", "standings_json"]
