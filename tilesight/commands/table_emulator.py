"""``tilesight table-emulator``: an emulated table-agent board on a pty or a TCP port."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "table-emulator",
        help="serve an emulated shuffling table on a pty or TCP",
        description="Speaks docs/table-protocol.md with realistic timings. Prints the port on "
        "its first line; on SIGINT/SIGTERM prints one JSON line of counts. SIGUSR1 unplugs and "
        "replugs the cable (the board power-cycles); SIGUSR2 makes the next shuffle jam; SIGHUP "
        "resets the board (watchdog) without unplugging.",
    )
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--pty", action="store_true", help="serve on a pseudo-terminal")
    where.add_argument("--listen", metavar="HOST:PORT", help="serve on TCP (port 0: any free)")
    parser.add_argument("--link", metavar="PATH", help="--pty: stable symlink to create")
    parser.add_argument("--fault-rate", type=float, default=0.0, metavar="P",
                        help="probability that each byte is dropped or corrupted (0)")  # fmt: skip
    parser.add_argument("--mechanical-fault-rate", type=float, default=0.0, metavar="P",
                        help="probability that a shuffle jams or comes up short (0)")  # fmt: skip
    parser.add_argument("--seed", type=int, help="random seed for faults and dice")
    parser.add_argument(
        "--time-scale", type=float, default=1.0, metavar="F",
        help="multiply mechanical timings by F (< 1 is faster; default 1)",
    )  # fmt: skip
    parser.set_defaults(handler=_run)


def _parse_listen(text: str) -> tuple[str, int]:
    from tilesight.cli import CliError

    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise CliError(f"--listen wants HOST:PORT, got {text!r}")
    return host, int(port)


def _run(args: argparse.Namespace) -> int:
    import json
    import signal
    import threading

    from devices.emulator import Emulator
    from tilesight.cli import CliError

    for name in ("fault_rate", "mechanical_fault_rate"):
        value = getattr(args, name)
        if not 0.0 <= value < 1.0:
            raise CliError(f"--{name.replace('_', '-')} must be in [0, 1), got {value!r}")
    if args.time_scale <= 0:
        raise CliError(f"--time-scale must be positive, got {args.time_scale!r}")
    listen = _parse_listen(args.listen) if args.listen else None
    emulator = Emulator(
        time_scale=args.time_scale, fault_rate=args.fault_rate, seed=args.seed,
        mechanical_fault_rate=args.mechanical_fault_rate,
    )  # fmt: skip
    try:
        port = emulator.start_tcp(*listen) if listen else emulator.start_pty(args.link)
    except OSError as exc:
        emulator.stop()
        raise CliError(f"cannot serve on {args.listen or args.link or 'a pty'}: {exc}") from None
    stop = threading.Event()
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGUSR1, lambda *_: emulator.unplug(replug_after=0.2))
    signal.signal(signal.SIGUSR2, lambda *_: emulator.arm(jam_side=1))
    signal.signal(signal.SIGHUP, lambda *_: emulator.reset())
    print(port, flush=True)
    try:
        while not stop.wait(0.5):
            pass
    finally:
        emulator.stop()
        print(json.dumps(emulator.report(), sort_keys=True), flush=True)
    return 0
