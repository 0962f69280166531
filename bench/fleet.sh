#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: a fleet — two `photomap serve` instances on one PostgreSQL database behind nginx running
# deploy/nginx.conf — beside one instance answering direct, in one run. Prints figures; not a test.
#
#  1. Cold: N distinct squares asked through nginx by 64 connections (curl --parallel), the instances'
#     upstream answering each image after DELAY_MS (node's http2 server over TLS, test CA): every answer
#     must be 200, and the upstream must see each image at most once per instance.
#  2. Warm: wrk, CONNECTIONS connections for SECONDS_PER_RUN s, over the cached squares: direct to one
#     instance, and through nginx (its shared cache answers); then a place page (never cached by nginx)
#     direct and through nginx to the two instances: requests per second and p99, medians of RUNS.
#  3. The budget: two processes each wanting 200 Flickr calls with PHOTOMAP_FLICKR_CALLS_PER_HOUR=60,
#     for BUDGET_SECONDS, against the Flickr-protocol server: the calls it saw.
#
#   bench/fleet.sh                           # N=2000, 64 connections, 10 s, builds the release binary
set -euo pipefail

N=${N:-2000}
CONNECTIONS=${CONNECTIONS:-64}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-10}
DELAY_MS=${DELAY_MS:-50}
RUNS=${RUNS:-3}
BUDGET_SECONDS=${BUDGET_SECONDS:-30}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
source "$here/common.sh" wrk nginx-light nodejs curl openssl python3
BIN=$PHOTOMAP_BIN
WORK=$(mktemp -d /tmp/photomap-fleet-bench.XXXXXX)
WORKS+=("$WORK")
chmod 755 "$WORK"
bench_cleanup() {
    [[ -s $WORK/nginx/nginx.pid ]] && kill -QUIT "$(cat "$WORK/nginx/nginx.pid")" 2> /dev/null || true
    "$repo/scripts/postgres" stop "$WORK/pg"
}

# ---- the database, the catalog, the upstream ----------------------------------------------------------

admin=$("$repo/scripts/postgres" start "$WORK/pg")
DATABASE=${admin/\/postgres\?/\/photomap_template?}
images=()
[[ -d $repo/Fixtures/images/65535 ]] && images=(--images "$repo/Fixtures/images/65535")
python3 "$here/make_bench_catalog.py" --count "$N" --out "$WORK" "${images[@]}"
start_h2_upstream "$WORK/www" "$DELAY_MS"
NGINX_PORT=$(free_port)

# serve NAME PORT: an instance on PORT with a cache folder of its own, on the database, answering the fleet's name,
# with room for the connections of nginx (and of wrk direct), each one client address.
serve() {
    env -u FLICKR_API_KEY PHOTOMAP_FIXTURES="$WORK/catalog" PHOTOMAP_CACHE="$WORK/cache-$1" "$BIN" --source embedded \
        --database "$DATABASE" --image-host "$UPSTREAM/ok" --cacert "$WORK/ca/ca.pem" \
        serve --listen "127.0.0.1:$2" --public-host "127.0.0.1:$NGINX_PORT" --max-client-connections 1024 < /dev/null > /dev/null 2> "$WORK/serve-$1.log" &
    PIDS+=($!)
    for _ in $(seq 600); do grep -q "serving http" "$WORK/serve-$1.log" && break; sleep 0.1; done
    grep -q "serving http" "$WORK/serve-$1.log" || { cat "$WORK/serve-$1.log" >&2; die "instance $1 did not start"; }
}
"$BIN" --database "$DATABASE" db migrate > /dev/null
PORT_A=$(free_port) PORT_B=$(free_port) PORT_D=$(free_port)
serve a "$PORT_A"
serve b "$PORT_B"
serve direct "$PORT_D"
mkdir -p "$WORK/nginx"
chmod 777 "$WORK/nginx"
sed -e "s/127.0.0.1:8080/127.0.0.1:$NGINX_PORT/" -e "s/127.0.0.1:8081/127.0.0.1:$PORT_A/" -e "s/127.0.0.1:8082/127.0.0.1:$PORT_B/" \
    "$repo/deploy/nginx.conf" > "$WORK/nginx/nginx.conf"
nginx -p "$WORK/nginx/" -c "$WORK/nginx/nginx.conf"
FLEET="http://127.0.0.1:$NGINX_PORT"
DIRECT="http://127.0.0.1:$PORT_D"
for _ in $(seq 50); do curl -sf -o /dev/null "$FLEET/" && break; sleep 0.1; done
say "fleet at $FLEET (instances :$PORT_A, :$PORT_B), one instance direct at $DIRECT, upstream after $DELAY_MS ms"

list_squares "$WORK/catalog" "$N" "$WORK/squares.txt"

# ---- 1. cold, through nginx ----------------------------------------------------------------------------

mkdir -p "$WORK/cold"
awk -v base="$FLEET" -v out="$WORK/cold" '{ name = $0; sub(".*/", "", name); printf "url = \"%s%s\"\noutput = \"%s/%s\"\n", base, $0, out, name }' \
    "$WORK/squares.txt" > "$WORK/cold.conf"
start=$(date +%s.%N)
curl --parallel --parallel-max "$CONNECTIONS" -s --no-progress-meter -w '%{http_code}\n' -K "$WORK/cold.conf" > "$WORK/cold.codes"
sort "$WORK/cold.codes" | uniq -c | grep -v ' 200$' >&2 && die "a cold request through nginx failed (counts of statuses above)"
cold_seconds=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
served=$(find "$WORK/cold" -type f | wc -l)
read -r fetched distinct most < <(upstream_counts)
# The direct instance's cache, warmed for the warm rounds.
sed -e "s|$FLEET|$DIRECT|" -e "s|$WORK/cold|$WORK/direct|" "$WORK/cold.conf" > "$WORK/direct.conf"
mkdir -p "$WORK/direct"
curl --parallel --parallel-max "$CONNECTIONS" -s --no-progress-meter --fail -K "$WORK/direct.conf" || die "a request to the direct instance failed"

# ---- 2. warm: wrk direct and through nginx -------------------------------------------------------------

for i in $(seq 0 19); do echo "/places/BENCH?limit=100&n=$i"; done > "$WORK/pages.txt"
for ((round = 1; round <= RUNS; round++)); do
    say "round $round: squares direct, squares through nginx, pages direct, pages through nginx"
    wrk_run squares-direct "$DIRECT" "$WORK/squares.txt"
    wrk_run squares-fleet "$FLEET" "$WORK/squares.txt"
    wrk_run pages-direct "$DIRECT" "$WORK/pages.txt"
    wrk_run pages-fleet "$FLEET" "$WORK/pages.txt"
done

# ---- 3. the budget -------------------------------------------------------------------------------------

python3 "$repo/Tests/Support/flickr_server.py" --catalog "$repo/Fixtures/catalog" --port 0 --no-stdin-watch \
    > "$WORK/flickr.port" 2> "$WORK/flickr.err" &
PIDS+=($!)
for _ in $(seq 100); do grep -q '^PORT' "$WORK/flickr.port" 2> /dev/null && break; sleep 0.05; done
ENDPOINT="http://127.0.0.1:$(awk '/^PORT/ { print $2 }' "$WORK/flickr.port")/services/rest/"
KEY="bench-$RANDOM$RANDOM"
budget_start=$(date +%s.%N)
for process in 1 2; do
    # 200 calls wanted: each `find` of a new name is one flickr.places.find.
    timeout "$BUDGET_SECONDS" bash -c 'for i in $(seq 200); do
        PHOTOMAP_FLICKR_CALLS_PER_HOUR=60 PHOTOMAP_CACHE="$0/budget-cache-$1" "$2" --database "$3" --api-key "$4" \
            --endpoint "$5" find "place $1 $i" > /dev/null 2>&1 || true
      done' "$WORK" "$process" "$BIN" "$DATABASE" "$KEY" "$ENDPOINT" &
done
wait %-1 %-2 2> /dev/null || true
sleep 1
budget_elapsed=$(awk -v a="$budget_start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }')
calls=$(curl -s "${ENDPOINT%/services/rest/}/_requests" | python3 -c "
import json, sys
print(sum(1 for r in json.load(sys.stdin) if r.get('query', {}).get('api_key') == '$KEY'))")

echo "fleet: two photomap serve instances on one PostgreSQL database behind nginx (deploy/nginx.conf), $N squares"
echo "cold through nginx, upstream answering after $DELAY_MS ms (HTTP/2 over TLS), $CONNECTIONS connections:"
echo "  $served of $N answered 200 in $cold_seconds s; upstream saw $fetched requests for $distinct images (at most $most for one; target <= 2, one per instance)"
echo "warm, wrk -t2 -c$CONNECTIONS -d${SECONDS_PER_RUN}s (median of $RUNS):"
printf '  %-34s %12s %10s %8s\n' "" "requests/s" "p99 ms" "errors"
for name in squares-direct squares-fleet pages-direct pages-fleet; do
    printf '  %-34s %12.0f %10.2f %8d\n' "$name" "$(column "$name" 1)" "$(column "$name" 2)" "$(column "$name" 3)"
done
awk -v f="$(column squares-fleet 1)" -v d="$(column squares-direct 1)" -v p="$(column squares-fleet 2)" \
    'BEGIN { printf "  squares, fleet / direct: %.2fx (target >= 0.9x), fleet p99 %.2f ms (target <= 20 ms)\n", f / d, p }'
awk -v f="$(column pages-fleet 1)" -v d="$(column pages-direct 1)" 'BEGIN { printf "  place pages, fleet / direct: %.2fx\n", f / d }'
echo "budget: 2 processes x 200 calls wanted, 60 calls an hour, $budget_elapsed s: the Flickr-protocol server saw $calls calls (target <= 60; the bucket allows 1 + 59/3600 a second)"
