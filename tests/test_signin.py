"""Sign-in throttling (skatclub/signin.py, the AXES_* settings): after the limit of failures
for one user name or from one address, sign-in is refused with the site's own 429 page,
the right password included, on the site's login and the admin's, until the cool-off ends.

Time passes by moving the recorded attempts back, not by sleeping.
"""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt, AccessLog
from django.conf import settings
from django.db.models import F
from django.test import Client
from django.urls import reverse
from django.utils import translation

from skatclub.signin import client_address
from tests.factories import UserFactory
from tests.test_settings import fresh_python

PASSWORD = "skat-password-1"


@pytest.fixture
def member(db):
    return UserFactory(username="member")


def sign_in(client, username, password, *, url=None, **headers):
    return client.post(
        url or reverse("login"), {"username": username, "password": password}, **headers
    )


def signed_in(response) -> bool:
    return response.status_code == 302 and "_auth_user_id" in response.client.session


def fail(client, count, *, username="member", url=None, **headers):
    """`count` wrong passwords: the form answers each again, but the one that reaches the
    limit is answered with the lock-out."""
    for n in range(count):
        name = username(n) if callable(username) else username
        response = sign_in(client, name, "wrong-password", url=url, **headers)
        expected = 429 if n + 1 == settings.AXES_FAILURE_LIMIT else 200
        assert response.status_code == expected, f"attempt {n + 1}"


def pass_time(minutes):
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=minutes))


def test_the_limits_are_the_documented_defaults():
    assert (settings.AXES_FAILURE_LIMIT, settings.LOGIN_COOLOFF_MINUTES) == (10, 15)


READ_THROTTLING = (
    "from django.conf import settings as s; "
    "print(s.AXES_FAILURE_LIMIT, s.AXES_COOLOFF_TIME, s.TRUST_X_FORWARDED_FOR)"
)


# (environment, what the settings read)
@pytest.mark.parametrize(
    ("env", "read"),
    [
        ({}, "10 0:15:00 False"),
        ({"DJANGO_LOGIN_FAILURE_LIMIT": "5", "DJANGO_LOGIN_COOLOFF_MINUTES": "60"}, "5 1:00:00"),
        # Behind the proxy of the README, its X-Forwarded-For is trusted too ...
        ({"DJANGO_SECURE_PROXY_SSL_HEADER": "1"}, "10 0:15:00 True"),
        # ... unless the club says otherwise.
        ({"DJANGO_SECURE_PROXY_SSL_HEADER": "1", "DJANGO_TRUST_X_FORWARDED_FOR": "0"}, "False"),
    ],
)
def test_the_throttling_settings_come_from_the_environment(env, read):
    done = fresh_python(
        READ_THROTTLING,
        without={
            "DJANGO_LOGIN_FAILURE_LIMIT",
            "DJANGO_LOGIN_COOLOFF_MINUTES",
            "DJANGO_SECURE_PROXY_SSL_HEADER",
            "DJANGO_TRUST_X_FORWARDED_FOR",
        },
        **env,
        DJANGO_DEBUG="1",
        DJANGO_SETTINGS_MODULE="skatclub.settings",
    )
    assert read in done.stdout, done.stderr


def test_a_limit_below_one_stops_with_a_clear_message():
    done = fresh_python(
        READ_THROTTLING,
        without=set(),
        DJANGO_LOGIN_FAILURE_LIMIT="0",
        DJANGO_DEBUG="1",
        DJANGO_SETTINGS_MODULE="skatclub.settings",
    )
    assert done.returncode == 1
    assert "DJANGO_LOGIN_FAILURE_LIMIT and DJANGO_LOGIN_COOLOFF_MINUTES must be" in done.stderr


def test_nine_failures_then_the_right_password_signs_in(member):
    client = Client()
    fail(client, 9)
    assert signed_in(sign_in(client, "member", PASSWORD))


def test_ten_failures_for_one_user_name_refuse_the_right_password(member):
    client = Client()
    fail(client, 10)
    response = sign_in(client, "member", PASSWORD)
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session
    assert "registration/locked_out.html" in [t.name for t in response.templates]
    text = response.content.decode()
    assert "Sign-in refused for now" in text and "even with the right password" in text
    assert "in 15 minutes" in text
    assert response["Retry-After"] == "900"


def test_ten_failures_for_one_user_name_from_many_addresses_refuse_it(member):
    answers = [
        sign_in(Client(REMOTE_ADDR=f"10.0.0.{n + 1}"), "member", "wrong-password").status_code
        for n in range(10)
    ]
    assert answers == [200] * 9 + [429]
    response = sign_in(Client(REMOTE_ADDR="10.0.1.1"), "member", PASSWORD)
    assert response.status_code == 429


def test_ten_failures_from_one_address_refuse_another_users_right_password(member):
    client = Client()
    fail(client, 10, username=lambda n: f"guess{n}")
    response = sign_in(client, "member", PASSWORD)
    assert response.status_code == 429
    # The user themself, elsewhere, is not locked out by someone else's guessing.
    assert signed_in(sign_in(Client(REMOTE_ADDR="10.0.1.1"), "member", PASSWORD))


def test_the_refusal_is_in_german_too(member):
    client = Client()
    with translation.override("de"):
        url = reverse("login")
    fail(client, 10, url=url)
    response = sign_in(client, "member", PASSWORD, url=url)
    assert response.status_code == 429
    assert "Anmeldung vorerst abgelehnt" in response.content.decode()


def test_after_the_cool_off_the_right_password_signs_in_and_clears_the_failures(member):
    client = Client()
    fail(client, 10)
    assert sign_in(client, "member", PASSWORD).status_code == 429
    pass_time(14)
    assert sign_in(client, "member", PASSWORD).status_code == 429  # it started again
    pass_time(16)
    assert signed_in(sign_in(client, "member", PASSWORD))
    assert not AccessAttempt.objects.filter(username="member").exists()
    # Successful sign-ins leave no record of their address.
    assert not AccessLog.objects.exists()


def test_the_admin_login_is_throttled_alike(db):
    UserFactory(username="boss", is_staff=True, is_superuser=True)
    client = Client()
    url = reverse("admin:login")
    fail(client, 10, username="boss", url=url)
    response = sign_in(client, "boss", PASSWORD, url=url)
    assert response.status_code == 429
    assert "Sign-in refused for now" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_failures_on_the_site_count_for_the_admin_login(db):
    UserFactory(username="boss", is_staff=True, is_superuser=True)
    client = Client()
    fail(client, 10, username="boss")
    assert sign_in(client, "boss", PASSWORD, url=reverse("admin:login")).status_code == 429


def test_x_forwarded_for_is_ignored_unless_trusted(member, settings):
    settings.TRUST_X_FORWARDED_FOR = False
    # A client reaching the server directly cannot spread its guesses over made-up addresses.
    for n in range(10):
        header = {"HTTP_X_FORWARDED_FOR": f"192.0.2.{n + 1}"}
        sign_in(Client(), f"guess{n}", "wrong-password", **header)
    response = sign_in(Client(), "member", PASSWORD, HTTP_X_FORWARDED_FOR="192.0.2.99")
    assert response.status_code == 429
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"127.0.0.1"}


def test_behind_the_proxy_the_address_it_wrote_counts(member, settings):
    settings.TRUST_X_FORWARDED_FOR = True
    # The proxy's own connection is the same for everyone; the client's address is the last
    # entry of X-Forwarded-For (anything before it is the client's own claim).
    for n in range(10):
        header = {"HTTP_X_FORWARDED_FOR": f"198.51.100.7, 203.0.113.{n + 1}"}
        sign_in(Client(), f"guess{n}", "wrong-password", **header)
    response = sign_in(Client(), "member", PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.50")
    assert signed_in(response)
    addresses = set(AccessAttempt.objects.values_list("ip_address", flat=True))
    assert addresses == {f"203.0.113.{n + 1}" for n in range(10)}
    fail(Client(), 10, username=lambda n: f"other{n}", HTTP_X_FORWARDED_FOR="203.0.113.60")
    response = sign_in(Client(), "member", PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.60")
    assert response.status_code == 429


# (trusted, X-Forwarded-For, the address that counts); the connection's own is 127.0.0.1.
@pytest.mark.parametrize(
    ("trusted", "forwarded", "address"),
    [
        (False, "203.0.113.5", "127.0.0.1"),
        (True, "203.0.113.5", "203.0.113.5"),
        # nginx's $proxy_add_x_forwarded_for appends: the last entry is the proxy's.
        (True, "198.51.100.7, 203.0.113.5", "203.0.113.5"),
        (True, "2001:db8::1", "2001:db8::1"),
        # No header (a request that did not come through the proxy): the connection's.
        (True, None, "127.0.0.1"),
        (True, " , ", "127.0.0.1"),
    ],
)
def test_the_address_a_sign_in_counts_against(settings, rf, trusted, forwarded, address):
    settings.TRUST_X_FORWARDED_FOR = trusted
    headers = {} if forwarded is None else {"HTTP_X_FORWARDED_FOR": forwarded}
    assert client_address(rf.post("/login/", **headers)) == address
