# cryptoreport — see README.md.
SWIFT    ?= swift
PREFIX   ?= /usr/local
CURRENCY ?= USD
FORMAT   ?= all
OUTPUT   ?= Output
BIN      := .build/release/cryptoreport

.PHONY: build demo test report install embed clean fuzz fuzz-smoke bench

## Release binary at .build/release/cryptoreport.
build:
	$(SWIFT) build -c release --product cryptoreport

## The full report on the bundled real snapshot, in SEK, every format, into Output/.
demo: build
	$(BIN) --sample --currency SEK --format all --output $(OUTPUT)

## Every test: unit, golden files, loopback HTTP, and the built executable end to end.
test:
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

## A live report: CURRENCY=SEK FORMAT=html make report
report: build
	$(BIN) --currency $(CURRENCY) --format $(FORMAT) --output $(OUTPUT)

## Installs the binary into $(PREFIX)/bin; it carries its templates and sample.
install: build
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 0755 $(BIN) "$(DESTDIR)$(PREFIX)/bin/cryptoreport"

## Rewrites the built-in copies of Templates/ and Samples/ after a change to them.
embed:
	python3 Scripts/embed-resources.py

clean:
	rm -rf .build

## libFuzzer on the four parsers (tickers, ECB, ECB history, klines), 1,000,000 runs each (Scripts/fuzz.sh; outputs in .build-fuzz/).
fuzz:
	RUNS=$${RUNS:-1000000} MAX_TIME=$${MAX_TIME:-0} Scripts/fuzz.sh

## A short bounded fuzz pass for CI: 100,000 runs or 40 s per harness, whichever comes first (about a minute with the builds).
## A fixed seed, so that CI's pass stays on the ground covered here (`make fuzz` explores with new seeds).
fuzz-smoke:
	RUNS=100000 MAX_TIME=40 SEED=1 Scripts/fuzz.sh

PEER_BENCH   ?= ../shared/tools/bench-vs-peer
SIZES        ?= 450,10000,100000
HISTORY_DAYS ?= 30

## Micro-benchmarks of the number paths (fast against Foundation), then the release binary against
## the pandas peer at SIZES tickers with HISTORY_DAYS days of history (README, "Performance").
bench: build
	$(SWIFT) run -c release cryptoreport-bench
	$(PEER_BENCH) --bin $(BIN) --sizes $(SIZES) --history-days $(HISTORY_DAYS)
