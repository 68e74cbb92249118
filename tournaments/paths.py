"""URL path prefixes shared by the subjects' `urls` modules: a tournament (`T`), one of its
series (`S`), one table of that series (`TB`) and a season (`SEASON`)."""

T = "t/<slug:tournament>/"
S = T + "series/<int:series>/"
TB = S + "table/<int:table>/"
SEASON = "seasons/<slug:season>/"
