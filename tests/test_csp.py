"""The Content-Security-Policy (django-csp, settings.CONTENT_SECURITY_POLICY): every kind of
page carries the same policy, and no template has what it forbids (inline script, style
attributes, inline event handlers). tests/browser/test_content_security_policy.py checks
the pages in a browser.
"""

import re

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse

POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "object-src": "'none'",
    "base-uri": "'self'",
    "frame-ancestors": "'none'",
    "form-action": "'self'",
}


def directives(header: str) -> dict[str, str]:
    """The policy's directives by name (django-csp writes them in no fixed order)."""
    parts = (part.strip().split(" ", 1) for part in header.split(";"))
    return dict(parts)


@pytest.fixture
def drawn(tournament, seated_series):
    seated_series(3)
    return tournament.series.get(number=1).tables.get()


def pages(tournament, table) -> list[tuple[str, str, bool]]:
    """(kind, address, signed in) of one page of each kind."""
    slug = tournament.slug
    sheet = {"tournament": slug, "series": 1, "table": table.number}
    return [
        ("public", reverse("home"), False),
        ("public", reverse("tournament_detail", kwargs={"tournament": slug}), False),
        ("projector", reverse("tournament_projector", kwargs={"tournament": slug}), False),
        ("phone entry", reverse("entry", kwargs={"token": table.entry_token}), False),
        ("sign-in", reverse("login"), False),
        ("manage", reverse("manage:tournament", kwargs={"tournament": slug}), True),
        ("sheet entry", reverse("manage:sheet", kwargs=sheet), True),
        ("API page", reverse("api_docs"), False),
        ("API interactive page", reverse("api-v1:openapi-view"), False),
        ("API", reverse("api-v1:openapi-json"), False),
        ("admin", reverse("admin:login"), False),
        ("admin", reverse("admin:index"), True),
        ("not found", "/no-such-page/", False),
    ]


def test_every_kind_of_page_has_the_policy(drawn, tournament, secretary, client_for):
    secretary.is_staff = secretary.is_superuser = True
    secretary.save()
    for kind, address, signed_in in pages(tournament, drawn):
        response = client_for(secretary if signed_in else None).get(address)
        assert response.status_code in (200, 404), (kind, address, response.status_code)
        assert directives(response["Content-Security-Policy"]) == POLICY, (kind, address)


def test_the_lock_out_page_has_the_policy(client, player, settings):
    settings.AXES_FAILURE_LIMIT = 1
    response = client.post(reverse("login"), {"username": "player", "password": "wrong"})
    assert response.status_code == 429
    assert directives(response["Content-Security-Policy"]) == POLICY


# What the policy forbids in a template: inline <script> (one without src), a style=""
# attribute or a <style> element, an on...="" handler, a javascript: address.
FORBIDDEN = [
    (r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>", "inline script"),
    (r"\sstyle=", "style attribute"),
    (r"<style", "style element"),
    (r"\son[a-z]+=", "event handler attribute"),
    (r"javascript:", "javascript: address"),
]


def test_no_template_has_what_the_policy_forbids():
    templates = [
        *(settings.BASE_DIR / "templates").rglob("*.html"),
        *(settings.BASE_DIR / "tournaments").rglob("*.html"),
    ]
    assert len(templates) > 20
    found = [
        f"{path.relative_to(settings.BASE_DIR)}: {what}"
        for path in templates
        for pattern, what in FORBIDDEN
        if re.search(pattern, path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_the_error_page_takes_its_style_from_a_file():
    # The 500 page stands alone (no base.html), so its look comes from a file of its own.
    page = render_to_string("500.html")
    assert 'rel="stylesheet" href="/static/css/error.css"' in page
    assert (settings.BASE_DIR / "static/css/error.css").exists()
