"""The page server, the tile sprite and the vendored MQTT.js and glyphs (no browser needed)."""

from __future__ import annotations

import hashlib
import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest

from tilesight.cli import main
from tilesight.demo.broker import MosquittoBroker, find_mosquitto, free_port, wait_for_port
from tilesight.web.server import WEB_DIR, WebServer, page_url, websockets_listener
from tilesight.web.tiles import GLYPH_CHARS, GLYPHS, SPRITE, sprite, tile_codes


@pytest.fixture(scope="module")
def server() -> Iterator[WebServer]:
    with WebServer(defaults={"broker": "ws://example:9001", "table": "T9"}) as running:
        yield running


def get(url: str) -> tuple[int, str, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as reply:
            return reply.status, reply.headers.get("Content-Type", ""), reply.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers.get("Content-Type", ""), exc.read()


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("/overlay.html", "text/html"),
        ("/referee.html", "text/html"),
        ("/gouji.html", "text/html"),
        ("/vendor/card-glyphs.js", "javascript"),
        ("/common.js", "javascript"),
        ("/vendor/mqtt.min.js", "javascript"),
        ("/tiles.svg", "image/svg+xml"),
        ("/overlay.css?v=1", "text/css"),
    ],
)
def test_pages_are_served(server: WebServer, path: str, kind: str) -> None:
    status, content_type, body = get(server.url + path)
    assert status == 200 and kind in content_type and body


@pytest.mark.parametrize(
    "path", ["/server.py", "/../../pyproject.toml", "/%2e%2e/cli.py", "/vendor/", "/nope.html"]
)
def test_only_page_files_are_served(server: WebServer, path: str) -> None:
    status, _, body = get(server.url + path)
    assert status == 404 and b"import" not in body


def test_defaults_tell_pages_where_the_broker_is(server: WebServer) -> None:
    status, content_type, body = get(server.url + "/defaults.json")
    assert status == 200 and "json" in content_type
    assert json.loads(body) == {"broker": "ws://example:9001", "table": "T9"}


def test_page_urls_and_listener_lines() -> None:
    url = page_url("http://h:8080/", "overlay.html", {"table": "T1", "names": "A,B", "x": ""})
    assert url == "http://h:8080/overlay.html?table=T1&names=A%2CB"
    with pytest.raises(ValueError, match=r"'admin\.html'"):
        page_url("http://h", "admin.html", {})
    assert websockets_listener(9001) == "listener 9001\nprotocol websockets\n"
    assert websockets_listener(9001, "0.0.0.0").startswith("listener 9001 0.0.0.0\n")


def test_the_committed_sprite_matches_its_generator() -> None:
    text = SPRITE.read_text(encoding="utf-8")
    assert text == sprite(), "run: python -m tilesight.web.tiles"
    ids = re.findall(r'<symbol id="t-([^"]+)"', text)
    assert ids == [*tile_codes(), "back"] and len(ids) == 43
    codes_js = (WEB_DIR / "common.js").read_text(encoding="utf-8")
    assert "TILE_CODES" in codes_js  # the pages' list of faces: 34 kinds + 8 flowers
    assert len(set(tile_codes())) == 42


def test_the_sprite_needs_no_font() -> None:
    """Characters are outlines from the vendored glyph data (exactly the ones the faces draw),
    with the font's licence notice; nothing in the sprite asks the viewer for a font."""
    text = SPRITE.read_text(encoding="utf-8")
    assert "<text" not in text and "font" not in text.split("-->", 2)[2]
    glyphs = json.loads(GLYPHS.read_text(encoding="utf-8"))
    assert sorted(glyphs["glyphs"]) == sorted(GLYPH_CHARS) and len(GLYPH_CHARS) == 28
    assert "SIL Open Font License" in text and glyphs["copyright"] in text
    ofl = (WEB_DIR / "vendor" / "noto-cjk-OFL.txt").read_text(encoding="utf-8")
    assert glyphs["copyright"] in ofl and "SIL OPEN FONT LICENSE Version 1.1" in ofl


def test_vendored_mqtt_js_is_the_recorded_release() -> None:
    readme = (WEB_DIR / "vendor" / "README.md").read_text(encoding="utf-8")
    recorded = re.search(r"sha256 of `mqtt.min.js`: `([0-9a-f]{64})`", readme)
    assert recorded is not None
    body = (WEB_DIR / "vendor" / "mqtt.min.js").read_bytes()
    assert hashlib.sha256(body).hexdigest() == recorded.group(1)
    assert (WEB_DIR / "vendor" / "mqtt-LICENSE.txt").read_text().startswith("The MIT License")


def test_web_command_serves_and_rejects_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["web", "--port", "0", "--duration", "0.2", "--table", "T7"]) == 0
    out = capsys.readouterr().out
    assert "/overlay.html?table=T7" in out and "/referee.html" in out
    assert main(["web", "--broker", "mqtt://h:1883", "--duration", "0"]) == 2
    assert "ws:// or wss://" in capsys.readouterr().err
    assert main(["web", "--table", "T/1", "--duration", "0"]) == 2
    assert "'T/1'" in capsys.readouterr().err


def test_mosquitto_can_serve_the_pages_itself() -> None:
    """A venue may use Mosquitto's http_dir on the WebSockets listener instead of tilesight web."""
    if find_mosquitto() is None:
        pytest.skip("mosquitto is not installed")
    with MosquittoBroker(ws_port=free_port(), extra_config=f"http_dir {WEB_DIR}") as broker:
        assert broker.ws_port and wait_for_port("127.0.0.1", broker.ws_port, 5)
        status, _, body = get(f"http://127.0.0.1:{broker.ws_port}/overlay.html")
    assert status == 200 and b"overlay.js" in body


def test_web_demo_plays_into_a_private_broker(capsys: pytest.CaptureFixture[str]) -> None:
    if find_mosquitto() is None:
        pytest.skip("mosquitto is not installed")
    argv = ["web", "--demo", "--port", "0", "--hands", "1", "--pace", "0", "--wait", "0"]
    assert main([*argv, "--duration", "0"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"broker \(WebSockets\): ws://127\.0\.0\.1:\d+", out)
    assert "score capture:" in out and "complete" in out and "0 unacknowledged" in out
    assert main(["web", "--demo", "--broker", "ws://h:9001", "--duration", "0"]) == 2
    assert "--demo starts its own broker" in capsys.readouterr().err


def test_gouji_glyphs_cover_every_word_the_pages_draw() -> None:
    """The Gouji overlay draws its Chinese words and card ranks from vendor/card-glyphs.js."""
    text = (WEB_DIR / "vendor" / "card-glyphs.js").read_text(encoding="utf-8")
    data = json.loads(text.split("const GoujiGlyphs = ", 1)[1].rstrip().rstrip(";"))
    glyphs = data["glyphs"]
    assert all(glyph["d"].startswith("M") and glyph["w"] > 0 for glyph in glyphs.values())
    pages = (WEB_DIR / "gouji.js").read_text(encoding="utf-8")
    drawn = set(re.findall(r"[\u4e00-\u9fff]", pages)) | set("大小王0123456789AJQK")
    assert drawn <= set(glyphs), sorted(drawn - set(glyphs))
    assert [font["family"] for font in data["fonts"]] == ["DejaVu Sans Bold", "Droid Sans Fallback"]
    licences = (WEB_DIR / "vendor" / "card-glyphs-LICENSES.txt").read_text(encoding="utf-8")
    assert "Bitstream Vera" in licences and "Apache License" in licences
