"""``EmbeddedBroker``: the MQTT 5 broker on one background thread, bound to 127.0.0.1.

Same surface as ``tilesight.demo.broker.MosquittoBroker`` where the demo needs it (``start``,
``close``, ``url``, ``port``, context manager). No authentication and no ACLs: it is for the
demo and tests on one machine, never for a hall.
"""

from __future__ import annotations

import asyncio
import logging
import threading

from tilesight.demo.minibroker.server import BrokerServer, Connection

log = logging.getLogger("tilesight.minibroker")


class EmbeddedBroker:
    def __init__(self, *, port: int = 0, host: str = "127.0.0.1") -> None:
        self.host = host
        self.port = port
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None
        self._error: BaseException | None = None
        self.server = BrokerServer()

    @property
    def url(self) -> str:
        return f"mqtt://{self.host}:{self.port}"

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self, timeout: float = 10.0) -> EmbeddedBroker:
        if self.running:
            return self
        self._ready.clear()
        self._thread = threading.Thread(target=self._main, name="tilesight-minibroker", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout) or self._error is not None:
            self.close()
            raise RuntimeError(f"embedded broker did not start on {self.host}:{self.port}: "
                               f"{self._error or 'timed out'}")  # fmt: skip
        log.info("embedded MQTT 5 broker listening on %s", self.url)
        return self

    def _main(self) -> None:
        try:
            asyncio.run(self._serve())
        except BaseException as exc:  # reported to start(); the thread ends either way
            self._error = exc
            self._ready.set()

    async def _serve(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        tasks: set[asyncio.Task[None]] = set()
        conns: set[Connection] = set()

        async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            task = asyncio.current_task()
            assert task is not None
            tasks.add(task)
            conn = Connection(self.server, reader, writer)
            conns.add(conn)
            try:
                await conn.run()
            except asyncio.CancelledError:
                pass  # broker shutdown: finishing normally keeps asyncio's stream callback quiet
            finally:
                tasks.discard(task)
                conns.discard(conn)

        server = await asyncio.start_server(accept, self.host, self.port)
        self.port = int(server.sockets[0].getsockname()[1])
        self._ready.set()
        async with server:
            await self._stop.wait()
            server.close()
            self.server.close()
            for conn in list(conns):
                conn.writer.close()  # readers see EOF and their tasks end on their own
            if tasks:
                _, pending = await asyncio.wait(list(tasks), timeout=2.0)
                for task in pending:
                    task.cancel()
                await asyncio.gather(*pending, return_exceptions=True)

    def stop(self, timeout: float = 5.0) -> None:
        loop, stop, thread = self._loop, self._stop, self._thread
        if loop is not None and stop is not None and thread is not None and thread.is_alive():
            loop.call_soon_threadsafe(stop.set)
        if thread is not None:
            thread.join(timeout)
        self._thread = None

    def close(self) -> None:
        self.stop()

    def __enter__(self) -> EmbeddedBroker:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
