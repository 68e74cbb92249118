"""The files of deploy/ as a club's server uses them.

- nginx: Debian's nginx started from a folder of the test's own (`nginx -p DIR -c CONF`,
  never the system's service), configured from the real deploy/nginx/skatclub.conf with
  only its values marked SITE: replaced (server name, ports, certificate, static and
  challenge folders), with a self-signed certificate made here by the openssl command; it
  also passes `nginx -t` inside Debian's own nginx.conf. In front of the site
  started as `make serve` starts it: HTTPS, the redirect from HTTP, HSTS, static files, and
  the site seeing the request as secure; in front of a small echo server: the headers the
  site is told (X-Forwarded-For, X-Request-Start) and the upload limit.
- systemd: the units pass `systemd-analyze verify`, where it is installed.
- deploy/backup.sh: a dated backup, the rotation, and a loud failure that removes nothing;
  deploy/manage.sh: a command with the settings of the env file.

`make test` installs nginx and openssl (`make proxy-deps`); where they are missing the
nginx tests skip with the reason, except in CI, where that is a failure. They use the ports
8660-8665: each nginx runs for one test only, so that one pytest-xdist worker has the
ports whatever the grouping.
"""

import gzip
import http.client
import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import threading
import time
from datetime import date, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tournaments.registry.player_import import MAX_BYTES as PLAYER_LIST_MAX_BYTES

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
NGINX_SITE = DEPLOY / "nginx" / "skatclub.conf"
HOST = "localhost"
SITE_PORT, HTTP_PORT, HTTPS_PORT = 8660, 8661, 8662
ECHO_PORT, ECHO_HTTP_PORT, ECHO_HTTPS_PORT = 8663, 8664, 8665
SECRET = "deploy-test-secret-key-not-for-any-real-site-0123456789-abcdefghij"


def missing(what: str):
    message = f"{what} (make test installs it: make proxy-deps)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def nginx_binary() -> str:
    found = shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else ""
    )
    if not found:
        missing("Debian's nginx is not installed")
    if not shutil.which("openssl"):
        missing("the openssl command is not installed")
    return found


def wait_for_port(port: int, process: subprocess.Popen, log: Path, seconds: float):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"{process.args[0]} stopped:\n{log.read_text()[-3000:]}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    pytest.fail(f"nothing listens on {port} after {seconds} s:\n{log.read_text()[-3000:]}")


def stop(process: subprocess.Popen):
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


# -- nginx ------------------------------------------------------------------------------


def site_config(*, upstream: int, http: int, https: int, folder: Path) -> str:
    """deploy/nginx/skatclub.conf with its SITE: values replaced, nothing else."""
    text = NGINX_SITE.read_text()
    replace = {
        "/etc/letsencrypt/live/skat.example.org/fullchain.pem": str(folder / "cert.pem"),
        "/etc/letsencrypt/live/skat.example.org/privkey.pem": str(folder / "key.pem"),
        "server_name skat.example.org;": f"server_name {HOST};",
        "/srv/skatclub/staticfiles/": f"{ROOT / 'staticfiles'}/",
        "proxy_pass http://127.0.0.1:8000;": f"proxy_pass http://127.0.0.1:{upstream};",
        "listen 80;": f"listen {http};",
        "listen [::]:80;": f"listen [::]:{http};",
        "listen 443 ssl http2;": f"listen {https} ssl http2;",
        "listen [::]:443 ssl http2;": f"listen [::]:{https} ssl http2;",
        "root /var/www/html;  # SITE: certbot's --webroot folder": f"root {folder / 'acme'};",
    }
    for old, new in replace.items():
        # The file changed under the test: fail rather than test something else.
        assert old in text, f"{old!r} is no longer in {NGINX_SITE}"
        text = text.replace(old, new)
    return text


def self_signed_certificate(folder: Path):
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
            "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2", "-subj", f"/CN={HOST}",
            "-addext", f"subjectAltName=DNS:{HOST}",
            "-keyout", str(folder / "key.pem"), "-out", str(folder / "cert.pem"),
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip


def start_nginx(folder: Path, *, upstream: int, http: int, https: int) -> subprocess.Popen:
    binary = nginx_binary()
    folder.mkdir()
    self_signed_certificate(folder)
    (folder / "skatclub.conf").write_text(
        site_config(upstream=upstream, http=http, https=https, folder=folder)
    )
    # Run as root (CI), nginx would hand its workers to `nobody`, who cannot enter the
    # test's folders; as any other user the directive is not given.
    user = "user root root;" if os.geteuid() == 0 else ""
    (folder / "nginx.conf").write_text(
        f"""
        {user}
        worker_processes 1;
        pid {folder}/nginx.pid;
        error_log {folder}/error.log warn;
        events {{ worker_connections 64; }}
        http {{
            include /etc/nginx/mime.types;
            default_type application/octet-stream;
            access_log off;
            client_body_temp_path {folder}/body;
            proxy_temp_path {folder}/proxy;
            fastcgi_temp_path {folder}/fastcgi;
            uwsgi_temp_path {folder}/uwsgi;
            scgi_temp_path {folder}/scgi;
            include {folder}/skatclub.conf;
        }}
        """
    )
    log = folder / "error.log"
    log.touch()
    with log.open("a") as errors:
        process = subprocess.Popen(
            [binary, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-e", str(log)]
            + ["-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=errors,
            start_new_session=True,
        )
    wait_for_port(https, process, log, seconds=10)
    return process


def test_the_site_fits_debians_own_nginx_conf(tmp_path):
    """`nginx -t` with Debian's /etc/nginx/nginx.conf (its http-wide TLS, gzip and log
    settings) and the site as sites-enabled/ would hold it; logs and pid moved here."""
    binary = nginx_binary()
    debian = Path("/etc/nginx/nginx.conf")
    if not debian.exists():
        missing("Debian's /etc/nginx/nginx.conf is not there")
    self_signed_certificate(tmp_path)
    site = tmp_path / "skatclub.conf"
    site.write_text(
        site_config(upstream=SITE_PORT, http=HTTP_PORT, https=HTTPS_PORT, folder=tmp_path)
    )
    text = debian.read_text()
    replace = {
        "include /etc/nginx/sites-enabled/*;": f"include {site};",
        "/var/log/nginx/": f"{tmp_path}/",
        "pid /run/nginx.pid;": f"pid {tmp_path}/nginx.pid;",
    }
    for old, new in replace.items():
        assert old in text, f"{old!r} is no longer in {debian}"
        text = text.replace(old, new)
    (tmp_path / "nginx.conf").write_text(text)
    result = subprocess.run(
        [binary, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")]
        + ["-e", str(tmp_path / "error.log")],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert "test is successful" in result.stderr


def tls_context(folder: Path) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=str(folder / "cert.pem"))


def request(port, path, *, tls=None, method="GET", headers=None, body=None):
    """(status, headers, body) of one request to nginx for HOST (https with a context)."""
    if tls:
        connection = http.client.HTTPSConnection(HOST, port, context=tls, timeout=30)
    else:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request(method, path, body=body, headers={"Host": HOST, **(headers or {})})
    response = connection.getresponse()
    answer = response.status, response.headers, response.read()
    connection.close()
    return answer


@pytest.fixture
def site(tmp_path_factory):
    """The site as `make serve` starts it (migrations, collected static files, gunicorn),
    HTTPS only and trusting the proxy's X-Forwarded-Proto, on an SQLite file of its own."""
    nginx_binary()  # skip before the slow start where nginx is missing
    folder = tmp_path_factory.mktemp("site")
    checksum = subprocess.run(
        ["cksum", "requirements.txt"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()[0]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CACHE_URL"))}
    env.update(
        DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}",
        DJANGO_SECRET_KEY=SECRET,
        DJANGO_ALLOWED_HOSTS=HOST,
        DJANGO_CSRF_TRUSTED_ORIGINS=f"https://{HOST}:{HTTPS_PORT}",
        DJANGO_SECURE="1",
        DJANGO_SECURE_PROXY_SSL_HEADER="1",
        # As .env.example: the wait measured from nginx's X-Request-Start. The threshold is
        # a minute, not the production half second: on a CI machine busy with the rest of the
        # suite the test's own requests waited longer and were shed (tests/test_shedding.py
        # tests the shedding).
        DJANGO_SHED_TRUST_REQUEST_START="1",
        DJANGO_SHED_AFTER_MS="60000",
        PORT=str(SITE_PORT),
        WEB_CONCURRENCY="1",
        THREADS="2",
    )
    log = folder / "serve.log"
    # -o: the virtualenv is set up already (make test); make serve does not rebuild it.
    with log.open("w") as output:
        server = subprocess.Popen(
            ["make", "--no-print-directory", "serve", "-o", f".venv/.installed-{checksum}"],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        wait_for_port(SITE_PORT, server, log, seconds=180)
        yield server
    finally:
        stop(server)


@pytest.fixture
def proxy(site, tmp_path_factory):
    folder = tmp_path_factory.mktemp("proxy") / "nginx"
    process = start_nginx(folder, upstream=SITE_PORT, http=HTTP_PORT, https=HTTPS_PORT)
    yield tls_context(folder), folder
    stop(process)


def https_reaches_the_site_as_secure(tls):
    status, headers, page = request(HTTPS_PORT, "/", tls=tls)
    # With DJANGO_SECURE=1 the site redirects every request it takes for plain HTTP: a 200
    # means it saw the proxy's X-Forwarded-Proto: https. Asked directly, it redirects.
    assert status == 200, page[:500]
    direct = http.client.HTTPConnection("127.0.0.1", SITE_PORT, timeout=30)
    direct.request("GET", "/", headers={"Host": HOST})
    plain = direct.getresponse()
    assert plain.status == 301 and plain.headers["Location"].startswith("https://")
    direct.close()
    # HSTS once, from the site (the proxy adds none).
    assert len(headers.get_all("Strict-Transport-Security")) == 1
    assert "max-age=" in headers["Strict-Transport-Security"]
    _status, headers, _page = request(HTTPS_PORT, "/login/", tls=tls)
    cookies = headers.get_all("Set-Cookie")
    csrf = [cookie for cookie in cookies if cookie.startswith("csrftoken=")]
    assert csrf and all("; Secure" in cookie for cookie in csrf)


def plain_http_moves_to_https_except_the_certificate_challenges(folder):
    status, headers, _body = request(HTTP_PORT, "/login/?next=/manage/")
    assert status == 301
    assert headers["Location"] == f"https://{HOST}/login/?next=/manage/"
    challenge = folder / "acme" / ".well-known" / "acme-challenge"
    challenge.mkdir(parents=True)
    (challenge / "token-123").write_text("token-123.key")
    status, _headers, body = request(HTTP_PORT, "/.well-known/acme-challenge/token-123")
    assert (status, body) == (200, b"token-123.key")


def nginx_serves_the_static_files_with_long_caching(tls):
    _status, _headers, page = request(HTTPS_PORT, "/", tls=tls)
    hashed = re.findall(rb'(?:href|src)="(/static/[^"]+\.[0-9a-f]{12}\.(?:css|js))"', page)
    assert hashed, "the home page links no static file with a hashed name"
    path = hashed[0].decode()
    on_disk = (ROOT / "staticfiles" / path.removeprefix("/static/")).read_bytes()
    status, headers, body = request(HTTPS_PORT, path, tls=tls)
    assert (status, body) == (200, on_disk)
    # nginx's header (a year), not whitenoise's (ten years): the proxy served it.
    assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
    status, headers, body = request(HTTPS_PORT, path, tls=tls, headers={"Accept-Encoding": "gzip"})
    assert status == 200 and headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(body) == on_disk
    # The same file under its name without the hash may change: a minute only.
    plain = re.sub(r"\.[0-9a-f]{12}(\.\w+)$", r"\1", path)
    status, headers, body = request(HTTPS_PORT, plain, tls=tls)
    assert (status, body) == (200, on_disk)
    assert headers["Cache-Control"] == "public, max-age=60"


def test_nginx_in_front_of_make_serve(proxy):
    # One test, so that one pytest-xdist worker starts the site and nginx on their ports.
    tls, folder = proxy
    https_reaches_the_site_as_secure(tls)
    plain_http_moves_to_https_except_the_certificate_challenges(folder)
    nginx_serves_the_static_files_with_long_caching(tls)


class Echo(BaseHTTPRequestHandler):
    """Answers each request with the headers and the body length it was sent."""

    def answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        received = len(self.rfile.read(length)) if length else 0
        body = json.dumps({"headers": dict(self.headers), "body": received}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = answer

    def log_message(self, *args):
        pass


@pytest.fixture
def echo_proxy(tmp_path_factory):
    nginx_binary()
    server = ThreadingHTTPServer(("127.0.0.1", ECHO_PORT), Echo)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    folder = tmp_path_factory.mktemp("echo") / "nginx"
    process = start_nginx(folder, upstream=ECHO_PORT, http=ECHO_HTTP_PORT, https=ECHO_HTTPS_PORT)
    yield tls_context(folder)
    stop(process)
    server.shutdown()
    server.server_close()


def the_site_is_told_the_client_the_scheme_and_the_arrival(echo_proxy):
    before = time.time()
    spoofed = {"X-Forwarded-For": "203.0.113.9", "X-Request-Start": "t=1"}
    status, _headers, body = request(ECHO_HTTPS_PORT, "/", tls=echo_proxy, headers=spoofed)
    after = time.time()
    assert status == 200
    seen = json.loads(body)["headers"]
    assert seen["Host"] == HOST
    assert seen["X-Forwarded-Proto"] == "https"
    # The client's own address, never what the client claims (login throttling counts it).
    assert seen["X-Forwarded-For"] == "127.0.0.1"
    arrival = re.fullmatch(r"t=(\d+\.\d{3})", seen["X-Request-Start"])
    assert arrival, seen["X-Request-Start"]
    # nginx's clock in seconds since the epoch, as the site's shedding reads it (nginx
    # caches its time, hence the second of slack either side).
    assert before - 1 <= float(arrival[1]) <= after + 1


def the_proxy_passes_the_largest_upload_the_site_takes(echo_proxy):
    upload = b"x" * (PLAYER_LIST_MAX_BYTES + 64 * 1024)  # the file and a form's overhead
    status, _headers, body = request(
        ECHO_HTTPS_PORT, "/", tls=echo_proxy, method="POST", body=upload
    )
    assert status == 200 and json.loads(body)["body"] == len(upload)
    limit = re.search(r"client_max_body_size (\d+)m;", NGINX_SITE.read_text())
    too_large = b"x" * (int(limit[1]) * 1024 * 1024 + 1)
    status, _headers, _body = request(
        ECHO_HTTPS_PORT, "/", tls=echo_proxy, method="POST", body=too_large
    )
    assert status == 413


def test_nginx_in_front_of_an_echo_server(echo_proxy):
    the_site_is_told_the_client_the_scheme_and_the_arrival(echo_proxy)
    the_proxy_passes_the_largest_upload_the_site_takes(echo_proxy)


# -- systemd ----------------------------------------------------------------------------


def test_the_systemd_units_pass_systemd_analyze_verify(tmp_path):
    analyze = shutil.which("systemd-analyze")
    if not analyze or not Path("/usr/lib/systemd/system/sysinit.target").exists():
        pytest.skip("systemd-analyze and systemd's own units are not installed")
    # A root of its own with what the units name: the checkout in /srv/skatclub, make, and
    # systemd's targets (verify resolves the units' dependencies).
    (tmp_path / "srv/skatclub/deploy").mkdir(parents=True)
    shutil.copy2(DEPLOY / "backup.sh", tmp_path / "srv/skatclub/deploy/backup.sh")
    (tmp_path / "usr/bin").mkdir(parents=True)
    shutil.copy2(shutil.which("make"), tmp_path / "usr/bin/make")
    shutil.copytree("/usr/lib/systemd/system", tmp_path / "usr/lib/systemd/system", symlinks=True)
    units = ["skatclub.service", "skatclub-backup.service", "skatclub-backup.timer"]
    (tmp_path / "etc/systemd/system").mkdir(parents=True)
    for unit in units:
        shutil.copy2(DEPLOY / unit, tmp_path / "etc/systemd/system" / unit)
    result = subprocess.run(
        [
            analyze,
            "verify",
            f"--root={tmp_path}",
            *(f"/etc/systemd/system/{unit}" for unit in units),
        ],
        capture_output=True,
        text=True,
    )
    assert (result.returncode, result.stderr) == (0, "")


# -- deploy/backup.sh ---------------------------------------------------------------------


def backup_env(database: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(DATABASE_URL=f"sqlite:///{database}", DJANGO_SECRET_KEY=SECRET)
    return env


def kept(days: list[date], *, daily: int, weekly: int) -> set[date]:
    """The rotation as the script's comment states it, written again in Python."""
    newest_first = sorted(days, reverse=True)
    keep = set(newest_first[:daily])
    weeks = []
    for day in newest_first[daily:]:
        week = day.isocalendar()[:2]
        if week not in weeks and len(weeks) < weekly:
            weeks.append(week)
            keep.add(day)
    return keep


def name(day: date) -> str:
    return f"skatclub-{day.isoformat()}.backup"


def test_the_nightly_backup_writes_today_and_keeps_7_daily_and_4_weekly(tmp_path):
    folder = tmp_path / "backups"
    folder.mkdir()
    # Two months of earlier backups with gaps (nights the machine was off), and files that
    # are not the script's.
    start = date.today() - timedelta(days=120)
    earlier = [start + timedelta(days=n) for n in range(60) if n % 7 not in (2, 3)]
    for day in earlier:
        (folder / name(day)).write_text("old")
    others = ["notes.txt", "skatclub-before-update.backup"]
    for other in others:
        (folder / other).write_text("mine")

    result = subprocess.run(
        [DEPLOY / "backup.sh", folder],
        env=backup_env(tmp_path / "db.sqlite3"),
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr

    today = date.today()
    assert (folder / name(today)).read_bytes().startswith(b"SQLite format 3\x00")
    expected = {name(day) for day in kept([*earlier, today], daily=7, weekly=4)}
    assert sorted(path.name for path in folder.iterdir()) == sorted(expected | set(others))
    assert len(expected) == 11  # 7 daily and 4 weekly: the two months hold enough of both


def test_a_failed_backup_exits_non_zero_and_removes_nothing(tmp_path):
    folder = tmp_path / "backups"
    folder.mkdir()
    start = date.today() - timedelta(days=30)
    before = {name(start + timedelta(days=n)) for n in range(20)}
    for file in before:
        (folder / file).write_text("old")
    # The database cannot be opened: its folder does not exist.
    result = subprocess.run(
        [DEPLOY / "backup.sh", folder],
        env=backup_env(tmp_path / "missing" / "db.sqlite3"),
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0
    assert {path.name for path in folder.iterdir()} == before  # no partial file either


# -- deploy/manage.sh -------------------------------------------------------------------


def test_manage_sh_runs_a_command_with_the_settings_of_the_env_file(tmp_path):
    env_file = tmp_path / "env"
    env_file.write_text(
        "# as /etc/skatclub/env: the variables of .env.example\n"
        f"DATABASE_URL=sqlite:///{tmp_path / 'db.sqlite3'}\n"
        f"DJANGO_SECRET_KEY={SECRET}\n"
        "DJANGO_ALLOWED_HOSTS=skat.example.net\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    show = "from django.conf import settings; print(settings.ALLOWED_HOSTS, settings.DEBUG)"
    result = subprocess.run(
        [DEPLOY / "manage.sh", "shell", "-c", show],
        env={**env, "SKATCLUB_ENV": str(env_file)},
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "['skat.example.net'] False"
    result = subprocess.run(
        [DEPLOY / "manage.sh", "check"],
        env={**env, "SKATCLUB_ENV": str(tmp_path / "missing")},
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1 and "cannot read" in result.stderr
