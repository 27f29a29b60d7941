"""What a ``tilesight demo`` run is asked for (:class:`DemoOptions`) and what it reports
(:class:`DemoSummary`): shared by the run (:mod:`tilesight.demo.play`), its camera-only and
Gouji variants and the console that prints the summary."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from models.evaluation.perception_check import HandPerception


@dataclass(frozen=True)
class DemoOptions:
    mqtt: str | None = None
    tournament: str = "demo"
    table: str = "T01"
    hands: int = 4
    seed: int = 1
    pace_s: float = 0.05
    outbox: Path | None = None
    scores_db: Path | None = None
    procedure: str = "wsom"
    rules: str = "mcr"
    quiet: bool = False
    consumer: bool = True
    broker: str = "auto"  # without mqtt: "auto" (Mosquitto if installed) or "embedded"
    vision: bool = False  # also read rendered frames through the detector (perception_check)
    vision_frames_per_action: int = 4
    camera_only: bool = False  # the engine fed only by what the camera path reads (camera_demo)
    game: str = "mahjong"  # or "gouji" (tilesight.demo.gouji_play)
    games: int = 2  # Gouji games (the first games of a seeded match)
    variant: str = "qingdao"  # Gouji rule variant (engine.gouji.options.find_variant)
    cards_per_seat: int | None = None  # Gouji: short games of this many cards a seat


@dataclass
class DemoSummary:
    hands: int = 0
    events: int = 0
    resumed_from: tuple[int, int] | None = None
    stored: int = 0
    unsent: int = 0
    received: int = 0
    duplicates: int = 0
    resyncs: int = 0
    caught_up: bool = False
    seconds: float = 0.0
    violations: int = 0
    started: float = 0.0
    standings: str = ""
    perception: list[HandPerception] = field(default_factory=list)
    wins: list[str] = field(default_factory=list)  # camera-only: each hand's win against the truth
