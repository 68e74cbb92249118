"""The QR code as SVG comes from one function (`tournaments.qr.qr_svg`): the projector's
link to the standings, the tables' links on the director's pages and their image."""

import ast
from pathlib import Path

from django.template import Context, Template

import tournaments
from tests.tournaments.entry.helpers import manage
from tournaments.qr import qr_svg

APP = Path(tournaments.__file__).parent
URL = "https://skat.example/t/spring/standings/"


def test_the_projectors_tag_draws_the_one_svg():
    html = Template("{% load standings %}{% qr_code url 'Standings' %}").render(
        Context({"url": URL})
    )
    assert html == qr_svg(URL, scale=5, title="Standings")
    assert html.startswith("<svg") and "<title>Standings</title>" in html
    assert "xmlns=" not in html  # inline in HTML5


def test_a_tables_qr_image_is_the_one_svg_as_a_file(client_for, secretary, table):
    response = client_for(secretary).get(manage("entry_qr", table))
    url = f"http://testserver/entry/{table.entry_token}/"
    assert response.content.decode() == qr_svg(url, standalone=True)
    assert 'xmlns="http://www.w3.org/2000/svg"' in response.content.decode()


def test_no_module_but_the_qr_module_makes_a_qr_code():
    makers = []
    for path in sorted(APP.rglob("*.py")):
        if path == APP / "qr.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            if any(name.split(".")[0] == "segno" for name in names):
                makers.append(str(path.relative_to(APP)))
    assert makers == []
