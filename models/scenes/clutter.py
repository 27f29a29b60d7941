"""The table and what lies about on it: surfaces (felt, wood, glass over a floor, cloth, floor
tiles, an automatic table's top, marble) and clutter (cups, phones, dice, chips, score sticks,
cards, a hand in its sleeve, pens, coasters, bowls). Inside Blender only.
"""

from __future__ import annotations

import math
from typing import Any

import bpy  # type: ignore[import-not-found]
import numpy as np

from models.scenes import materials as mat

SKIN = ((0.6, 0.38, 0.27), (0.42, 0.25, 0.16), (0.2, 0.11, 0.06), (0.75, 0.52, 0.4))


def _box(size: tuple[float, float, float], xyz: tuple[float, float, float], turn: float) -> Any:
    bpy.ops.mesh.primitive_cube_add(size=1.0, location=xyz, rotation=(0, 0, turn))
    obj = bpy.context.active_object
    obj.scale = size
    bevel = obj.modifiers.new("bevel", "BEVEL")
    bevel.width = min(size) * 0.15
    bevel.segments = 2
    return obj


def _cylinder(
    radius: float, depth: float, xyz: tuple[float, float, float], rotation=(0, 0, 0)
) -> Any:
    bpy.ops.mesh.primitive_cylinder_add(radius=radius, depth=depth, location=xyz, rotation=rotation)
    return bpy.context.active_object


def _paint(obj: Any, material: Any) -> None:
    obj.data.materials.append(material)


def add_surface(surface: dict[str, Any], rng: np.random.Generator) -> None:
    kind, colour, colour2 = surface["kind"], surface["colour"], surface["colour2"]
    scale = surface["scale"]
    bpy.ops.mesh.primitive_plane_add(size=600.0, location=(0, 0, 0))
    ground = bpy.context.active_object
    if kind == "glass":  # tiles on a glass top, a tiled floor and chair legs seen through it
        _paint(ground, mat.plain("glass", (0.9, 0.95, 0.93), 0.02, Transmission_Weight=1.0))
        bpy.ops.mesh.primitive_plane_add(size=1500.0, location=(0, 0, -74))
        _paint(bpy.context.active_object, mat.textured("floor", colour, colour2, scale))
        chrome = mat.plain("chrome", (0.8, 0.8, 0.82), 0.08, metallic=1.0)
        for _ in range(int(rng.integers(2, 6))):
            x, y = rng.uniform(-90, 90, 2)
            _paint(_cylinder(1.5, 72, (float(x), float(y), -37.5)), chrome)
        if rng.random() < 0.6:
            seat = _box(
                (45, 45, 6), (*rng.uniform(-60, 60, 2).tolist(), -30.0), float(rng.uniform(0, 3))
            )
            _paint(seat, mat.plain("seat", colour2, 0.6))
        return
    if kind == "autotable":  # a felt square inside a plastic rim, the dice window at its centre
        _paint(ground, mat.textured("wood", colour, colour2, scale))
        top = _box((92, 92, 0.6), (0, 0, -0.25), 0.0)
        _paint(top, mat.textured("felt", colour, colour2, scale))
        rim = mat.plain("rim", [c * 0.3 for c in colour2], 0.3)
        for dx, dy, sx, sy in (
            (0, 48, 100, 6),
            (0, -48, 100, 6),
            (48, 0, 6, 100),
            (-48, 0, 6, 100),
        ):
            _paint(_box((sx, sy, 2.5), (dx, dy, 1.0), 0.0), rim)
        _paint(_cylinder(9, 0.4, (0, 0, 0.1)), mat.plain("window", (0.05, 0.05, 0.06), 0.05))
        return
    _paint(ground, mat.textured(kind, colour, colour2, scale))


def _hand(item: dict[str, Any], x: float, y: float, s: float, rng: np.random.Generator) -> None:
    """A hand hovering over the table with its sleeve trailing off toward the edge."""
    height = float(rng.uniform(2.5, 9.0))
    bpy.ops.mesh.primitive_uv_sphere_add(radius=1.0, location=(x, y, height))
    palm = bpy.context.active_object
    palm.scale = (4.5 * s, 8.5 * s, 2.2 * s)
    palm.rotation_euler = (0, 0, item["turn"])
    skin = SKIN[int(rng.integers(len(SKIN)))]
    _paint(palm, mat.plain("skin", skin, 0.45, Subsurface_Weight=0.3))
    dx, dy = -math.sin(item["turn"]), math.cos(item["turn"])
    sleeve = _cylinder(
        4.8 * s, 40, (x - dx * 27 * s, y - dy * 27 * s, height + 3), (math.pi / 2, 0, item["turn"])
    )
    _paint(sleeve, mat.textured("cloth", item["colour"], [c * 0.6 for c in item["colour"]], 2.0))


def add_clutter(items: list[dict[str, Any]], rng: np.random.Generator) -> None:
    for item in items:
        x, y = item["xy"]
        s, turn, colour = item["scale"], item["turn"], item["colour"]
        kind = item["kind"]
        if kind == "cup":
            _paint(_cylinder(4 * s, 9 * s, (x, y, 4.5 * s)), mat.plain("cup", colour, 0.15))
        elif kind == "bowl":
            bpy.ops.mesh.primitive_uv_sphere_add(radius=7 * s, location=(x, y, 0))
            obj = bpy.context.active_object
            obj.scale = (1, 1, 0.5)
            _paint(obj, mat.plain("bowl", colour, 0.2))
        elif kind == "phone":
            _paint(
                _box((7 * s, 15 * s, 0.8), (x, y, 0.4), turn), mat.plain("phone", (0.02,) * 3, 0.1)
            )
        elif kind == "dice":
            for k in range(int(rng.integers(1, 4))):
                cube = _box((1.6, 1.6, 1.6), (x + 2.2 * k, y, 0.8), float(rng.uniform(0, 3)))
                _paint(
                    cube, mat.plain("die", (0.85, 0.85, 0.8) if k % 2 else (0.6, 0.05, 0.05), 0.3)
                )
        elif kind == "chips":
            for k in range(int(rng.integers(1, 6))):
                _paint(
                    _cylinder(2 * s, 0.3, (x, y, 0.15 + 0.32 * k)), mat.plain("chip", colour, 0.3)
                )
        elif kind == "sticks":
            for k in range(int(rng.integers(1, 6))):
                stick = _box((0.8, 11 * s, 0.35), (x + 1.1 * k, y, 0.2), turn)
                _paint(stick, mat.plain("stick", (0.9, 0.88, 0.8), 0.3))
        elif kind == "card":
            card = _box((6.3 * s, 8.8 * s, 0.05), (x, y, 0.03), turn)
            _paint(card, mat.textured("cloth", colour, (0.9, 0.9, 0.9), 8.0))
        elif kind == "hand":
            _hand(item, x, y, s, rng)
        elif kind == "pen":
            pen = _cylinder(0.5, 14 * s, (x, y, 0.5), (math.pi / 2, 0, turn))
            _paint(pen, mat.plain("pen", colour, 0.2))
        else:  # coaster
            _paint(_cylinder(5 * s, 0.4, (x, y, 0.2)), mat.textured("felt", colour, colour, 3.0))
