"""Build and render one planned scene in Blender (``bpy``, Cycles on the CPU).

Runs only inside the ``render`` virtual environment (``pip install bpy``); the runtime never
imports it. Each tile is a bevelled body with a face layer and a coloured back layer, its face a
decal with the face image; surfaces, clutter and light come from the plan
(models.scenes.materials builds their shaders). Labels are computed from the geometry: every
tile's face (or back, whichever the camera sees) as four projected corners, and how much of it
the camera really sees, by casting rays at it.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

# isort: off
import bpy  # type: ignore[import-not-found]  # first: importing bpy makes bmesh importable
import bmesh  # type: ignore[import-not-found]

# isort: on
import numpy as np
from bpy_extras.object_utils import world_to_camera_view  # type: ignore[import-not-found]
from mathutils import Matrix, Quaternion, Vector  # type: ignore[import-not-found]

from models.scenes import materials as mat
from models.scenes.clutter import add_clutter, add_surface

FACING = 0.2  # |cos| between a tile's face normal and the view below which it is edge-on


def _reset(threads: int, samples: int) -> Any:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.engine = "CYCLES"
    scene.cycles.device = "CPU"
    scene.cycles.samples = samples
    scene.cycles.use_adaptive_sampling = True
    scene.cycles.adaptive_threshold = 0.05
    scene.cycles.use_denoising = True
    scene.cycles.max_bounces = 3
    scene.cycles.diffuse_bounces = 1
    scene.cycles.glossy_bounces = 2
    scene.cycles.transmission_bounces = 4
    scene.cycles.caustics_reflective = False
    scene.cycles.caustics_refractive = False
    scene.render.threads_mode = "FIXED"
    scene.render.threads = threads
    scene.render.image_settings.file_format = "PNG"
    scene.render.image_settings.color_mode = "RGB"
    return scene


def _tile_mesh(style: dict[str, Any]) -> Any:
    w, h, d = style["w"], style["h"], style["d"]
    bm = bmesh.new()
    bmesh.ops.create_cube(bm, size=1.0)
    bmesh.ops.scale(bm, vec=Vector((w, h, d)), verts=bm.verts)
    bmesh.ops.bevel(
        bm, geom=list(bm.edges), offset=style["bevel"] * w, segments=3, affect="EDGES", profile=0.5
    )
    mesh = bpy.data.meshes.new("tile")
    bm.to_mesh(mesh)
    bm.free()
    for poly in mesh.polygons:
        poly.use_smooth = True
    return mesh


def _decal_mesh(style: dict[str, Any], image: Any) -> Any:
    w, h = style["w"], style["h"]
    inset = (max(style["inset"], style["bevel"]) + 0.01) * w
    bpy.ops.mesh.primitive_plane_add(size=1.0)
    plane = bpy.context.active_object
    plane.scale = (w - 2 * inset, h - 2 * inset, 1.0)
    bpy.ops.object.transform_apply(scale=True)
    plane.data.materials.append(mat.face_material(image, style))
    return plane


def _add_tiles(plan: dict[str, Any], faces: Path, rng: np.random.Generator) -> list[dict]:
    style = plan["style"]
    body = _tile_mesh(style)
    body_material = mat.body_material(style)
    body.materials.append(body_material)
    tiles = []
    for i, tile in enumerate(plan["tiles"]):
        pose = Matrix(tile["matrix"])
        obj = bpy.data.objects.new(f"tile{i}", body)
        obj.matrix_world = pose
        bpy.context.collection.objects.link(obj)
        parts = [obj]
        if tile["face_up"]:
            image = bpy.data.images.load(str(_face_file(faces, style, tile["name"], rng)))
            decal = _decal_mesh(style, image)
            decal.matrix_world = pose @ Matrix.Translation((0, 0, style["d"] / 2 + 0.004))
            parts.append(decal)
        tiles.append({"name": tile["name"], "pose": pose, "parts": parts})
    return tiles


def _face_file(faces: Path, style: dict[str, Any], name: str, rng: np.random.Generator) -> Path:
    source = style["faces"]
    if source == "mixed":
        source = str(rng.choice(["camerash", "ours", "cc0"]))
    for chosen in (source, "ours"):
        files = sorted((faces / chosen / name).glob("*.png"))
        if files:
            return files[int(rng.integers(len(files)))]
    raise FileNotFoundError(f"no face image for {name} under {faces}")


def _camera(plan: dict[str, Any]) -> Any:
    cam = plan["camera"]
    tilt, azimuth = math.radians(cam["tilt_deg"]), math.radians(cam["azimuth_deg"])
    target = Vector(cam["target"])
    direction = Vector(
        (math.sin(tilt) * math.cos(azimuth), math.sin(tilt) * math.sin(azimuth), math.cos(tilt))
    )
    data = bpy.data.cameras.new("camera")
    data.lens = cam["focal_mm"]
    data.sensor_width = 36.0
    data.clip_start, data.clip_end = 1.0, 5000.0
    if cam["aperture"] > 0:
        data.dof.use_dof = True
        data.dof.focus_distance = cam["distance"]
        data.dof.aperture_fstop = cam["aperture"] * 20  # centimetre scene: ~phone depth of field
    obj = bpy.data.objects.new("camera", data)
    obj.location = target + direction * cam["distance"]
    look = (target - obj.location).to_track_quat("-Z", "Y")
    obj.rotation_mode = "QUATERNION"
    obj.rotation_quaternion = look @ Quaternion((0, 0, 1), math.radians(cam["roll_deg"]))
    bpy.context.collection.objects.link(obj)
    bpy.context.scene.camera = obj
    return obj


def _corners(tile: dict, style: dict[str, Any], face: bool) -> list[Vector]:
    w, h, d = style["w"] / 2, style["h"] / 2, style["d"] / 2
    if face:
        local = [(-w, h, d), (w, h, d), (w, -h, d), (-w, -h, d)]
    else:  # the back, as seen from behind the tile
        local = [(w, h, -d), (-w, h, -d), (-w, -h, -d), (w, -h, -d)]
    return [tile["pose"] @ Vector(p) for p in local]


def _visible(scene: Any, camera: Any, tile: dict, quad: list[Vector], normal: Vector) -> float:
    """Share of a 3x3 grid over ``quad`` that the camera sees (rays cast from the camera)."""
    depsgraph = bpy.context.evaluated_depsgraph_get()
    origin = camera.matrix_world.translation
    own = {p.name for p in tile["parts"]}
    seen = 0
    for u in (0.2, 0.5, 0.8):
        for v in (0.2, 0.5, 0.8):
            top = quad[0].lerp(quad[1], u)
            bottom = quad[3].lerp(quad[2], u)
            point = top.lerp(bottom, v) + normal * 0.05
            ray = point - origin
            length = ray.length
            hit, _loc, _n, _i, obj, _m = scene.ray_cast(
                depsgraph, origin, ray.normalized(), distance=length
            )
            seen += (not hit) or obj.name in own
    return seen / 9


def labels(scene: Any, camera: Any, tiles: list[dict], style: dict[str, Any]) -> list[dict]:
    share = scene.render.resolution_percentage / 100
    width, height = scene.render.resolution_x * share, scene.render.resolution_y * share
    origin = camera.matrix_world.translation
    out = []
    for tile in tiles:
        normal = (tile["pose"].to_3x3() @ Vector((0, 0, 1))).normalized()
        centre = tile["pose"].translation
        facing = normal.dot((origin - centre).normalized())
        if abs(facing) < FACING:
            continue
        face = facing > 0
        quad = _corners(tile, style, face)
        side = normal if face else -normal
        points = [world_to_camera_view(scene, camera, p) for p in quad]
        if any(p.z <= 0 for p in points):
            continue
        px = [[p.x * width, (1 - p.y) * height] for p in points]
        out.append(
            {
                "name": tile["name"] if face else "back",
                "kind": tile["name"],
                "corners": [[round(x, 2), round(y, 2)] for x, y in px],
                "visible": _visible(scene, camera, tile, quad, side),
                "facing": round(float(abs(facing)), 3),
            }
        )
    return out


def render(
    plan: dict[str, Any],
    assets: Path,
    out_png: Path,
    *,
    threads: int = 1,
    samples: int = 12,
    percent: int = 100,
) -> list[dict]:
    """Builds ``plan``, renders it to ``out_png`` and returns the tile labels."""
    scene = _reset(threads, samples)
    rng = np.random.default_rng(plan["seed"])
    scene.render.resolution_x, scene.render.resolution_y = plan["resolution"]
    scene.render.resolution_percentage = percent
    mat.world(scene, plan["light"], assets / "hdri")
    mat.lamps(plan["light"])
    add_surface(plan["surface"], rng)
    add_clutter(plan["clutter"], rng)
    tiles = _add_tiles(plan, assets / "faces", rng)
    camera = _camera(plan)
    scene.view_settings.view_transform = str(rng.choice(["AgX", "Standard", "Filmic"]))
    scene.view_settings.exposure = float(rng.normal(0, 0.35))
    bpy.context.view_layer.update()
    found = labels(scene, camera, tiles, plan["style"])
    scene.render.filepath = str(out_png)
    bpy.ops.render.render(write_still=True)
    return found
