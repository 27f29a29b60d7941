"""All 43 tile faces as rendered pixels in headless Chromium.

One Chromium runs with a fontconfig that rejects every font able to draw a tile character
(whatever the machine has installed) and ``--font-render-hinting=none``; in it each face must be
drawn, all 43 must differ, and each character face must differ from its *twin*, the same tile
laid out with font text (what the sprite used to draw: here a tofu box). A second Chromium with
the machine's own fonts must show the very same pixels, so the faces owe nothing to any font.
"""

from __future__ import annotations

import itertools
import json
import os
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tests.web.conftest import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS
from tilesight.web import tiles

pytestmark = pytest.mark.browser

FACES = [*tiles.tile_codes(), "back"]
#: Faces that draw characters (the white dragon is a frame, dots and bamboo are geometry).
GLYPH_FACES = [c for c in FACES if c[-1] in "mf" or c in tiles.HONOR_GLYPHS]
NO_SUCH_FONT = "Tilesight No Such Font"
IVORY = np.array([0xFB, 0xF7, 0xEA])
W, H = 90, 120  # each face on screen, CSS pixels
#: A pixel counts as changed (ink on the face, or a difference) past this channel distance.
STEP = 60


def _fontconfig(cache: Path) -> str:
    """The machine's fontconfig, less every font holding any tile character."""
    base = os.environ.get("FONTCONFIG_FILE", "/etc/fonts/fonts.conf")
    chars = sorted({ord(c) for c in tiles.GLYPH_CHARS if ord(c) > 0x2E80})
    patterns = "".join(
        f'<pattern><patelt name="charset"><charset><int>{c:#x}</int></charset></patelt></pattern>'
        for c in chars
    )
    return (
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">\n'
        f'<fontconfig><include ignore_missing="yes">{base}</include>'
        f"<cachedir>{cache}</cachedir>"
        f"<selectfont><rejectfont>{patterns}</rejectfont></selectfont></fontconfig>\n"
    )


def _text_glyph(char: str, x: float, y: float, size: float, colour: str) -> str:
    """A character as font text in a font that does not exist: the twin's glyphs."""
    return (
        f'<text x="{x}" y="{y}" font-family="\'{NO_SUCH_FONT}\'" font-size="{size}" '
        'font-weight="700" text-anchor="middle" dominant-baseline="central" '
        f'fill="{colour}">{char}</text>'
    )


def _page() -> str:
    twins = "".join(
        f'<svg class="twin" viewBox="0 0 {tiles.WIDTH} {tiles.HEIGHT}">'
        f"{tiles.drawing(code, _text_glyph)}</svg>"
        for code in GLYPH_FACES
    )
    return f"""<!doctype html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="overlay.css"><script src="common.js"></script>
<style>
html, body {{ background: #fff; overflow: visible; font-family: '{NO_SUCH_FONT}'; }}
.tile {{ --tw: {W}px; --th: {H}px; margin: 4px; }}
.twin {{ width: {W}px; height: {H}px; margin: 4px; }}
</style></head><body><div id="faces"></div><div id="twins">{twins}</div>
<script>
for (const code of {json.dumps(FACES)}) {{
  document.getElementById("faces").appendChild(Tilesight.tile(code));
}}
</script></body></html>"""


def _render(browser: Any, web: Any, screenshot: Path | None = None) -> dict[str, Any]:
    """Faces (by code) and twins (by code) as RGB arrays from one page of ``browser``."""
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    try:
        page = context.new_page()
        url = f"{web.url}/faces.html"
        page.route(url, lambda route: route.fulfill(body=_page(), content_type="text/html"))
        page.goto(url)
        page.wait_for_load_state("networkidle")
        rects = page.evaluate(
            """[...document.querySelectorAll('#faces .tile svg, #twins .twin')].map((e) => {
                 const r = e.getBoundingClientRect();
                 return [r.x, r.y, r.width, r.height];
               })"""
        )
        png = page.screenshot(full_page=True)
        if screenshot is not None:
            screenshot.parent.mkdir(parents=True, exist_ok=True)
            screenshot.write_bytes(png)
    finally:
        context.close()
    image = cv2.cvtColor(
        cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB
    )
    crops = []
    for x, y, w, h in rects:
        assert (round(w), round(h)) == (W, H)
        crops.append(image[round(y) : round(y) + H, round(x) : round(x) + W].astype(np.int16))
    assert len(crops) == len(FACES) + len(GLYPH_FACES)
    return {
        "faces": dict(zip(FACES, crops[: len(FACES)], strict=True)),
        "twins": dict(zip(GLYPH_FACES, crops[len(FACES) :], strict=True)),
    }


def _changed(a: np.ndarray, b: np.ndarray) -> float:
    """The share of pixels that differ visibly between two crops of one size."""
    return float((np.abs(a - b).max(axis=2) > STEP).mean())


def _ink(face: np.ndarray) -> float:
    """The share of the face's inner part (inside its edge) that is not ivory."""
    inner = face[H // 10 : -H // 10, W // 10 : -W // 10]
    return float((np.abs(inner - IVORY).max(axis=2) > STEP).mean())


@pytest.fixture(scope="module")
def renders(web: Any, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The faces rendered by a Chromium that can draw no tile character from any font, and by
    one with the machine's fonts."""
    if not CHROMIUM.is_file():
        pytest.skip("/usr/bin/chromium is not installed")
    sync_api = pytest.importorskip("playwright.sync_api")
    folder = tmp_path_factory.mktemp("fontconfig")
    (folder / "fonts.conf").write_text(_fontconfig(folder / "cache"), encoding="utf-8")
    no_cjk_env = {**os.environ, "FONTCONFIG_FILE": str(folder / "fonts.conf")}
    out = {}
    with sync_api.sync_playwright() as playwright:
        for name, env, extra in [
            ("no_cjk", no_cjk_env, ["--font-render-hinting=none"]),
            ("system", dict(os.environ), []),
        ]:
            chromium = playwright.chromium.launch(
                executable_path=str(CHROMIUM), args=[*CHROMIUM_ARGS, *extra], env=env
            )
            try:
                shot = ARTIFACTS / "tile-faces.png" if name == "no_cjk" else None
                out[name] = _render(chromium, web, shot)
            finally:
                chromium.close()
    return out


def test_the_test_chromium_has_no_font_for_tile_characters(renders: dict[str, Any]) -> None:
    """The premise: drawn as font text there, 東 南 西 北 (one colour) come out the same box."""
    twins = renders["no_cjk"]["twins"]
    for a, b in itertools.combinations("ESWN", 2):
        assert _changed(twins[a], twins[b]) < 0.001, (a, b)


def test_every_face_is_drawn(renders: dict[str, Any]) -> None:
    faces = renders["no_cjk"]["faces"]
    inks = {code: round(_ink(face), 3) for code, face in faces.items()}
    assert all(ink > 0.04 for ink in inks.values()), inks


def test_all_43_faces_differ(renders: dict[str, Any]) -> None:
    faces = renders["no_cjk"]["faces"]
    assert len(faces) == 43
    close = {
        (a, b): round(change, 4)
        for a, b in itertools.combinations(faces, 2)
        if (change := _changed(faces[a], faces[b])) < 0.01
    }
    assert not close, close


def test_character_faces_show_glyphs_not_tofu(renders: dict[str, Any]) -> None:
    """Each face that draws characters differs from its twin drawn with font text (tofu here)."""
    faces, twins = renders["no_cjk"]["faces"], renders["no_cjk"]["twins"]
    same = {
        code: round(change, 4)
        for code in GLYPH_FACES
        if (change := _changed(faces[code], twins[code])) < 0.03
    }
    assert not same, same


def test_faces_do_not_depend_on_the_machines_fonts(renders: dict[str, Any]) -> None:
    """The same pixels with the machine's fonts (CJK ones too, where installed) and default
    hinting as with no font for the characters at all."""
    without, system = renders["no_cjk"]["faces"], renders["system"]["faces"]
    differ = {
        code: round(change, 4)
        for code in FACES
        if (change := _changed(without[code], system[code])) > 0.001
    }
    assert not differ, differ
