"""The automatic shuffling table: protocol, driver and emulator (docs/table-protocol.md).

Layers, each importing only the ones before it: ``framing`` (COBS + CRC, pure) → ``message_base``,
``device_events``, ``replies``, ``messages`` (payload dataclasses, one registry) → ``transport``
(pyserial URLs) → ``link`` (sequence numbers, idempotent retries) → ``connection``
(reconnects, heartbeat poller) → ``driver`` (:class:`~devices.driver.TableDriver`, the typed
commands; results and notices in ``notices``, waits in ``event_log``). ``table_mechanics`` +
``table_model`` + ``endpoint`` + ``emulator`` form the device side used by tests and the CLI.
Nothing here knows mahjong rules: it reports dice values, tile counts and faults.
"""
