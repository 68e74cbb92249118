"""Test data and page readers that the tests of several subjects share.

- `GRAND`: a won grand with 2 (declarer seat 2, 78 card points, bid 20), worth 72;
- `USERS`: the cast of tests/conftest.py, from nobody signed in to the club's secretary;
- `form_posting`, `FormFields`: what the forms of a rendered page post.
"""

from html.parser import HTMLParser

GRAND = {"declarer": 2, "game": "grand", "matadors": 2, "card_points": 78, "bid": 20}
USERS = ["anonymous", "player", "other_club_secretary", "secretary"]


class FormFields(HTMLParser):
    """The fields each <form> of a page posts: {form index: [(name, value), ...]}."""

    def __init__(self):
        super().__init__()
        self.forms: list[dict] = []
        self._select = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.forms.append({"fields": [], "buttons": []})
        elif not self.forms:
            return
        elif tag == "input" and attrs.get("name"):
            if attrs.get("type") in ("checkbox", "radio") and "checked" not in attrs:
                return
            self.forms[-1]["fields"].append((attrs["name"], attrs.get("value", "")))
        elif tag == "button" and attrs.get("name"):
            self.forms[-1]["buttons"].append((attrs["name"], attrs.get("value", "")))
        elif tag == "select":
            self._select = attrs["name"]
        elif tag == "option" and self._select and "selected" in attrs:
            self.forms[-1]["fields"].append((self._select, attrs.get("value", "")))

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None


def form_posting(html: str, button: tuple[str, str]) -> dict[str, str]:
    """What the page's form with that submit button posts when the button is pressed."""
    parser = FormFields()
    parser.feed(html)
    for form in parser.forms:
        if button in form["buttons"]:
            return dict([*form["fields"], button])
    raise AssertionError(f"no form with the button {button}")
