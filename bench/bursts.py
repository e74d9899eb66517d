"""Cold bursts: 1,000 and 2,000 `/yz` sent at once to a freshly started bot, over TLS as Discord serves them.

The fake Discord serves HTTPS and WSS with a certificate from a throwaway CA (trustme), which the bot's process
trusts through SSL_CERT_FILE, so each new connection costs the bot the TLS handshake it costs against Discord.
Each burst goes to a new bot process right after it is ready: nothing in its connection pool but what the
start-up used. The bot acknowledges first and then edits its card in: a late answer is one whose acknowledgement
came more than 3 s after its interaction was sent (Discord's window, which only the first callback must meet; the
player sees "This interaction failed"). Printed per burst size and connection pool: late answers, p50, p95, p99
and the longest wait for the acknowledgement, p50 and p99 of the final answer (the card), and the bot's CPU
time. Both pools are measured: rollkeeper's (`bot.app.connections.discord_connector`) and discord.py's default (no
limit), which the bot used before; any --connections N adds a pool of that size.
Target: 0 late at 1,000 with rollkeeper's pool.

    python -m bench.bursts [--sizes 1000 2000] [--rtt 50] [--connections 64 256]
"""

from __future__ import annotations

import argparse
import asyncio
import ssl
import sys
import tempfile
from pathlib import Path

import trustme

from bench.fake import (
    Answered,
    cpu_seconds,
    fake_discord,
    forget,
    players,
    running,
    send_at_once,
    slash_payload,
    table_of,
)
from bench.figures import percentile, verdict

WINDOW = 3.0
ROUND_TRIP = 0.050
"""Seconds the fake waits before each REST answer: a round trip to Discord (the handshakes themselves pay none)."""
PLAYERS = players(200)
COMMAND = ("yz", {"attribute": 4, "skill": 3, "gear": 2})
POOLS = {"rollkeeper's pool": (), "discord.py default": ("--default-connector",)}


def certificates(directory: Path) -> tuple[ssl.SSLContext, dict[str, str]]:
    """A server context for 127.0.0.1 and the environment that makes a child process trust it."""
    authority = trustme.CA()
    server = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    authority.issue_cert("127.0.0.1").configure_cert(server)
    bundle = directory / "ca.pem"
    authority.cert_pem.write_to_path(str(bundle))
    return server, {"SSL_CERT_FILE": str(bundle)}


async def burst(
    size: int, options: tuple[str, ...], directory: Path, round_trip: float = ROUND_TRIP
) -> tuple[list[Answered], float | None]:
    """The answers to `size` /yz sent at once to a new bot process, and the CPU seconds it spent on them."""
    tls, env = certificates(directory)
    async with fake_discord(tls) as fake:
        fake.backend.latency = round_trip
        db = Path(tempfile.mkstemp(suffix=".sqlite3", dir=directory)[1])  # a new bot: a new database
        async with running(fake, "ours", db=db, env=env, options=options) as bot:
            payloads = [
                slash_payload(fake, *COMMAND, PLAYERS[n % len(PLAYERS)], table_of(n)) for n in range(size)
            ]
            cpu_before = cpu_seconds(bot.process.pid)
            answered = await send_at_once(fake, payloads, timeout=120.0)
            cpu_after = cpu_seconds(bot.process.pid)
            forget(fake)
    cpu = cpu_after - cpu_before if cpu_before is not None and cpu_after is not None else None
    return answered, cpu


def report(size: int, pool: str, answered: list[Answered], cpu: float | None) -> int:
    acknowledged = [one.acknowledgement for one in answered]
    late = sum(latency > WINDOW for latency in acknowledged)
    p50, p95, p99 = (percentile(acknowledged, f) * 1e3 for f in (0.5, 0.95, 0.99))
    final50, final99 = (percentile([one.latency for one in answered], f) * 1e3 for f in (0.5, 0.99))
    spent = f"; bot CPU {cpu:.2f} s" if cpu is not None else ""
    print(f"  {size:>5} at once, {pool:<18}: {late:>4} late (> {WINDOW:.0f} s); acknowledged p50 {p50:.0f} ms, "
          f"p95 {p95:.0f} ms, p99 {p99:.0f} ms, longest {max(acknowledged) * 1e3:.0f} ms; "
          f"card p50 {final50:.0f} ms, p99 {final99:.0f} ms{spent}")
    return late


def run(sizes: tuple[int, ...], round_trip: float = ROUND_TRIP) -> bool:
    print(f"cold bursts of /yz over TLS, each to a freshly started bot; {round_trip * 1e3:.0f} ms per REST round trip")
    late_at_target = None
    with tempfile.TemporaryDirectory(prefix="rollkeeper-bursts-") as directory:
        for size in sizes:
            for pool, options in POOLS.items():
                late = report(size, pool, *asyncio.run(burst(size, options, Path(directory), round_trip)))
                if size == min(sizes) and not options:
                    late_at_target = late
    ok = late_at_target == 0
    print(f"bursts verdict: {verdict(ok)} ({late_at_target} late at {min(sizes):,} with rollkeeper's pool; target 0)")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bursts", description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 2000])
    parser.add_argument("--connections", type=int, nargs="*", default=[], help="also measure pools of these sizes")
    parser.add_argument("--rtt", type=float, default=ROUND_TRIP * 1e3, help="ms per REST round trip (default 50)")
    args = parser.parse_args(argv)
    for limit in args.connections:
        POOLS[f"a pool of {limit}"] = ("--connections", str(limit))
    return 0 if run(tuple(args.sizes), args.rtt / 1e3) else 1


if __name__ == "__main__":
    sys.exit(main())
