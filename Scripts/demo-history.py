#!/usr/bin/env python3
"""Adds 30 days (or DAYS) of *synthetic* history before the bundled snapshot, for the README picture.

The live feeds cannot be reached from the machines this project is built on, and no real daily
klines of November 2022 are in the repository, so this script walks each market's real price of
2022-11-22 back in time with a seeded random walk (a few % a day) and stores one run per day with the
real ECB rates of 2022-11-21. The figures are made up; only their shape matters for the picture.

    python3 Scripts/demo-history.py Output/history.sqlite [DAYS]   # after one run on the sample
"""
import os
import random
import sqlite3
import sys
import urllib.parse
from decimal import Decimal, getcontext

getcontext().prec = 30
path = sys.argv[1] if len(sys.argv) > 1 else "Output/history.sqlite"
day_count = int(sys.argv[2]) if len(sys.argv) > 2 else 30


def stored_last(stored):
    """A last price as the store keeps it (StoredNumber.swift): m × 64 + (e + 32), or plain text."""
    if isinstance(stored, int):
        return Decimal(stored >> 6).scaleb((stored & 63) - 32)
    if isinstance(stored, bytes):  # [exponent, sign, mantissa bytes, least first]
        mantissa = int.from_bytes(stored[2:], "little")
        return Decimal(-mantissa if stored[1] else mantissa).scaleb(int.from_bytes(stored[:1], "little", signed=True))
    return Decimal(stored)


def stored_figure(stored, last):
    """Another figure: (m − m_last) × 2 beside an integer last price, full × 2 + 1, text or NULL."""
    if stored is None or not isinstance(stored, int):
        return None if stored is None else stored_last(stored)
    if stored & 1:
        return stored_last(stored >> 1)
    return Decimal((last >> 6) + (stored >> 1)).scaleb((last & 63) - 32)


first_run = "run cryptoreport --sample --history %s first, so the history holds the real snapshot" % path
# Opened read-write only if it is there: sqlite3 would make an empty database of a mistyped name.
try:
    db = sqlite3.connect("file:%s?mode=rw" % urllib.parse.quote(os.path.abspath(path)), uri=True)
    run = db.execute("SELECT id, source_time, rates_date FROM run ORDER BY source_time DESC LIMIT 1").fetchone()
except sqlite3.Error as error:
    sys.exit("demo-history: %s: %s; %s" % (path, error, first_run))
if run is None:
    sys.exit("demo-history: %s holds no run; %s" % (path, first_run))
run_id, source_time, rates_date = run
# Schema v4 (Sources/CryptoReport/History/HistoryStore+Schema.swift): names in market_name, figures
# as integers or, as here, as plain decimal text, which the store reads as well.
markets = [
    (name_id, symbol, stored_last(last), stored_figure(volume, last))
    for name_id, symbol, last, volume in db.execute(
        "SELECT m.name_id, n.symbol, m.last, m.volume FROM market m JOIN market_name n ON n.id = m.name_id WHERE m.run_id = ?",
        (run_id,))
]
rates = db.execute("SELECT currency, per_euro FROM rate WHERE date = ?", (rates_date,)).fetchall()
# The holdings' totals of the real run (schema v9, with --holding), if any: each synthetic day's
# follows BTC/USDT's walk, a made-up line like the prices.
has_holdings = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'holdings_total'").fetchone() is not None
holdings = db.execute("SELECT currency, total FROM holdings_total WHERE run_id = ?", (run_id,)).fetchall() if has_holdings else []
random.seed(20221122)
walk = {symbol: last for _, symbol, last, _ in markets}
real_btc = walk.get("btcusdt")
day_ms = 86_400_000
with db:
    for days_back in range(1, day_count + 1):
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
        for name_id, symbol, _, volume in markets:
            walk[symbol] = walk[symbol] / (Decimal(1) + Decimal(random.gauss(0.004, 0.035)).quantize(Decimal("0.0001")))
            # `at` 0: the ticker's time is the run's own.
            rows.append((new_id, name_id, "{:f}".format(walk[symbol].normalize()), None if volume is None else "{:f}".format(volume), 0))
        db.executemany("INSERT INTO market (run_id, name_id, last, volume, at) VALUES (?, ?, ?, ?, ?)", rows)
        if real_btc:
            db.executemany("INSERT INTO holdings_total (run_id, currency, total) VALUES (?, ?, ?)",
                           [(new_id, currency, "{:f}".format((Decimal(total) * walk["btcusdt"] / real_btc).normalize())) for currency, total in holdings])
print("added synthetic days to", path)
