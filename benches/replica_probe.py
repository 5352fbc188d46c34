#!/usr/bin/env python3
"""Replica lag and read-wait sampler for benches/replica_bench.sh.

Runs until SIGTERM, then prints one JSON object on stdout:

- heartbeat: every HB_MS (200) ms the primary writes NOW(6) (its own clock)
  into HB_SCHEMA.heartbeat; every 100 ms the replica reads it and the lag
  sample is the replica's NOW(6) minus that stamp (both servers run on one
  machine, one clock). A sample is at most the heartbeat interval plus the
  real lag.
- probe: every 100 ms a point SELECT by primary key on SCHEMA.TABLE on the
  replica; its wall time is the wait a replica read saw (a read queued
  behind a replayed ALTER's metadata lock waits here). A probe still
  running at the stop counts with its time so far.
- hold (optional): a transaction opened on the replica that reads TABLE
  and stays open HOLD seconds (a replica read transaction, as a reporting
  job holds one).

Shell loops spawning a client cannot keep a 100 ms cadence on a busy
2-core machine, hence this helper (PyMySQL, installed by the bench).
"""

import argparse
import json
import random
import signal
import threading
import time

import pymysql


def connect(port, db=None):
    return pymysql.connect(
        host="127.0.0.1", port=port, user="root", password="", database=db,
        autocommit=True, connect_timeout=10,
    )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--primary", type=int, required=True)
    ap.add_argument("--replica", type=int, required=True)
    ap.add_argument("--hb-schema", required=True)
    ap.add_argument("--schema", required=True)
    ap.add_argument("--table", required=True)
    ap.add_argument("--max-id", type=int, required=True)
    ap.add_argument("--hb-ms", type=int, default=200)
    ap.add_argument("--hold", type=float, default=0.0)
    a = ap.parse_args()

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    t0 = time.monotonic()
    lags = []  # (seconds since start, lag seconds)
    probes = []  # (seconds since start, wall seconds)
    inflight = {}  # probe started at (monotonic), while it runs
    errors = []
    hold_info = {}

    def writer():
        c = connect(a.primary, a.hb_schema)
        with c.cursor() as cur:
            while not stop.is_set():
                try:
                    cur.execute("UPDATE heartbeat SET ts = NOW(6) WHERE id = 1")
                except Exception as e:  # noqa: BLE001 - recorded, not fatal
                    errors.append(f"heartbeat write: {e}")
                stop.wait(a.hb_ms / 1000)

    def sampler():
        c = connect(a.replica, a.hb_schema)
        nxt = time.monotonic()
        with c.cursor() as cur:
            while not stop.is_set():
                try:
                    cur.execute(
                        "SELECT ts, TIMESTAMPDIFF(MICROSECOND, ts, NOW(6)) FROM heartbeat WHERE id = 1")
                    ts, us = cur.fetchone()
                    if ts >= first:
                        lags.append((time.monotonic() - t0, us / 1e6))
                except Exception as e:  # noqa: BLE001
                    errors.append(f"lag sample: {e}")
                nxt += 0.1
                stop.wait(max(0.0, nxt - time.monotonic()))

    def prober():
        c = connect(a.replica, a.schema)
        nxt = time.monotonic()
        with c.cursor() as cur:
            while not stop.is_set():
                started = time.monotonic()
                inflight["at"] = started
                try:
                    cur.execute(f"SELECT * FROM `{a.table}` WHERE Id = %s",
                                (random.randint(1, a.max_id),))
                    cur.fetchall()
                except Exception as e:  # noqa: BLE001 - e.g. pt-osc's table swap
                    errors.append(f"probe: {e}")
                inflight.pop("at", None)
                probes.append((started - t0, time.monotonic() - started))
                nxt = max(nxt + 0.1, time.monotonic())
                stop.wait(max(0.0, nxt - time.monotonic()))

    # Other sessions sharing the pair (tests stopping or delaying the
    # applier) would distort the figures: the replica's applier is looked
    # at every second and any look with it stopped or delayed is counted.
    disturbed = []

    def watcher():
        c = connect(a.replica)
        with c.cursor(pymysql.cursors.DictCursor) as cur:
            while not stop.is_set():
                try:
                    try:
                        cur.execute("SHOW REPLICA STATUS")
                    except pymysql.err.MySQLError:
                        cur.execute("SHOW SLAVE STATUS")
                    row = cur.fetchone() or {}
                    running = row.get("Replica_SQL_Running", row.get("Slave_SQL_Running"))
                    delay = row.get("SQL_Delay") or 0
                    if running != "Yes" or int(delay) != 0:
                        disturbed.append((round(time.monotonic() - t0, 1), running, delay))
                except Exception as e:  # noqa: BLE001
                    errors.append(f"replica status: {e}")
                stop.wait(1.0)

    def holder():
        c = connect(a.replica, a.schema)
        with c.cursor() as cur:
            cur.execute("START TRANSACTION")
            cur.execute(f"SELECT COUNT(*) FROM `{a.table}` WHERE Id <= 10")
            hold_info["opened_at"] = time.monotonic() - t0
            stop.wait(a.hold)
            cur.execute("COMMIT")
            hold_info["closed_at"] = time.monotonic() - t0

    # The first heartbeat of this run, written before sampling starts: a
    # replica sample older than it is a stamp of an earlier run, skipped.
    with connect(a.primary, a.hb_schema).cursor() as cur:
        cur.execute("SELECT NOW(6)")
        (first,) = cur.fetchone()
        cur.execute("UPDATE heartbeat SET ts = %s WHERE id = 1", (first,))

    threads = [threading.Thread(target=f, daemon=True) for f in (writer, sampler, prober, watcher)]
    if a.hold > 0:
        threads.append(threading.Thread(target=holder, daemon=True))
    for t in threads:
        t.start()
    while not stop.is_set():
        stop.wait(0.2)
    now = time.monotonic()
    if "at" in inflight:
        probes.append((inflight["at"] - t0, now - inflight["at"]))
    for t in threads:
        t.join(timeout=2)

    lag_values = sorted(v for _, v in lags)

    def pct(vals, p):
        if not vals:
            return None
        k = min(len(vals) - 1, max(0, int(round(p / 100 * len(vals) + 0.5)) - 1))
        return vals[k]

    waits = [w for _, w in probes]
    slow = [(round(s, 2), round(w, 3)) for s, w in probes if w > 0.5]
    print(json.dumps({
        "duration_s": round(now - t0, 3),
        "lag_samples": len(lags),
        "lag_max_s": round(max(lag_values), 3) if lag_values else None,
        "lag_p99_s": round(pct(lag_values, 99), 3) if lag_values else None,
        "lag_p50_s": round(pct(lag_values, 50), 3) if lag_values else None,
        "probes": len(probes),
        "probe_max_s": round(max(waits), 3) if waits else None,
        "probes_slow": slow[:20],
        "hold": hold_info,
        "replica_disturbed": disturbed[:10],
        "replica_disturbed_count": len(disturbed),
        "errors": errors[:10],
        "error_count": len(errors),
    }))


if __name__ == "__main__":
    main()
