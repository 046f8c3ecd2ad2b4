#!/usr/bin/env python3
"""Adds 30 days of *synthetic* history before the bundled snapshot, for the README picture.

The live feeds cannot be reached from the machines this project is built on, and no real daily
klines of November 2022 are in the repository, so this script walks each market's real price of
2022-11-22 back in time with a seeded random walk (a few % a day) and stores one run per day with the
real ECB rates of 2022-11-21. The figures are made up; only their shape matters for the picture.

    python3 Scripts/demo-history.py Output/history.sqlite   # after one run on the sample
"""
import random
import sqlite3
import sys
from decimal import Decimal, getcontext

getcontext().prec = 30
path = sys.argv[1] if len(sys.argv) > 1 else "Output/history.sqlite"
db = sqlite3.connect(path)
run = db.execute("SELECT id, source_time, rates_date FROM run ORDER BY source_time DESC LIMIT 1").fetchone()
if run is None:
    sys.exit("run the report on --sample first, so the history holds the real snapshot")
run_id, source_time, rates_date = run
markets = db.execute("SELECT symbol, base_asset, quote_asset, last, volume FROM market WHERE run_id = ?", (run_id,)).fetchall()
rates = db.execute("SELECT currency, per_euro FROM rate WHERE date = ?", (rates_date,)).fetchall()
random.seed(20221122)
walk = {symbol: Decimal(last) for symbol, _, _, last, _ in markets}
day_ms = 86_400_000
with db:
    for days_back in range(1, 31):
        time = source_time - days_back * day_ms
        date = "2022-10-%02d" % (31 - days_back) if days_back < 31 else None
        date = __import__("datetime").datetime.utcfromtimestamp((time - day_ms) / 1000).strftime("%Y-%m-%d")
        db.executemany("INSERT OR IGNORE INTO rate (date, currency, per_euro) VALUES (?, ?, ?)", [(date, c, r) for c, r in rates])
        cur = db.execute(
            "INSERT OR IGNORE INTO run (source_time, fetched_at, rates_date, tickers_status, tickers_location, rates_status, rates_location, kind)"
            " VALUES (?, ?, ?, 'synthetic', 'Scripts/demo-history.py', 'synthetic', 'ECB 2022-11-21', 'report')",
            (time, time, date))
        if cur.rowcount == 0:
            continue
        new_id = cur.lastrowid
        rows = []
        for symbol, base, quote, _, volume in markets:
            walk[symbol] = walk[symbol] / (Decimal(1) + Decimal(random.gauss(0.004, 0.035)).quantize(Decimal("0.0001")))
            rows.append((new_id, symbol, base, quote, str(walk[symbol].normalize()), volume, time))
        db.executemany("INSERT INTO market (run_id, symbol, base_asset, quote_asset, last, volume, at) VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
print("added synthetic days to", path)
