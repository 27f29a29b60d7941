"""``tilesight run --config FILE``: one table's service until SIGINT / SIGTERM."""

from __future__ import annotations

import argparse
import functools
import logging
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tilesight.camera_feed import CameraFeed
    from tilesight.config import ServiceConfig
    from tilesight.outbox import Outbox
    from tilesight.service import TableService
    from tilesight.supervisor import Supervisor
    from vision.calibration import Calibration


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "run",
        help="run one table's service (camera -> vision -> engine <- table driver -> MQTT)",
        description="Runs until SIGINT or SIGTERM; camera, table and broker reconnect alone.",
    )
    parser.add_argument("--config", type=Path, required=True, help="TOML configuration file")
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from tilesight.cli import CliError
    from tilesight.config import ConfigError, load_config

    try:
        config = load_config(args.config)
    except ConfigError as exc:
        raise CliError(str(exc)) from exc
    try:
        return run_table(config)
    except (LookupError, ValueError, OSError) as exc:
        raise CliError(str(exc)) from exc


def run_table(config: ServiceConfig) -> int:
    """Wire one table from its configuration and run it until a signal arrives."""
    from engine.procedures import find_procedure
    from tilesight.camera_check import load_calibration
    from tilesight.camera_feed import CameraFeed
    from tilesight.input_workers import input_workers
    from tilesight.outbox import Outbox
    from tilesight.service import TableService
    from tilesight.supervisor import Supervisor, setup_logging, stop_on_signals
    from tilesight.table_bridge import TableBridge
    from tilesight.table_engine import TableEngine, discard_limit
    from tilesight.topics import TableTopics

    setup_logging(config.log_level)
    log = logging.getLogger("tilesight.run")
    # refused here, before any thread: a missing, corrupt or misfitting calibration
    calibration = load_calibration(config) if config.cameras else None
    outbox = Outbox(config.outbox.path)
    journal = outbox.journaled(config.table)
    supervisor = Supervisor()
    received, _ = stop_on_signals(supervisor)  # a stop asked for while starting: clean, later
    last = outbox.last_position(config.table)
    # a restart replays the journal and carries on the same epoch; with no journal (a new
    # outbox, or events from elsewhere) it starts a new (epoch, seq) stream
    epoch = journal[0] if journal else (last[0] + 1 if last else 1)
    topics = TableTopics(config.tournament, config.table, config.mqtt.topic_prefix)
    if config.game == "gouji":
        gouji = _gouji_service(config, outbox, epoch, supervisor)
        if journal:
            _restore(gouji, log)
        if config.cameras:
            _add_card_camera(config, gouji, calibration, supervisor)
        _log_start(config, outbox, epoch, log)
        gouji.start()
        return _serve(gouji, supervisor, outbox, log, received)
    service = TableService(
        topics=topics,
        engine=TableEngine(
            table_id=config.table, procedure=config.procedure, rules=config.rules, epoch=epoch
        ),
        outbox=outbox,
        endpoint=config.mqtt.endpoint(),
        tls=config.mqtt.tls,
        client_id=config.mqtt.client_id,
        will_delay_s=config.mqtt.will_delay_s,
        keepalive_s=config.mqtt.keepalive_s,
        session_expiry_s=config.mqtt.session_expiry_s,
        discard_limit_s=discard_limit(config.procedure),
        broadcast_delay_s=config.mqtt.broadcast_delay_s,
        journal=True,
        supervisor=supervisor,
    )
    if journal:
        _restore(service, log)
    procedure = find_procedure(config.procedure)
    bridge = TableBridge(service, tile_count=procedure.tile_count, on_record=log.log)
    bridge.rolls_needed = procedure.rolls_needed
    service.table_control = bridge.control
    feed = CameraFeed(config, service, calibration) if config.cameras else None
    if feed is not None:
        bridge.on_dice = feed.new_hand  # the table's dice start the hand the cameras follow
    for name, work in input_workers(config, bridge, feed):
        supervisor.add(name, work, on_status=functools.partial(service.set_link, name))
    _log_start(config, outbox, epoch, log)
    service.start()
    if feed is not None:
        _follow_hand(feed, shuffling_table=bool(config.table_port.url))
    return _serve(service, supervisor, outbox, log, received)


def _gouji_service(
    config: ServiceConfig, outbox: Outbox, epoch: int, supervisor: Supervisor
) -> TableService:
    """A Gouji table: the same service on a GoujiTable; its actions arrive as ``cmd/action``
    (a scorer's console) and from its card camera, journaled and replayed like mahjong's."""
    from engine.gouji.match_table import GoujiTable
    from engine.gouji.options import find_variant
    from tilesight.service import TableService
    from tilesight.topics import TableTopics

    return TableService(
        topics=TableTopics(config.tournament, config.table, config.mqtt.topic_prefix),
        engine=GoujiTable(
            table_id=config.table, options=find_variant(config.gouji_variant), epoch=epoch
        ),
        outbox=outbox,
        endpoint=config.mqtt.endpoint(),
        tls=config.mqtt.tls,
        client_id=config.mqtt.client_id,
        will_delay_s=config.mqtt.will_delay_s,
        keepalive_s=config.mqtt.keepalive_s,
        session_expiry_s=config.mqtt.session_expiry_s,
        broadcast_delay_s=config.mqtt.broadcast_delay_s,
        journal=True,
        supervisor=supervisor,
    )


def _add_card_camera(
    config: ServiceConfig,
    service: TableService,
    calibration: Calibration | None,
    supervisor: Supervisor,
) -> None:
    """A Gouji table's one overhead card camera (:mod:`tilesight.card_feed`), supervised, its
    link in the retained state as ``camera``."""
    from tilesight.card_feed import CardFeed

    feed = CardFeed(config, service, calibration)
    supervisor.add(
        "camera",
        feed.worker(config.cameras[0]),
        on_status=functools.partial(service.set_link, "camera"),
    )


def _restore(service: TableService, log: logging.Logger) -> None:
    replayed = service.restore()
    log.info(
        "replayed %d journaled actions: the game resumes at seq %d",
        replayed,
        service.engine.position[1],
    )


def _log_start(config: ServiceConfig, outbox: Outbox, epoch: int, log: logging.Logger) -> None:
    stored, unsent = outbox.counts()
    log.info(
        "table %s of %s: epoch %d, outbox %s (%d stored, %d to resend), broker %s",
        config.table,
        config.tournament,
        epoch,
        config.outbox.path,
        stored,
        unsent,
        config.mqtt.url.split("@")[-1],
    )


def _serve(
    service: TableService,
    supervisor: Supervisor,
    outbox: Outbox,
    log: logging.Logger,
    received: list[int],
) -> int:
    """Run the started table until a signal arrives (``received``: those that came while it
    started); stop it and close the outbox."""
    from tilesight.supervisor import run_until_signal

    supervisor.start()
    code = 1
    try:
        code = run_until_signal(supervisor, received=received)
        return code
    finally:
        service.stop()
        outbox.close()
        if code == 0:
            log.info("stopped cleanly")
        else:
            log.error("stopped: %s", supervisor.failure or "an unexpected error")


def _follow_hand(feed: CameraFeed, *, shuffling_table: bool) -> None:
    """The hand the cameras follow: the journal's, when one was in play (a restart mid-hand
    carries it on, reconciled with what the cameras now see); else, without a shuffling table
    to roll the dice, a new hand from now when none was played yet, or, when the journal's
    last hand is over, the next one once the cameras see the table cleared
    (:meth:`CameraFeed.table_cleared`, as after every hand)."""
    log = logging.getLogger("tilesight.run")
    if feed.resume():
        log.info("hand %s resumes", feed.hand_number())
    elif not shuffling_table:
        last = feed.hand_number()
        if last is None:
            feed.new_hand(())
        else:
            log.info("hand %s is over: the next starts once the table is cleared", last)
