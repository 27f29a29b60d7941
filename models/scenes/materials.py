"""Shaders for the Blender scenes: tile body and face, surfaces, clutter, world light and lamps.

Inside Blender only (see models.scenes.blender_scene). Colours are linear RGB triples.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import bpy  # type: ignore[import-not-found]

Colour = tuple[float, float, float] | list[float]


def _principled(name: str) -> tuple[Any, Any, Any]:
    material = bpy.data.materials.new(name)
    material.use_nodes = True
    nodes = material.node_tree.nodes
    bsdf = nodes.get("Principled BSDF")
    return material, material.node_tree, bsdf


def _rgba(colour: Colour) -> tuple[float, float, float, float]:
    return (float(colour[0]), float(colour[1]), float(colour[2]), 1.0)


def plain(
    name: str, colour: Colour, roughness: float, metallic: float = 0.0, **extra: float
) -> Any:
    material, _tree, bsdf = _principled(name)
    bsdf.inputs["Base Color"].default_value = _rgba(colour)
    bsdf.inputs["Roughness"].default_value = roughness
    bsdf.inputs["Metallic"].default_value = metallic
    for socket, value in extra.items():
        bsdf.inputs[socket.replace("_", " ")].default_value = value
    return material


def body_material(style: dict[str, Any]) -> Any:
    """Ivory face layer over a coloured back layer, split along the body's own z."""
    material = bpy.data.materials.new("body")
    material.use_nodes = True
    tree = material.node_tree
    nodes, links = tree.nodes, tree.links
    out = nodes.get("Material Output")
    ivory = nodes.get("Principled BSDF")
    back = nodes.new("ShaderNodeBsdfPrincipled")
    for bsdf, colour in ((ivory, style["ivory"]), (back, style["back"])):
        bsdf.inputs["Base Color"].default_value = _rgba(colour)
        bsdf.inputs["Roughness"].default_value = style["roughness"]
        bsdf.inputs["Coat Weight"].default_value = 0.4
    coords = nodes.new("ShaderNodeTexCoord")
    split = nodes.new("ShaderNodeSeparateXYZ")
    above = nodes.new("ShaderNodeMath")
    above.operation = "GREATER_THAN"
    above.inputs[1].default_value = style["d"] * (style["back_frac"] - 0.5)
    mix = nodes.new("ShaderNodeMixShader")
    links.new(coords.outputs["Object"], split.inputs["Vector"])
    links.new(split.outputs["Z"], above.inputs[0])
    links.new(above.outputs["Value"], mix.inputs[0])
    links.new(back.outputs["BSDF"], mix.inputs[1])
    links.new(ivory.outputs["BSDF"], mix.inputs[2])
    links.new(mix.outputs["Shader"], out.inputs["Surface"])
    return material


def face_material(image: Any, style: dict[str, Any]) -> Any:
    material, tree, bsdf = _principled("face")
    texture = tree.nodes.new("ShaderNodeTexImage")
    texture.image = image
    tree.links.new(texture.outputs["Color"], bsdf.inputs["Base Color"])
    bsdf.inputs["Roughness"].default_value = style["roughness"]
    bsdf.inputs["Coat Weight"].default_value = 0.4
    return material


def ramp(tree: Any, fac: Any, first: Colour, second: Colour) -> Any:
    """A two-colour ramp driven by ``fac`` (a node output); returns its colour output."""
    node = tree.nodes.new("ShaderNodeValToRGB")
    node.color_ramp.elements[0].color = _rgba(first)
    node.color_ramp.elements[1].color = _rgba(second)
    tree.links.new(fac, node.inputs["Fac"])
    return node.outputs["Color"]


def textured(kind: str, colour: Colour, colour2: Colour, scale: float) -> Any:
    """A surface material: felt, wood, cloth, floor tiles, marble or plain plastic."""
    material, tree, bsdf = _principled(kind)
    nodes, links = tree.nodes, tree.links
    coords = nodes.new("ShaderNodeTexCoord").outputs["Object"]
    dark = [c * 0.7 for c in colour]
    if kind == "wood":
        wave = nodes.new("ShaderNodeTexWave")
        wave.inputs["Scale"].default_value = 0.02 * scale
        wave.inputs["Distortion"].default_value = 6.0
        links.new(coords, wave.inputs["Vector"])
        brown = (0.25 * colour[0] + 0.15, 0.1 + 0.1 * colour[1], 0.04)
        colour_out = ramp(tree, wave.outputs["Fac"], [c * 0.5 for c in brown], brown)
        roughness = 0.35
    elif kind == "floor":
        brick = nodes.new("ShaderNodeTexBrick")
        brick.inputs["Color1"].default_value = _rgba(colour2)
        brick.inputs["Color2"].default_value = _rgba([c * 0.9 for c in colour2])
        brick.inputs["Mortar"].default_value = _rgba(dark)
        brick.inputs["Scale"].default_value = 0.01 * scale
        brick.offset = 0.0
        links.new(coords, brick.inputs["Vector"])
        colour_out, roughness = brick.outputs["Color"], 0.25
    elif kind == "cloth":
        checker = nodes.new("ShaderNodeTexChecker")
        checker.inputs["Color1"].default_value = _rgba(colour)
        checker.inputs["Color2"].default_value = _rgba(colour2)
        checker.inputs["Scale"].default_value = 0.05 * scale
        links.new(coords, checker.inputs["Vector"])
        colour_out, roughness = checker.outputs["Color"], 0.85
    else:  # felt, marble, plastic: a noise between two shades
        noise = nodes.new("ShaderNodeTexNoise")
        noise.inputs["Scale"].default_value = (0.3 if kind == "marble" else 2.0) * scale
        noise.inputs["Detail"].default_value = 12.0
        links.new(coords, noise.inputs["Vector"])
        second = (0.9, 0.9, 0.88) if kind == "marble" else [c * 1.15 for c in colour]
        first = (0.45, 0.45, 0.47) if kind == "marble" else dark
        colour_out = ramp(tree, noise.outputs["Fac"], first, second)
        roughness = {"felt": 0.95, "marble": 0.12}.get(kind, 0.4)
    links.new(colour_out, bsdf.inputs["Base Color"])
    bsdf.inputs["Roughness"].default_value = roughness
    return material


def world(scene: Any, light: dict[str, Any], hdri_dir: Path) -> None:
    """The photographed surroundings: a CC0 light probe, turned and scaled."""
    scene.world = bpy.data.worlds.new("world")
    scene.world.use_nodes = True
    tree = scene.world.node_tree
    background = tree.nodes.get("Background")
    probe = hdri_dir / f"{light['hdri']}.exr"
    background.inputs["Strength"].default_value = light["strength"]
    if not probe.is_file():  # no light probes prepared (a smoke test): an even grey sky
        background.inputs["Color"].default_value = (0.6, 0.62, 0.65, 1.0)
        return
    env = tree.nodes.new("ShaderNodeTexEnvironment")
    env.image = bpy.data.images.load(str(probe), check_existing=True)
    coords = tree.nodes.new("ShaderNodeTexCoord")
    mapping = tree.nodes.new("ShaderNodeMapping")
    mapping.inputs["Rotation"].default_value = (0.0, 0.0, light["turn"])
    tree.links.new(coords.outputs["Generated"], mapping.inputs["Vector"])
    tree.links.new(mapping.outputs["Vector"], env.inputs["Vector"])
    tree.links.new(env.outputs["Color"], background.inputs["Color"])


def lamps(light: dict[str, Any]) -> None:
    """Area lamps of many colours and directions above the table."""
    for i, lamp in enumerate(light["lamps"]):
        data = bpy.data.lights.new(f"lamp{i}", type="AREA")
        data.energy = lamp["power"]
        data.size = lamp["size"]
        data.color = tuple(lamp["colour"])
        obj = bpy.data.objects.new(f"lamp{i}", data)
        obj.location = tuple(lamp["xyz"])
        direction = -obj.location.normalized()
        obj.rotation_mode = "QUATERNION"
        obj.rotation_quaternion = direction.to_track_quat("-Z", "Y")
        bpy.context.collection.objects.link(obj)
