"""URL path prefixes shared by the subjects' `urls` modules: a tournament (`T`), one of its
series (`S`) and one table of that series (`TB`)."""

T = "t/<slug:tournament>/"
S = T + "series/<int:series>/"
TB = S + "table/<int:table>/"
