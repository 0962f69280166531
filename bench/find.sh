#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: `photomap find` over 200 varied queries with a warm gazetteer index (process wall time,
# medians of several rounds, p95), beside parsing the gazetteer as every find did before the index;
# prints any query whose top answer differs from the parsed gazetteer's. Prints figures; not a test.
#   bench/find.sh                   # 200 queries, 3 rounds
#   QUERIES=50 ROUNDS=1 bench/find.sh
#   ANSWERS=/tmp/answers.tsv bench/find.sh   # also every city name's top answer, to compare two builds
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$(dirname "$here")"
scripts/install-deps
swift build -c release --product photomap >/dev/null
swift build --package-path bench -c release --product photomap-bench-find >/dev/null
bench/.build/release/photomap-bench-find --photomap "$PWD/.build/release/photomap" --queries "${QUERIES:-200}" --rounds "${ROUNDS:-3}" \
    ${ANSWERS:+--answers "$ANSWERS"}
