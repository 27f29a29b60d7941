"""Soak with faults (issue 44): what a table survives, measured on the real processes.

Mosquitto (example ACL, persistence on), ``tilesight run`` with the emulated table on a pty and
``tilesight scores``; a referee plays the demo's hands as commands while, at seeded random times,
hostile commands, poisoned score events, serial noise, broker restarts and one kill -9 arrive.
Prints what was survived; exit status 1 when something that must hold did not. Run as
``nice -n 10 .venv/bin/python bench/bench_soak.py --minutes 3 --seed 44``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack, closing, suppress
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_service import cpu_seconds
from devices.emulator import Emulator
from engine.actions import action_to_dict
from engine.simulate.actions import demo_hands
from tests.service.conftest import TILESIGHT, Probe, wait_until
from tests.service.hostile_helpers import REPLY, ROOT, send, table_process, write_config
from tests.service.test_acl import ACCOUNTS, ACL, write_passwords
from tests.service.test_hostile_commands import NESTED
from tests.service.test_hostile_scores import _forged_hand
from tests.service.test_public_topics import concealed_leaks
from tilesight.demo.broker import MosquittoBroker
from tilesight.mqtt_client import session_properties
from tilesight.outbox import Outbox
from tilesight.score_store import ScoreStore

PASSWORDS = ACCOUNTS | {"T05": "t05-pw"}
ENV = {user: os.environ | {"TILESIGHT_MQTT_USERNAME": user, "TILESIGHT_MQTT_PASSWORD": password}
       for user, password in PASSWORDS.items()}  # fmt: skip
#: Faults per minute (the kill -9 of the table: once per run).
RATES = {"deep_json": 2, "oversized_8mb": 1, "bad_utf8": 2, "foreign_table": 2,
         "duplicate_id": 2, "reply_outside": 2, "poisoned_score": 4, "serial_noise": 1,
         "broker_restart": 1}  # fmt: skip
#: What a stolen ``T2`` account publishes at score capture (the last one the ACL refuses).
POISON = [
    ("tilesight/v1/hall/T2/events/x", b"[" * 5000),
    ("tilesight/v1/hall/T2/events/hand_ended", _forged_hand("T2", 50, [10**30, 0, 0, 0])),
    ("tilesight/v1/hall/T2/events/hand_ended", _forged_hand("T05", 7, [900, -300, -300, -300])),
    ("tilesight/v1/hall/T2/events/hand_ended", b'{"type": "hand_ended", "table": "T2\xff"}'),
    ("tilesight/v1/hall/T2/state", json.dumps({"epoch": 1, "seq": 999_999_999}).encode()),
    (f"{ROOT}/events/hand_ended", _forged_hand("T05", 3, [900, -300, -300, -300])),
]
ELSEWHERE = [f"{ROOT}/state", f"{ROOT}/events/hand_ended", "tilesight/v1/hall/T06/reply/ref"]
ANSWERED, IGNORED = ("deep_json", "bad_utf8"), ("oversized_8mb", "foreign_table", "reply_outside")


class Account(Probe):
    """A probe whose session outlives broker restarts; answers on reply/ref by correlation."""

    def __init__(self, broker: MosquittoBroker, user: str) -> None:
        super().__init__(broker.url, f"soak-{user}", user, PASSWORDS[user])
        self.answers: dict[bytes, list[dict[str, Any]]] = {}
        self.client.reconnect_delay_set(1, 2)

    def _on_message(self, c: Any, u: Any, msg: Any) -> None:
        super()._on_message(c, u, msg)
        corr = getattr(msg.properties, "CorrelationData", None)
        body = json.loads(msg.payload) if msg.topic == REPLY and corr is not None else {}
        if "ok" in body:  # resync replays left out
            self.answers.setdefault(bytes(corr or b""), []).append(body)

    def __enter__(self) -> Account:  # never clean: Mosquitto 2.0 saves no session begun clean
        props = session_properties(3600)
        self.client.connect("127.0.0.1", self.endpoint.port, clean_start=False, properties=props)
        self.client.loop_start()
        wait_until(self.connected.is_set, 10, "the account connected")
        return self


def legit_commands(seed: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """The demo's simulated hands as referee commands, a shuffle before and an ack after each."""
    for game in itertools.count():  # hand numbers go on: score capture keeps one result per number
        for hand in demo_hands("wsom", seed=seed + game, hands=100):
            number = 100 * game + hand.number
            yield "shuffle", {}
            for body in map(action_to_dict, hand.actions):
                body.update({"hand_number": number} if "hand_number" in body else {})
                yield "action", {"action": body}
            yield "ack", {"alert": f"hand-{number}"}


class Soak:
    """The broker, table, score capture and accounts of one soak: ``run()``, then ``verdict()``."""

    def __init__(self, args: argparse.Namespace, tmp: Path, stack: ExitStack) -> None:
        self.args, self.tmp, self.rng = args, tmp, random.Random(args.seed)
        self.broker = stack.enter_context(MosquittoBroker(
            password_file=write_passwords(tmp / "passwords", PASSWORDS), acl_file=ACL,
            extra_config=f"persistence true\npersistence_location {tmp}/\n"))  # fmt: skip
        self.emulator = Emulator(time_scale=0.01, seed=args.seed)
        stack.callback(self.emulator.stop)
        port = self.emulator.start_pty()
        self.config = write_config(tmp, self.broker.url, extra=f'[table_port]\nurl = "{port}"\n')
        self.log = stack.enter_context((tmp / "table.log").open("w"))
        db = str(tmp / "scores.sqlite")
        self.scores = subprocess.Popen(
            [TILESIGHT, "scores", "--tournament", "hall", "--mqtt", self.broker.url, "--db", db],
            stdout=self.log, stderr=subprocess.STDOUT, env=ENV["scores"])  # fmt: skip
        stack.callback(self.scores.kill)
        self.overlay, self.referee, self.attacker = (
            stack.enter_context(Account(self.broker, user)) for user in ("overlay", "referee", "T2")
        )
        for probe, topic in ((self.overlay, "tilesight/v1/#"), (self.referee, REPLY),
                             (self.referee, f"{ROOT}/private/events/#")):  # fmt: skip
            probe.subscribe(topic)
        self.tables = stack.enter_context(ExitStack())
        self.table = self.start_table()
        self.cpu: dict[str, dict[int, float]] = {"table": {}, "broker": {}, "scores": {}}
        self.injected, self.unplanned, self.poisons = Counter[str](), 0, itertools.cycle(POISON)
        self.outcomes, self.errors = Counter[str](), Counter[str]()
        self.resends, self.stop, self.sent = 0, False, list[tuple[str, bytes]]()

    def start_table(self) -> subprocess.Popen[str]:
        self.tables.close()
        process = table_process(self.config, stdout=self.log, env=ENV["T05"])
        return self.tables.enter_context(process)

    def sample(self) -> None:  # CPU seconds so far: a process gone keeps its last figure
        for role, proc in (("table", self.table), ("broker", self.broker), ("scores", self.scores)):
            with suppress(OSError, IndexError):
                self.cpu[role][proc.pid or 0] = cpu_seconds(proc.pid or 0)

    def online(self) -> bool:
        return [m.payload for m in self.overlay.on("T05/status")][-1:] == [b"online"]

    def play(self) -> None:
        """Legitimate commands one at a time, each resent (same id) every 10 s unanswered."""
        commands = itertools.takewhile(lambda _: not self.stop, legit_commands(self.args.seed))
        for n, (verb, body) in enumerate(commands):  # the last one is waited for
            corr, started, due = f"legit-{n}".encode(), time.monotonic(), 0.0
            while not self.referee.answers.get(corr) and time.monotonic() - started < 120:
                if time.monotonic() >= due:
                    self.resends, due = self.resends + (due > 0), time.monotonic() + 10
                    with suppress(AssertionError):  # no PUBACK (broker restarting): resent
                        send(self.referee, verb, json.dumps(body), corr, command_id=corr.decode())
                time.sleep(0.01)
            answer = self.referee.answers.get(corr, [{"ok": None}])[0]
            self.outcomes[{True: "ok", False: "error", None: "unanswered"}[answer["ok"]]] += 1
            self.errors[f"{verb}: {answer.get('error', '')[:70]}"] += answer["ok"] is False

    def run(self) -> float:
        """Play and inject faults for ``--minutes``; the seconds it took."""
        end, minutes = self.args.minutes * 60, self.args.minutes
        wait_until(self.online, 30, "the table online")
        plan = [(self.rng.uniform(5, end - 5), kind)
                for kind, rate in RATES.items() for _ in range(round(rate * minutes))]  # fmt: skip
        plan.append((self.rng.uniform(0.3, 0.7) * end, "kill_table"))
        start = time.monotonic()
        (player := threading.Thread(target=self.play, daemon=True)).start()
        for at, kind in [*sorted(plan), (end, "")]:
            while time.monotonic() < start + at:
                self.sample()
                if self.table.poll() is not None:  # ended on its own: must never happen
                    self.unplanned += 1
                    self.table = self.start_table()
                time.sleep(0.2)
            if kind:
                self.inject(kind, f"{kind}-{self.injected[kind]}".encode())
                self.injected[kind] += 1
        self.emulator.faults.rate = 0.0
        self.stop = True
        player.join()
        return time.monotonic() - start

    def inject(self, kind: str, corr: bytes) -> None:
        referee, rng = self.referee, self.rng
        self.sample()  # CPU so far, before a process is stopped
        hostile = json.dumps({"alert": f"hostile-{corr.decode()}"})
        if kind == "deep_json":
            send(referee, "resync", NESTED, corr)
        elif kind == "bad_utf8":
            send(referee, "ack", b'{"alert": "\xff\xfe"}', corr)
        elif kind == "oversized_8mb":
            send(referee, "ack", b'{"alert": "hostile-8mb", "note": "' + b"x" * 2**23 + b'"}', corr)
        elif kind == "foreign_table":
            root = rng.choice(["tilesight/v1/other/T05", "tilesight/v1/hall/T06"])
            send(referee, "ack", hostile, corr, root=root)
        elif kind == "reply_outside":
            send(referee, "ack", hostile, corr, reply_to=rng.choice(ELSEWHERE))
        elif kind == "duplicate_id":
            alert = f"dup-{corr.decode()}"
            for copy in (b"a", b"b"):
                send(referee, "ack", json.dumps({"alert": alert}), corr + copy, command_id=alert)
        elif kind == "poisoned_score":
            self.attacker.client.publish(*next(self.poisons), qos=1)
        elif kind == "serial_noise":
            self.emulator.faults.rate = 0.05
            threading.Timer(rng.uniform(5, 15), setattr, (self.emulator.faults, "rate", 0)).start()
        elif kind == "broker_restart":
            self.broker.stop()
            time.sleep(rng.uniform(0.5, 3))
            self.broker.restart()
        elif kind == "kill_table":
            self.table.kill()  # SIGKILL
            self.table = self.start_table()
        self.sent.append((kind, corr))

    def standings(self) -> dict[tuple[str, int], int]:
        with closing(ScoreStore(self.tmp / "scores.sqlite")) as store:
            return {(s.table, s.seat): s.points for s in store.standings("hall")}

    def verdict(self, seconds: float) -> dict[str, Any]:
        """Figures, and under ``must`` what must have held."""
        time.sleep(3)  # the last events reach the accounts
        answers, out = self.referee.answers, self.overlay.on("")
        out = [m for m in out if m.topic.startswith(ROOT) and m.payload.startswith(b"{")]
        public = [json.loads(m.payload) | {"topic": m.topic} for m in out]
        events = [b for b in public if "/events/" in b["topic"]] + [json.loads(m.payload)
                  for m in self.referee.messages if "/private/events/" in m.topic]  # fmt: skip
        hands = {e["event_id"]: e["deltas"] for e in events if e["type"] == "hand_ended"}
        expected = {("T05", s): sum(d[s] for d in hands.values()) for s in range(4) if hands}
        with suppress(AssertionError):
            wait_until(lambda: self.standings() == expected, 30, "score capture caught up")
        standings, online, scores_alive = self.standings(), self.online(), self.scores.poll()
        self.scores.terminate()  # then killed at the end, if still running
        self.tables.close()
        ids: dict[tuple[int, int], set[str]] = {}
        for event in events:
            ids.setdefault((event["epoch"], event["seq"]), set()).add(event["event_id"])
        tops = {epoch: max(s for e, s in ids if e == epoch) for epoch, _ in ids}
        gaps = [(e, s) for e, top in tops.items() for s in range(1, top + 1) if (e, s) not in ids]
        handled = Counter(e["alert"] for e in events if e["type"] == "command_handled")
        leaks = [leak for b in public for leak in concealed_leaks(b.pop("topic"), b)]
        output = (self.tmp / "table.log").read_text(errors="replace")
        with closing(Outbox(self.tmp / "outbox.sqlite")) as outbox:
            quarantined = outbox.quarantined("T05")
        cpu = {role: round(sum(pids.values()), 1) for role, pids in self.cpu.items()}
        pairs = [(answers.get(c + b"a"), answers.get(c + b"b"), handled[f"dup-{c.decode()}"])
                 for kind, c in self.sent if kind == "duplicate_id"]  # fmt: skip
        return {
            "minutes": round(seconds / 60, 2), "faults": dict(sorted(self.injected.items())),
            "legit_commands": dict(self.outcomes), "legit_errors": dict(+self.errors),
            "resends": self.resends, "events": len(ids), "hands": len(hands),
            "duplicate_deliveries": len(events) - sum(map(len, ids.values())), "gaps": gaps[:10],
            "cpu_s": cpu | {"bench": round(sum(resource.getrusage(resource.RUSAGE_SELF)[:2]), 1)},
            "must": {
                "legit commands all answered": self.outcomes["unanswered"] == 0,
                "malformed commands refused with an answer": all([a["ok"] for a in answers.get(
                    c, [])] == [False] for kind, c in self.sent if kind in ANSWERED),
                "commands for elsewhere neither run nor answered": not any(
                    c in answers for kind, c in self.sent if kind in IGNORED) and not any(
                    str(alert).startswith("hostile") for alert in handled),
                "duplicate ids run once, each copy answered alike": all(
                    len(a or []) == 1 and a == b and n == 1 for a, b, n in pairs),
                "unplanned table restarts: 0": self.unplanned == 0,
                "seq gaps: 0": not gaps,
                "seqs with two event ids: 0": all(len(v) == 1 for v in ids.values()),
                "concealed tiles on public topics: 0": not leaks,
                "answers on public topics: 0": not any("ok" in b for b in public),
                "status online at the end": online,
                "score capture up, standings = the table's hands": scores_alive is None
                and standings == expected,
                "journal entries quarantined: 0": not quarantined,
                "worker crashes: 0": not any(e.get("code") == "worker_crashed" for e in events),
                "table exit 0, no traceback": self.table.returncode == 0
                and "Traceback" not in output,
            },
        }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=44)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="tilesight-soak-"))
    with ExitStack() as stack:
        soak = Soak(args, tmp, stack)
        result = soak.verdict(soak.run())
    must = result.pop("must")
    print(json.dumps(result, indent=1))
    print("\n".join(f"{name:<50}  {'held' if ok else 'FAILED'}" for name, ok in must.items()))
    if not all(must.values()):
        sys.exit(f"logs and databases kept in {tmp}")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
