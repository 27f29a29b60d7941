"""Which supervised input threads a table runs: above the service, the table bridge and the
camera feed, so that none of them imports the others at run time."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tilesight.camera_feed import CameraFeed
    from tilesight.config import ServiceConfig
    from tilesight.supervisor import Work
    from tilesight.table_bridge import TableBridge


def input_workers(
    config: ServiceConfig, bridge: TableBridge | None, feed: CameraFeed | None = None
) -> list[tuple[str, Work]]:
    """The supervised threads feeding the engine: shuffling table and cameras, as configured."""
    workers: list[tuple[str, Work]] = []
    if config.table_port.url:
        assert bridge is not None
        workers.append(("table", bridge.worker(config.table_port.url)))
    if feed is not None:
        for index, camera in enumerate(config.cameras):  # every camera is overhead (config)
            workers.append((f"camera{index}" if index else "camera", feed.worker(camera)))
    return workers
