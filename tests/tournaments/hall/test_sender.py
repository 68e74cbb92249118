"""The sender against a stand-in public site (`helpers.FakePublicSite`): `manage.py
publish --once` and `hall.interchange.publish_step`, batch by batch: nothing lost when a
connection drops, nothing applied twice, a 409 answered by resending, refusals stop."""

import ssl
import subprocess

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connections

from tests.factories import RegistrationFactory
from tests.tournaments.hall.helpers import FakePublicSite, fill, grand
from tournaments.hall import interchange
from tournaments.hall.interchange import Refused, Unreachable, publish_loop, publish_step
from tournaments.hall.services import publication_set
from tournaments.interchange.export import export_document
from tournaments.management.commands.publish import Command
from tournaments.models import ActionLog, Publication, Tournament
from tournaments.sheets.services import game_record
from tournaments.versions import version_bump

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_waiting(monkeypatch):
    monkeypatch.setattr(interchange, "backoff", lambda failures, **kwargs: 0)


@pytest.fixture
def site():
    with FakePublicSite() as site:
        yield site


def publish(tournament, site, key="good-key"):
    call_command("publish", tournament.slug, "--to", site.url, "--key", key, "--once")


def publication(tournament) -> Publication:
    return Publication.objects.select_related("tournament").get(tournament=tournament)


def assert_copy_is_the_hall(site, tournament):
    """Every table of the hall, as its document has it, is in the copy, and the copy
    holds the hall's version."""
    hall = export_document(Tournament.objects.get(pk=tournament.pk))
    tables = {
        (series["number"], table["number"]): table
        for series in hall["series"]
        for table in series["tables"]
    }
    assert site.tables == tables
    assert site.copy == Tournament.objects.get(pk=tournament.pk).version


def assert_each_batch_applied_once(site):
    """The applied batches form one chain: each starts where the one before ended."""
    ends = [0] + [version for _base, version in site.applied]
    assert [base for base, _version in site.applied] == ends[:-1]
    assert ends == sorted(set(ends))


def test_first_publish_sends_the_document_then_sheets_only(tournament, seated_series, site):
    first, second = seated_series(8).tables.order_by("number")
    fill(first, 3)
    publish(tournament, site)
    assert "document" in site.received[0] and site.copy == publication(tournament).acked_version
    game_record(table=second, data=grand(1))
    publish(tournament, site)
    later = site.received[-1]
    assert "document" not in later
    assert [s["table"] for s in later["sheets"]] == [second.number]
    assert_copy_is_the_hall(site, tournament)
    assert_each_batch_applied_once(site)


def test_nothing_is_sent_when_the_copy_is_current(tournament, table, site):
    fill(table, 2)
    publish(tournament, site)
    sent = len(site.received)
    publish(tournament, site)
    assert len(site.received) == sent


def test_a_connection_dropped_before_the_site_applied_loses_nothing(tournament, table, site):
    fill(table, 2)
    publish(tournament, site)
    fill(table, 1, start=3)
    site.drops = ["before"]
    publish(tournament, site)
    assert_copy_is_the_hall(site, tournament)
    assert_each_batch_applied_once(site)


def test_an_answer_lost_after_the_site_applied_doubles_nothing(tournament, table, site):
    fill(table, 2)
    publish(tournament, site)
    fill(table, 1, start=3)
    site.drops = ["after"]
    publish(tournament, site)
    assert len(site.applied) == 2  # the document, then that sheet once
    assert_copy_is_the_hall(site, tournament)
    assert_each_batch_applied_once(site)
    # The lost answer's batch kept its layout: the next change still goes as sheets only.
    game_record(table=table, data=grand(4))
    publish(tournament, site)
    assert "document" not in site.received[-1]
    assert_copy_is_the_hall(site, tournament)


def test_a_drop_then_more_games_then_409_resends_from_the_copys_version(tournament, table, site):
    fill(table, 2)
    publish(tournament, site)
    fill(table, 1, start=3)
    site.drops = ["after"] * 4  # applied, but the site is unreachable after that
    with pytest.raises(CommandError):
        publish(tournament, site)
    fill(table, 1, start=4)  # the hall went on meanwhile
    publish(tournament, site)
    assert_copy_is_the_hall(site, tournament)
    # The first batch's version, answered by 409, kept its layout: sheets, no document.
    assert "document" not in site.received[-1] and len(site.received) == 7
    assert_each_batch_applied_once(site)


def test_a_document_whose_answer_was_lost_is_not_sent_again(tournament, table, roster, site):
    fill(table, 2)
    publish(tournament, site)
    RegistrationFactory(tournament=tournament, player=roster(1)[0])
    version_bump(tournament_id=tournament.pk)  # a new layout: a document goes
    site.drops = ["after"] * 4
    with pytest.raises(CommandError):
        publish(tournament, site)
    fill(table, 1, start=3)
    publish(tournament, site)
    # 409 named the lost document's version, whose layout the hall kept: sheets follow.
    assert "document" not in site.received[-1]
    assert [("document" in batch) for batch in site.received[-2:]] == [True, False]
    assert_copy_is_the_hall(site, tournament)
    assert_each_batch_applied_once(site)


def test_the_site_asking_for_the_document_gets_it(tournament, table, site):
    fill(table, 2)
    publish(tournament, site)
    site.copy, site.document, site.tables = 0, None, {}  # the copy was removed there
    fill(table, 1, start=3)
    publish(tournament, site)
    assert "document" in site.received[-1]
    assert_copy_is_the_hall(site, tournament)


def test_a_change_beyond_the_sheets_sends_the_document(tournament, table, roster, site):
    fill(table, 1)
    publish(tournament, site)
    RegistrationFactory(tournament=tournament, player=roster(1)[0])
    version_bump(tournament_id=tournament.pk)
    publish(tournament, site)
    assert "document" in site.received[-1]
    assert_copy_is_the_hall(site, tournament)


def test_a_wrong_key_stops_with_one_line(tournament, table, site, capsys, monkeypatch):
    fill(table, 1)
    # run_from_argv closes every connection when the command ends, the test's own with it
    # (on PostgreSQL the queries below then fail: "the connection is closed").
    monkeypatch.setattr(connections, "close_all", lambda: None)
    with pytest.raises(SystemExit) as exit_:
        Command().run_from_argv(
            ["manage.py", "publish", tournament.slug, "--to", site.url, "--key", "bad", "--once"]
        )
    assert exit_.value.code != 0
    error = capsys.readouterr().err.strip()
    assert "\n" not in error and "Unknown publishing key." in error and "403" in error
    assert publication(tournament).stopped and site.copy == 0


def test_an_unreachable_site_exits_non_zero_after_its_attempts(tournament, table, site):
    fill(table, 1)
    site.drops = ["before"] * 4
    with pytest.raises(CommandError, match="No connection"):
        publish(tournament, site)
    row = publication(tournament)
    assert row.acked_version == 0 and "No connection" in row.last_error and not row.stopped


def test_plain_http_to_another_host_is_refused(tournament, table):
    with pytest.raises(CommandError, match="Plain http is refused for skat.example.org"):
        call_command(
            "publish", tournament.slug, "--to", "http://skat.example.org", "--key", "k", "--once"
        )
    assert not Publication.objects.exists()


@pytest.mark.parametrize(
    ("url", "endpoint"),
    [
        ("http://localhost:8000", "http://localhost:8000/api/v1/publish"),
        ("http://127.0.0.2:8000/", "http://127.0.0.2:8000/api/v1/publish"),
        ("http://[::1]:8000/api/v1/publish", "http://[::1]:8000/api/v1/publish"),
        ("https://skat.example.org", "https://skat.example.org/api/v1/publish"),
    ],
)
def test_loopback_http_and_https_are_taken(tournament, url, endpoint):
    assert publication_set(tournament=tournament, url=url, key="k").url == endpoint


def test_a_key_given_once_is_kept_for_later_runs(tournament, table, site):
    fill(table, 1)
    publish(tournament, site)
    game_record(table=table, data=grand(2))
    call_command("publish", tournament.slug, "--to", site.url, "--once")
    assert_copy_is_the_hall(site, tournament)
    assert ActionLog.objects.filter(kind=ActionLog.Kind.PUBLISHING_STARTED).count() == 1


def test_a_server_error_is_tried_again_and_a_refusal_is_not(tournament, table):
    fill(table, 1)
    row = publication_set(tournament=tournament, url="https://skat.example.org", key="k")
    row = Publication.objects.select_related("tournament").get(pk=row.pk)
    with pytest.raises(Unreachable):
        publish_step(row, send=lambda url, key, data: (502, {}))
    assert not row.stopped and row.acked_version == 0
    with pytest.raises(Refused, match="handed over"):
        publish_step(row, send=lambda url, key, data: (403, {"detail": "handed over"}))
    assert Publication.objects.get(pk=row.pk).stopped


def test_a_copy_newer_than_the_hall_stops_publishing(tournament, table):
    fill(table, 1)
    row = publication_set(tournament=tournament, url="https://skat.example.org", key="k")
    row = Publication.objects.select_related("tournament").get(pk=row.pk)
    with pytest.raises(Refused, match="newer than this hall"):
        publish_step(row, send=lambda url, key, data: (409, {"version": 10_000}))


def test_the_loop_follows_the_hall_until_stopped(tournament, table, site):
    fill(table, 2)
    row = publication_set(tournament=tournament, url=site.url, key="good-key")
    Publication.objects.filter(pk=row.pk).update(running=True)
    row = publication(tournament)
    waits = []

    def sleep(seconds):
        waits.append(seconds)
        if len(waits) == 1:
            game_record(table=table, data=grand(3))  # the hall goes on
        elif len(waits) == 2:
            site.drops = ["before"]  # the next change meets a dropped connection
            game_record(table=table, data=grand(4))
        elif len(waits) == 4:
            Publication.objects.filter(pk=row.pk).update(running=False)  # Stop

    publish_loop(row, interval=5, sleep=sleep)
    assert waits == [5, 5, 0, 5]  # current, current, the drop's backoff, current
    assert ["document" in batch for batch in site.received] == [True, False, False]
    assert_copy_is_the_hall(site, tournament)
    assert_each_batch_applied_once(site)


def test_https_checks_the_sites_certificate(tmp_path):
    """A site whose certificate no authority signed gets no batch (nor the key)."""
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"]
        + ["-keyout", str(key), "-out", str(cert), "-subj", "/CN=localhost"]
        + ["-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
        check=True,
        capture_output=True,
    )
    site = FakePublicSite()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    site.server.socket = context.wrap_socket(site.server.socket, server_side=True)
    with site:
        url = site.url.replace("http://", "https://")
        with pytest.raises(Unreachable, match="CERTIFICATE_VERIFY_FAILED"):
            interchange.post(url, "good-key", b"{}", timeout=10)
        assert site.received == []
