"""skatclub/runtime.py: a server worker's interpreter, as skatclub/wsgi.py leaves it.

Each case starts a fresh interpreter that imports the WSGI application, as a gunicorn
worker does (the collector's and the lock's settings are the process's own)."""

from tests.test_settings import fresh_python, production_environment

READ_WORKER = (
    "import gc, sys, skatclub.wsgi; "
    "print(gc.get_threshold()[0], gc.get_freeze_count() > 10000, sys.getswitchinterval(), "
    "'tournaments.public.views' in sys.modules)"
)


def start_worker(**env):
    return fresh_python(
        READ_WORKER,
        without={"GC_YOUNG_OBJECTS", "PYTHON_SWITCH_INTERVAL", "DJANGO_SETTINGS_MODULE"},
        **env,
        DJANGO_DEBUG="1",
    )


def test_a_worker_freezes_what_it_loaded_and_collects_less_often():
    done = start_worker()
    assert done.returncode == 0, done.stderr
    # The views are loaded before the freeze; the lock is handed over every millisecond.
    assert done.stdout.split() == ["2000", "True", "0.001", "True"]


def test_the_intervals_come_from_the_environment():
    done = start_worker(GC_YOUNG_OBJECTS="2500", PYTHON_SWITCH_INTERVAL="0.002")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] == "2500" and done.stdout.split()[2] == "0.002"


def test_a_bad_interval_stops_the_worker_with_a_clear_message():
    for name, value in (
        ("GC_YOUNG_OBJECTS", "many"),
        ("GC_YOUNG_OBJECTS", "0"),  # 0 would switch the collector off
        ("PYTHON_SWITCH_INTERVAL", "1e-9"),
        ("PYTHON_SWITCH_INTERVAL", "soon"),
    ):
        done = start_worker(**{name: value})
        assert done.returncode == 1
        assert f"{name} must be a number from" in done.stderr and repr(value) in done.stderr


def test_the_documented_values_are_accepted_and_used():
    documented = production_environment()
    done = start_worker(
        GC_YOUNG_OBJECTS=documented["GC_YOUNG_OBJECTS"],
        PYTHON_SWITCH_INTERVAL=documented["PYTHON_SWITCH_INTERVAL"],
    )
    assert done.returncode == 0, done.stderr
    young, frozen, interval, _views = done.stdout.split()
    assert int(young) == int(documented["GC_YOUNG_OBJECTS"]) and frozen == "True"
    assert float(interval) == float(documented["PYTHON_SWITCH_INTERVAL"])


READ_COMMAND = (
    "import runpy, sys; "
    "sys.argv = ['manage.py', 'shell', '-c', "
    "'import gc; print(gc.isenabled(), gc.get_freeze_count())']; "
    "runpy.run_path('manage.py', run_name='__main__')"
)


def test_a_command_loads_without_the_collector_then_runs_with_it():
    done = fresh_python(READ_COMMAND, without={"DJANGO_SETTINGS_MODULE"}, DJANGO_DEBUG="1")
    assert done.returncode == 0, done.stderr
    enabled, frozen = done.stdout.splitlines()[-1].split()
    # On again once the apps were ready, with what Django and the site loaded frozen.
    assert enabled == "True" and int(frozen) > 100_000


def test_the_collector_is_left_alone_where_it_was_not_paused_for_the_start():
    import gc

    from skatclub import runtime

    frozen = gc.get_freeze_count()
    gc.disable()
    try:
        runtime.collector_resume()  # nothing was paused by collector_pause_for_start
        assert not gc.isenabled() and gc.get_freeze_count() == frozen
    finally:
        gc.enable()


def test_an_import_runs_the_collector_less_often_and_then_as_before():
    import gc

    from skatclub import runtime

    before = gc.get_threshold()
    with runtime.collector_for_import():
        assert gc.get_threshold() == runtime.IMPORT_THRESHOLDS
    assert gc.get_threshold() == before
