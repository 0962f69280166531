#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: a flickr.photos.search listing of COUNT photos (default 4,000, the most Flickr gives) read by
# JSONReader through FlickrSource, beside JSONDecoder and JSONSerialization reading the same fields of
# the same pages: CPU time, medians of ROUNDS rounds (default 7). Prints figures; not a test.
#   bench/json.sh
#   COUNT=1000 ROUNDS=3 bench/json.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$(dirname "$here")"
swift build --package-path bench -c release --product photomap-bench-json >/dev/null
bench/.build/release/photomap-bench-json --count "${COUNT:-4000}" --rounds "${ROUNDS:-7}"
