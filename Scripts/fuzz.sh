#!/usr/bin/env bash
# Builds the libFuzzer harnesses in Fuzz/ and runs each one.
#
#   Scripts/fuzz.sh                          # every harness, 1,000,000 runs each (make fuzz)
#   RUNS=100000 MAX_TIME=40 Scripts/fuzz.sh  # a bounded pass (make fuzz-smoke, CI)
#   Scripts/fuzz.sh ecb                      # one harness: tickers, ecb, history or klines
#
# tickers and ecb are the daily report's two parsers; history (the streaming ECB reader, checked
# against the tree parser) and klines are backfill's.
#
# Environment:
#   RUNS       executions per harness (default 1000000)
#   MAX_TIME   seconds per harness, 0 for no limit (default 0); the run stops at whichever comes first
#   SEED       libFuzzer's random seed; 0 (the default) picks a new one each run. CI fixes it so
#              that its short pass walks the same ground each time instead of new ground; not
#              exactly the same (Foundation's own work varies a little), so explore with `make fuzz`.
#   MAX_LEN    largest input libFuzzer generates, in bytes (default 4096: small inputs run fast and
#              reach the same code; longer seeds are truncated to it when loaded)
#   OPT        -O (default) or -Onone
#   SWIFTC     the compiler (default: swiftc)
#
# Each harness is compiled straight from the library files it needs, with no SwiftPM build, into
# .build-fuzz/. The corpus grows in .build-fuzz/corpus-<name>, seeded with the real fixtures, the
# hand-made seeds in Fuzz/seeds/<name>/ and the tests' bad-input and fuzz-regression fixtures.
# Crashing inputs land in .build-fuzz/artifacts-<name>/ and the full libFuzzer output in
# .build-fuzz/fuzz-<name>.log. A crash fails the script: minimise it (the binary with -minimize_crash=1),
# fix it, and keep the input in Tests/CryptoReportTests/Fixtures/fuzz-regressions/<name>/.
set -euo pipefail

cd "$(dirname "$0")/.."

RUNS="${RUNS:-1000000}"
MAX_TIME="${MAX_TIME:-0}"
MAX_LEN="${MAX_LEN:-4096}"
SEED="${SEED:-0}"
OPT="${OPT:--O}"
SWIFTC="${SWIFTC:-swiftc}"
OUT=.build-fuzz
LIB=Sources/CryptoReport

# The library files each harness needs: its parser and what the parser refers to. Both parsers
# share DataError, DecimalText and TickerDecoder's message helpers; keep these lists in step with
# the parsers' dependencies (the compiler names any file missing here).
COMMON=(Fuzz/FuzzSupport.swift "$LIB/Model/DataError.swift" "$LIB/Model/DecimalText.swift" "$LIB/Parsing/TickerDecoder.swift" "$LIB/Parsing/RawTickerRow.swift" "$LIB/Parsing/TickerScanner.swift"
    "$LIB/Parsing/JSONScalar.swift" "$LIB/Parsing/SourceText.swift" "$LIB/Model/DecimalParts.swift" "$LIB/Model/DecimalOrder.swift" "$LIB/Model/ByteSink.swift" "$LIB/Model/FastDecimal.swift" "$LIB/Model/DataSource.swift" "$LIB/Model/Ticker.swift"
    "$LIB/Model/Diagnostic.swift" "$LIB/Model/ExitStatus.swift" "$LIB/Model/Exchange.swift")

# libxml2's flags, from pkg-config when it is there.
if XML_CFLAGS=$(pkg-config --cflags libxml-2.0 2>/dev/null) && XML_LIBS=$(pkg-config --libs libxml-2.0 2>/dev/null); then
    :
else
    XML_CFLAGS=-I/usr/include/libxml2
    XML_LIBS=-lxml2
fi

# lld links the sanitizer runtimes without the pages of warnings gold prints; use it when present.
LINKER=()
if command -v ld.lld >/dev/null 2>&1 || [ -x "$(dirname "$(command -v "$SWIFTC")")/ld.lld" ]; then
    LINKER=(-use-ld=lld)
fi

build() {
    local name=$1
    shift
    echo "== building $OUT/fuzz-$name"
    "$SWIFTC" -sanitize=fuzzer,address -parse-as-library -package-name cryptoreport "$OPT" -g "${LINKER[@]}" \
        -module-name "Fuzz_$name" -o "$OUT/fuzz-$name" "$@"
}

build_tickers() {
    build tickers Fuzz/TickerDecoderFuzz.swift "${COMMON[@]}"
}

build_klines() {
    build klines Fuzz/KlinesDecoderFuzz.swift "${COMMON[@]}" "$LIB/Parsing/KlinesDecoder.swift"
}

# An XML harness: its entry file, then any more library files, compiled with the ECB tree parser
# and linked against libxml2.
build_xml() {
    local name=$1 harness=$2
    shift 2
    local cflags=() libs=() flag
    for flag in $XML_CFLAGS; do cflags+=(-Xcc "$flag"); done
    for flag in $XML_LIBS; do libs+=("$flag"); done
    build "$name" "$harness" "${COMMON[@]}" "$@" \
        "$LIB/Parsing/ECBRatesParser.swift" "$LIB/Parsing/XMLPrologue.swift" "$LIB/Model/ExchangeRates.swift" \
        "$LIB/Parsing/ExchangeRates+Recording.swift" "$LIB/Converting/ConversionError.swift" "$LIB/Converting/ExchangeRates+Conversion.swift" \
        -I Sources/CLibXML2 "${cflags[@]}" "${libs[@]}"
}

# Seeds: the real fixtures, the hand-made seeds in Fuzz/seeds/<name>/, the bad-input corpus of
# the tests and the fuzz regressions. Copied under their own names, so reseeding never duplicates them.
seed() {
    local name=$1 corpus_folder=$2
    shift 2
    local corpus="$OUT/corpus-$name" folder
    mkdir -p "$corpus"
    cp "$@" "$corpus"/
    for folder in Fuzz/seeds/"$name" Tests/CryptoReportTests/Fixtures/corpus/"$corpus_folder" \
        Tests/CryptoReportTests/Fixtures/fuzz-regressions/"$name"; do
        [ -d "$folder" ] || continue
        find "$folder" -maxdepth 1 -type f ! -name '.*' -exec cp {} "$corpus"/ \;
    done
}

run() {
    local name=$1 dict=$2
    local corpus="$OUT/corpus-$name" artifacts="$OUT/artifacts-$name/" log="$OUT/fuzz-$name.log"
    mkdir -p "$artifacts"
    echo "== fuzzing $name: runs=$RUNS max_total_time=$MAX_TIME max_len=$MAX_LEN (log: $log)"
    local status=0
    # -timeout: an input that takes 10 s is a hang worth reporting; -rss_limit_mb: memory blow-ups too.
    # Swift's own crash backtracer would race libFuzzer's handler (and trip ASan); leave crashes to libFuzzer.
    # Swift seeds its hashing at random in each process, which makes Set and Dictionary order,
    # and so coverage, differ between runs: deterministic hashing keeps a fixed SEED close to repeatable.
    SWIFT_BACKTRACE=enable=no SWIFT_DETERMINISTIC_HASHING=1 \
        "$OUT/fuzz-$name" "$corpus" -dict="$dict" -runs="$RUNS" -max_total_time="$MAX_TIME" \
        -max_len="$MAX_LEN" -seed="$SEED" -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$artifacts" \
        -print_final_stats=1 >"$log" 2>&1 || status=$?
    # The summary: the last status line, libFuzzer's "Done" line and its final statistics.
    grep -E '^#[0-9]+' "$log" | tail -n 1 || true
    grep -E '^Done |^stat::' "$log" || true
    echo "corpus: $(find "$corpus" -type f | wc -l) files"
    if [ "$status" -ne 0 ]; then
        echo "!! fuzz-$name failed (exit $status); crashing inputs:" >&2
        ls -l "$artifacts" >&2 || true
        grep -E 'ERROR|Fatal error|SUMMARY|Test unit written' "$log" >&2 || true
        return "$status"
    fi
}

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(tickers ecb history klines)

ECB_SAMPLES=(Samples/eurofxref-daily-2022-11-21.xml Tests/CryptoReportTests/Fixtures/eurofxref-hist-90d-2025-02-25.xml)

mkdir -p "$OUT"
failed=0
for name in "${targets[@]}"; do
    case "$name" in
    tickers)
        build_tickers
        seed tickers tickers Samples/tickers-24hr-2022-11-22.json
        run tickers Fuzz/json.dict || failed=1
        ;;
    ecb)
        build_xml ecb Fuzz/ECBRatesParserFuzz.swift
        seed ecb rates "${ECB_SAMPLES[@]}"
        run ecb Fuzz/xml.dict || failed=1
        ;;
    history)
        build_xml history Fuzz/ECBHistoryReaderFuzz.swift "$LIB/Parsing/ECBHistoryReader.swift"
        # The same seeds as ecb: both readers must make the same of every one.
        seed history rates "${ECB_SAMPLES[@]}" Fuzz/seeds/ecb/*
        run history Fuzz/xml.dict || failed=1
        ;;
    klines)
        build_klines
        seed klines klines Fuzz/seeds/klines/*
        run klines Fuzz/json.dict || failed=1
        ;;
    *)
        echo "unknown harness '$name' (tickers, ecb, history or klines)" >&2
        exit 64
        ;;
    esac
done
exit "$failed"
