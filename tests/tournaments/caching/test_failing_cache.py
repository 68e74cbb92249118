"""A shared cache that fails is a cache miss plus a logged warning, never a failed page.

`skatclub.cache.ForgivingRedisCache` with the site's settings (`cache_from_url`) against a
Redis that refuses (a closed port), one that accepts connections but never answers, and a
real redis-server stopped and started again. Ports 8625-8627 are this project's test range.
"""

import logging
import shutil
import socket
import subprocess
import threading
import time

import pytest
import redis
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from skatclub.settings import cache_from_url
from tests.tournaments.helpers import GRAND
from tournaments.models import Season
from tournaments.registry.services import tournament_update
from tournaments.sheets.services import game_record

REDIS_PORT = 8625
CLOSED_PORT = 8626
HANGING_PORT = 8627


def forgiving(port: int, database: int, **options) -> dict:
    """CACHES for the site's Redis configuration at that port; `database` keeps each
    test's outage state apart (it is per process and per address)."""
    default = cache_from_url(f"redis://127.0.0.1:{port}/{database}")
    default["OPTIONS"].update(options)
    return {"default": default}


class HangingServer:
    """Accepts connections and never answers; counts them."""

    def __init__(self, port: int):
        self.listener = socket.create_server(("127.0.0.1", port), reuse_port=False)
        self.listener.settimeout(0.1)
        self.accepted: list[socket.socket] = []
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while not self.stopped.is_set():
            try:
                connection, _ = self.listener.accept()
            except TimeoutError:
                continue
            self.accepted.append(connection)

    def close(self):
        self.stopped.set()
        self.thread.join()
        for connection in self.accepted:
            connection.close()
        self.listener.close()


@pytest.fixture
def hanging():
    server = HangingServer(HANGING_PORT)
    yield server
    server.close()


@pytest.fixture
def public_urls(club, table):
    """One address of every kind of public answer, pages and JSON, of one tournament."""
    tournament = table.series.tournament
    season = Season.objects.create(club=club, name="Liga", slug="liga")
    tournament_update(tournament=tournament, season=season)
    game_record(table=table, data=GRAND)
    player = table.seats.get(number=1).player
    slug = {"tournament": tournament.slug}
    return [
        reverse("home"),
        reverse("tournament_detail", kwargs=slug),
        reverse("team_standings", kwargs=slug),
        reverse("series_detail", kwargs={**slug, "series": 1}),
        reverse("tournament_projector", kwargs=slug),
        reverse("player_detail", kwargs={"pk": player.pk}),
        reverse("season_detail", kwargs={"season": season.slug}),
        reverse("tournament_standings_json", kwargs=slug),
        f"/api/v1/tournaments/{tournament.slug}/standings",
        f"/api/v1/tournaments/{tournament.slug}",
        f"/api/v1/seasons/{season.slug}",
        f"/api/v1/players/{player.pk}",
    ]


def cache_warnings(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "skatclub.cache"]


@pytest.mark.parametrize(("port", "database"), [(CLOSED_PORT, 1), (HANGING_PORT, 2)])
def test_every_public_answer_is_served_while_the_cache_fails(
    port, database, request, settings, caplog, public_urls
):
    if port == HANGING_PORT:
        request.getfixturevalue("hanging")
    settings.PAGE_CACHE = True
    settings.CACHES = forgiving(port, database)
    with caplog.at_level(logging.WARNING, logger="skatclub.cache"):
        answers = {url: Client().get(url) for url in public_urls}
        again = {url: Client().get(url) for url in public_urls}
    assert {url: a.status_code for url, a in answers.items()} == dict.fromkeys(public_urls, 200)
    assert {url: a.status_code for url, a in again.items()} == dict.fromkeys(public_urls, 200)
    assert not [url for url, a in again.items() if a.get("X-Page-Cache") == "hit"]
    warnings = cache_warnings(caplog)
    assert len(warnings) == 1  # not one per request: the cache is skipped for a while
    assert "The shared cache failed" in warnings[0]
    expected = "ConnectionError" if port == CLOSED_PORT else "TimeoutError"
    assert expected in warnings[0]


def test_a_cache_that_stays_down_is_not_asked_again_for_a_while(settings, caplog, hanging):
    settings.CACHES = forgiving(HANGING_PORT, 3, RETRY_AFTER=60)
    with caplog.at_level(logging.WARNING, logger="skatclub.cache"):
        for number in range(50):
            assert cache.get(f"key{number}", "missing") == "missing"
            assert cache.add(f"key{number}", 1) is False
            cache.set(f"key{number}", 1)
    assert len(hanging.accepted) == 1  # one connection tried, then 60 s without
    assert len(cache_warnings(caplog)) == 1


def test_the_cache_answers_as_an_empty_one_on_errors(settings):
    settings.CACHES = forgiving(CLOSED_PORT, 4, RETRY_AFTER=0)
    assert cache.get("a") is None and cache.get("a", 7) == 7
    assert cache.get_many(["a", "b"]) == {}
    assert cache.set_many({"a": 1, "b": 2}) == ["a", "b"]
    assert cache.has_key("a") is False and cache.touch("a") is False
    assert cache.get_or_set("a", 5) == 5
    with pytest.raises(ValueError):
        cache.incr("a")
    with pytest.raises(redis.ConnectionError):
        cache.check()  # /health/ asks past the forgiveness


@pytest.fixture
def redis_server():
    """A redis-server of its own on REDIS_PORT, `start()`ed and `stop()`ped by the test."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    processes: list[subprocess.Popen] = []

    def start():
        process = subprocess.Popen(
            ["redis-server", "--port", str(REDIS_PORT), "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
        )
        processes.append(process)
        client = redis.Redis(port=REDIS_PORT, socket_connect_timeout=0.2)
        for _attempt in range(100):
            try:
                client.ping()
                return
            except redis.ConnectionError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop():
        processes[-1].terminate()
        processes[-1].wait(timeout=10)

    yield start, stop
    for process in processes:
        if process.poll() is None:
            process.terminate()
            process.wait(timeout=10)


def test_a_redis_outage_serves_pages_uncached_then_cached_again(
    settings, caplog, public_urls, redis_server
):
    start, stop = redis_server
    settings.PAGE_CACHE = True
    # Asked again at once after a failure, so that the restart is seen by the next request.
    settings.CACHES = forgiving(REDIS_PORT, 0, RETRY_AFTER=0, WARN_EVERY=0)
    start()

    shared = public_urls[1:]  # the home page is rendered for every visitor

    def cached() -> list[str | None]:
        return [Client().get(url).get("X-Page-Cache") for url in shared]

    def statuses() -> set[int]:
        return {Client().get(url).status_code for url in public_urls}

    assert cached() == ["miss"] * len(shared)
    assert cached() == ["hit"] * len(shared)
    with caplog.at_level(logging.WARNING, logger="skatclub.cache"):
        stop()
        assert statuses() == {200}
        assert cached() == ["miss"] * len(shared)  # computed again every time
        assert cached() == ["miss"] * len(shared)
        start()  # empty: --save ''
        assert cached() == ["miss"] * len(shared)
        assert cached() == ["hit"] * len(shared)
    warnings = cache_warnings(caplog)
    assert any("The shared cache failed (ConnectionError" in w for w in warnings)
    assert warnings[-1] == "The shared cache answers again."
