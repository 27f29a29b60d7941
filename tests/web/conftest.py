"""Fixtures for the browser tests: a secured Mosquitto with a WebSockets listener, the page
server, one headless Chromium per module, and a real table service on the real engine."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tilesight.demo.broker import MosquittoBroker, find_mosquitto, free_port

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "artifacts" / "web"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TOURNAMENT = "cup"
ACCOUNTS = {
    "T1": "t1-pw",
    "T2": "t2-pw",
    "T3": "t3-pw",
    "T4": "t4-pw",
    "overlay": "ov-pw",
    "overlay-delayed": "ovd-pw",
    "referee": "ref-pw",
}


def wait_until(predicate: Callable[[], Any], timeout: float = 10.0, what: str = "") -> Any:
    deadline = time.monotonic() + timeout
    while not (value := predicate()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or predicate}")
        time.sleep(0.02)
    return value


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MosquittoBroker]:
    """Mosquitto with the example ACL, accounts for two tables, an overlay and a referee."""
    if find_mosquitto() is None or shutil.which("mosquitto_passwd") is None:
        pytest.skip("mosquitto (with mosquitto_passwd) is not installed")
    workdir = tmp_path_factory.mktemp("broker")
    passwords = workdir / "passwords"
    passwords.touch()
    for user, password in ACCOUNTS.items():
        subprocess.run(
            ["mosquitto_passwd", "-b", str(passwords), user, password],
            check=True,
            capture_output=True,
        )
    acl = REPO / "examples" / "mosquitto" / "acl"
    with MosquittoBroker(
        ws_port=free_port(), password_file=passwords, acl_file=acl, workdir=workdir
    ) as running:
        yield running


def table_url(broker: MosquittoBroker, table: str) -> str:
    return f"mqtt://{table}:{ACCOUNTS[table]}@127.0.0.1:{broker.port}"


def ws_url(broker: MosquittoBroker) -> str:
    return f"ws://127.0.0.1:{broker.ws_port}"


@pytest.fixture(scope="module")
def web() -> Iterator[Any]:
    from tilesight.web.server import WebServer

    with WebServer() as server:
        yield server


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.is_file():
        pytest.skip("/usr/bin/chromium is not installed")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page_factory(browser: Any) -> Iterator[Callable[..., Any]]:
    """New 1920x1080 pages whose console errors fail the test."""
    contexts: list[Any] = []
    errors: list[str] = []

    def open_page(url: str) -> Any:
        context = browser.new_context(viewport={"width": 1920, "height": 1080})
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("console", lambda msg: _csp_error(msg, errors))
        page.goto(url)
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"


def _csp_error(message: Any, errors: list[str]) -> None:
    """The pages run under their own Content-Security-Policy: a violation is a bug."""
    if message.type == "error" and "Content Security Policy" in message.text:
        errors.append(message.text)


def wait_js(page: Any, expression: str, timeout: float = 10.0) -> Any:
    """Poll ``expression`` in the page until truthy (wait_for_function would need unsafe-eval,
    which the pages' CSP forbids)."""
    return wait_until(lambda: page.evaluate(expression), timeout, expression)


@contextlib.contextmanager
def table_service(
    broker: MosquittoBroker,
    table: str,
    workdir: Path,
    *,
    seed: int = 2,
    delay_s: float = 0.0,
    procedure: str = "wsom",
) -> Iterator[Any]:
    """A real :class:`TableService` on the real engine (MCR rules; the WSOM procedure unless
    ``procedure`` names another, e.g. ``log`` for a camera-only table)."""
    from tilesight.config import parse_mqtt_url
    from tilesight.outbox import Outbox
    from tilesight.service import TableService
    from tilesight.table_engine import TableEngine, discard_limit
    from tilesight.topics import TableTopics

    outbox = Outbox(workdir / f"outbox-{table}.sqlite")
    service = TableService(
        topics=TableTopics(TOURNAMENT, table),
        engine=TableEngine(table_id=table, procedure=procedure, rules="mcr", seed=seed),
        outbox=outbox,
        endpoint=parse_mqtt_url(table_url(broker, table)),
        client_id=f"web-test-{table}",
        will_delay_s=1,
        discard_limit_s=discard_limit(procedure),
        broadcast_delay_s=delay_s,
    )
    service.start()
    try:
        wait_until(service.link.connected.is_set, 10, f"table {table} connected")
        yield service
    finally:
        service.stop(2.0)
        outbox.close()
