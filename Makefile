# cryptoreport — see README.md.
SWIFT    ?= swift
PREFIX   ?= /usr/local
CURRENCY ?= USD
FORMAT   ?= all
OUTPUT   ?= Output
BIN      := .build/release/cryptoreport
SHARE    := .build/share
# The commit `--version` names; "-dirty" when the working tree has changes.
COMMIT   := $(shell git describe --always --dirty --abbrev=7 2>/dev/null)

.PHONY: lint format commit-header build demo test browser-test report install clean fuzz fuzz-smoke bench completions man check-static

## Release binary at .build/release/cryptoreport, with the Swift runtime and Foundation linked in
## statically: it needs only system libraries (libc, libstdc++, libxml2, SQLite, zlib) where it is installed.
## No `$ORIGIN` run path: the loader looked for each of them in the binary's own folder first (40 failed
## lookups a run).
build: commit-header
	$(SWIFT) build -c release --product cryptoreport --static-swift-stdlib --disable-local-rpath

# The commit for `--version`, rewritten only when it changes (Sources/CBuildInfo/build_info.c), and
# that file touched then: compiled once before the header existed (a plain `swift build`), its
# dependencies do not name the header, and the binary kept saying no commit.
commit-header:
	@mkdir -p .build
	@echo '#define CRYPTOREPORT_COMMIT "$(COMMIT)"' > .build/build-commit.h.new
	@cmp -s .build/build-commit.h.new .build/build-commit.h && rm .build/build-commit.h.new || { mv .build/build-commit.h.new .build/build-commit.h; touch Sources/CBuildInfo/build_info.c; }

## The full report on the bundled real snapshot, in SEK, every format, into Output/. On the debug
## build, which `make test` then reuses: a first release build takes minutes more (`make build`).
DEBUG_BIN := .build/debug/cryptoreport
demo:
	$(SWIFT) build --product cryptoreport
	$(DEBUG_BIN) --sample --currency SEK --format all --output $(OUTPUT)
	@echo "Open $(OUTPUT)/cryptoreport-2022-11-22-SEK.html. Trends and charts come once a history holds earlier days: docs/history.md (a daily run, or backfill)."

## Every test: unit, golden files, loopback HTTP, and the built executable end to end.
## Two runs: the in-process HTTP suites first, on their own. Their time limits are measured in the
## test's task, and the tests that run the binary block a thread of Swift's concurrency pool while
## it runs; on 2 cores that can hold a finished exchange past a test's limit.
NET_SUITES := HTTPClientTests|HTTPIntegrationTests|FaultInjectionTests|SourceFallbackTests|NoticeTests
test:
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --filter '$(NET_SUITES)'
	$(SWIFT) test --skip-build --skip '$(NET_SUITES)'

## The code's style, as .swift-format says it (CI runs `make lint`; `make format` rewrites in place).
STYLE_PATHS := Sources Tests Plugins Package.swift
lint:
	swift-format lint --strict --recursive $(STYLE_PATHS)
format:
	swift-format format --in-place --recursive $(STYLE_PATHS)

## The HTML report in Debian's Chromium through Playwright for Python (Tests/Browser/test_page.py,
## pytest), on reports the debug binary makes. Needs chromium, pytest, playwright and
## axe-playwright-python, which .ci/run installs when missing.
browser-test:
	$(SWIFT) build --product cryptoreport
	CRYPTOREPORT_BINARY=.build/debug/cryptoreport python3 -m pytest -q Tests/Browser

## A live report: CURRENCY=SEK FORMAT=html make report
report: build
	$(BIN) --currency $(CURRENCY) --format $(FORMAT) --output $(OUTPUT)

## Shell completions for bash, zsh and fish, from the built binary, into .build/share/.
completions: build
	install -d $(SHARE)
	$(BIN) --generate-completion-script bash > $(SHARE)/cryptoreport.bash
	$(BIN) --generate-completion-script zsh > $(SHARE)/_cryptoreport
	$(BIN) --generate-completion-script fish > $(SHARE)/cryptoreport.fish

## The man page, cryptoreport.1, by swift-argument-parser's generate-manual plugin (from a debug
## build: the help text is the same, and the plugin's own release build would take minutes).
man:
	install -d $(SHARE)
	$(SWIFT) package --allow-writing-to-package-directory generate-manual --configuration debug
	@# A blank line of the help's discussion is a paragraph break in mdoc, not an empty line.
	sed 's/^$$/.Pp/' .build/plugins/GenerateManual/outputs/cryptoreport/cryptoreport.1 > $(SHARE)/cryptoreport.1

## Installs the stripped binary into $(PREFIX)/bin (it carries its templates and sample), its man
## page and its shell completions into $(PREFIX)/share.
install: build completions man
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/man/man1" \
		"$(DESTDIR)$(PREFIX)/share/bash-completion/completions" "$(DESTDIR)$(PREFIX)/share/zsh/site-functions" \
		"$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d"
	install -m 0755 -s $(BIN) "$(DESTDIR)$(PREFIX)/bin/cryptoreport"
	install -m 0644 $(SHARE)/cryptoreport.1 "$(DESTDIR)$(PREFIX)/share/man/man1/cryptoreport.1"
	install -m 0644 $(SHARE)/cryptoreport.bash "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/cryptoreport"
	install -m 0644 $(SHARE)/_cryptoreport "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_cryptoreport"
	install -m 0644 $(SHARE)/cryptoreport.fish "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/cryptoreport.fish"

## Checks that the release binary links no Swift runtime or Foundation library dynamically (CI runs it).
check-static: build
	@ldd $(BIN)
	@if ldd $(BIN) | grep -E 'libswift|libFoundation|libdispatch|lib_Foundation'; then \
		echo "check-static: $(BIN) needs the Swift toolchain's libraries" >&2; exit 1; fi
	@echo "check-static: $(BIN) needs only system libraries"

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
## the pandas peer at SIZES tickers with HISTORY_DAYS days of history (docs/performance.md).
bench: build
	$(SWIFT) run -c release cryptoreport-bench
	$(PEER_BENCH) --bin $(BIN) --sizes $(SIZES) --history-days $(HISTORY_DAYS)
