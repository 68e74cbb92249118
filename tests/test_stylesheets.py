"""The stylesheets: what the browser tests rely on without looking at each width."""

import re

from django.conf import settings

# What may differ between a phone's contrast and a desktop's: a colour set for one width only.
COLOUR = re.compile(
    r"(?:^|[;{\s])(color|background(?:-color)?|border(?:-[a-z]+)*-color|opacity|filter|--[\w-]+)\s*:"
)


def media_blocks(css: str):
    """(condition, body) of every @media block of a stylesheet."""
    for match in re.finditer(r"@media([^{]*)\{", css):
        depth, start = 1, match.end()
        end = start
        while depth and end < len(css):
            depth += {"{": 1, "}": -1}.get(css[end], 0)
            end += 1
        yield match.group(1).strip(), css[start : end - 1]


def test_the_stylesheets_change_no_colour_by_width():
    """The phone sweep leaves colour contrast to the desktop's: that holds while no
    stylesheet sets a colour inside a width's @media block (print is no screen)."""
    found = []
    for path in sorted((settings.BASE_DIR / "static" / "css").glob("*.css")):
        css = re.sub(r"/\*.*?\*/", "", path.read_text(encoding="utf-8"), flags=re.S)
        for condition, body in media_blocks(css):
            if condition.startswith("print"):
                continue
            found += [
                f"{path.name} @media {condition}: {m.group(1)}" for m in COLOUR.finditer(body)
            ]
    assert not found, (
        "a colour set by width: check colour contrast at phone width too\n" + "\n".join(found)
    )
