#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: `photomap photos --place ID --limit 4000 --json` answered from Flickr answers kept in the
# cache, beside jq projecting the same fields from the same kept JSON, in the same run (medians of
# ROUNDS runs each). The records are copies of the embedded catalog's, as Flickr shapes them. Prints
# figures; not a test.
#   bench/listing.sh                      # 4000 photos, 7 rounds
#   COUNT=1000 ROUNDS=3 bench/listing.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
COUNT=${COUNT:-4000}
ROUNDS=${ROUNDS:-7}

source "$here/common.sh" jq

python3 "$here/make_bench_catalog.py" --count "$COUNT" --out "$work" --spread 0.15 \
    --records-from "$repo/Fixtures/catalog" 2>/dev/null
# The Flickr stand-in serves the catalog once; every timed run answers from the cache, --offline.
coproc server { python3 "$repo/Tests/Support/flickr_server.py" --catalog "$work/catalog" --port 0; }
read -r _ port <&"${server[0]}"
flickr=(env PHOTOMAP_CACHE="$work/cache" "$PHOTOMAP_BIN" --source flickr --api-key bench
        --endpoint "http://127.0.0.1:$port/services/rest/")
"${flickr[@]}" photos --place BENCH --limit "$COUNT" --json >/dev/null
exec {server[1]}>&-
wait "$server_PID" 2>/dev/null || true
listing=$(ls -S "$work/cache/api/"*.json | head -1)

# The fields photomap's --json is made from, as jq reads them from the kept answer.
projection='[.photos.photo[] | {id, title, description: .description._content, latitude, longitude, url_sq, url_m,
             owner, ownername, pathalias, datetaken, datetakenunknown, license, media}]'
photomap_times=() jq_times=()
for _ in $(seq "$ROUNDS"); do
    timed "${flickr[@]}" --offline photos --place BENCH --limit "$COUNT" --json
    photomap_times+=("$wall")
    records=$(grep -c '"kind"' "$work/stdout")
    timed jq "$projection" "$listing"
    jq_times+=("$wall")
done
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
p=$(median "${photomap_times[@]}") j=$(median "${jq_times[@]}")
echo "photos --place ID --limit $COUNT --json from cached answers ($records records, $(du -k "$listing" | cut -f1) KB of JSON), median of $ROUNDS:"
printf '  photomap %6.3f s   jq (the same fields) %6.3f s   ratio %.2fx      target: <= 1.0x jq\n' "$p" "$j" \
    "$(awk -v a="$p" -v b="$j" 'BEGIN { print a / b }')"
