#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: `photomap serve` beside nginx serving the same files, with wrk as the client, in one run.
# Prints figures; it is not a test.
#
#  1. Cold: N distinct squares asked through 64 connections (curl --parallel) of a photomap serve
#     whose upstream answers each image after DELAY_MS (node's http2 server over TLS, test CA):
#     every answer must be 200, and the upstream must have seen each image exactly once.
#  2. Warm: wrk, CONNECTIONS connections for SECONDS, rotating over the N cached squares, against
#     photomap serve and against nginx serving the cache's files: requests per second, p99 latency,
#     errors, and photomap's peak memory.
#
#   bench/serve.sh                           # N=2000, 64 connections, 20 s, builds the release binary
#   PHOTOMAP_BIN=.build/release/photomap SECONDS_PER_RUN=10 bench/serve.sh
set -euo pipefail

N=${N:-2000}
CONNECTIONS=${CONNECTIONS:-64}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-20}
DELAY_MS=${DELAY_MS:-50}
RUNS=${RUNS:-3}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
source "$here/common.sh" wrk nginx-light nodejs curl openssl python3
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
BIN=$PHOTOMAP_BIN

WORK=$(mktemp -d /dev/shm/photomap-serve-bench.XXXXXX 2> /dev/null || mktemp -d)
WORKS+=("$WORK")
chmod 755 "$WORK"
bench_cleanup() {
    [[ -s $WORK/nginx.pid ]] && kill -QUIT "$(cat "$WORK/nginx.pid")" 2> /dev/null || true
}

# ---- catalog, upstream, photomap serve ----------------------------------------------------------------

images=()
[[ -d $repo/Fixtures/images/65535 ]] && images=(--images "$repo/Fixtures/images/65535")
python3 "$here/make_bench_catalog.py" --count "$N" --out "$WORK" "${images[@]}"
start_h2_upstream "$WORK/www" "$DELAY_MS"

# wrk and curl are one client address with CONNECTIONS connections: room for them, as for a proxy.
env -u FLICKR_API_KEY PHOTOMAP_FIXTURES="$WORK/catalog" PHOTOMAP_CACHE="$WORK/cache" "$BIN" --source embedded \
    --image-host "$UPSTREAM/ok" --cacert "$WORK/ca/ca.pem" serve --listen 127.0.0.1:0 \
    --max-client-connections 1024 < /dev/null > /dev/null 2> "$WORK/serve.log" &
SERVE_PID=$!
PIDS+=("$SERVE_PID")
for _ in $(seq 600); do grep -q "serving http" "$WORK/serve.log" && break; sleep 0.1; done
SERVE=$(grep -o 'http://127.0.0.1:[0-9]*' "$WORK/serve.log" | head -n 1)
[[ -n $SERVE ]] || { cat "$WORK/serve.log" >&2; die "photomap serve did not start"; }
say "photomap serve at $SERVE, upstream $UPSTREAM (every answer after $DELAY_MS ms)"

# The place's squares, what a browser asks for from its page (the page itself fetches nothing).
list_squares "$WORK/catalog" "$N" "$WORK/squares.txt"

# ---- 1. cold: every square fetched once upstream ------------------------------------------------------

mkdir -p "$WORK/cold"
awk -v base="$SERVE" -v out="$WORK/cold" '{ name = $0; sub(".*/", "", name); printf "url = \"%s%s\"\noutput = \"%s/%s\"\n", base, $0, out, name }' \
    "$WORK/squares.txt" > "$WORK/cold.conf"
start=$(date +%s.%N)
curl --parallel --parallel-max "$CONNECTIONS" -s --fail -K "$WORK/cold.conf" || die "a cold request failed"
cold_seconds=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
served=$(find "$WORK/cold" -type f | wc -l)
read -r fetched distinct most < <(upstream_counts)

# ---- 2. warm: wrk against photomap serve and nginx ----------------------------------------------------

find "$WORK/cache/thumbs" -mindepth 2 -type f ! -name '.*' -printf '/%P\n' > "$WORK/files.txt"
port=$(free_port)
cat > "$WORK/nginx.conf" <<EOF
worker_processes auto;
error_log $WORK/error.log;
pid $WORK/nginx.pid;
events { worker_connections 1024; }
http {
    access_log off;
    sendfile on;
    keepalive_requests 1000000;
    client_body_temp_path $WORK/tmp; proxy_temp_path $WORK/tmp; fastcgi_temp_path $WORK/tmp;
    uwsgi_temp_path $WORK/tmp; scgi_temp_path $WORK/tmp;
    types { image/png png; }
    default_type image/png;
    server { listen 127.0.0.1:$port; root $WORK/cache/thumbs; }
}
EOF
mkdir -p "$WORK/tmp"
chmod -R a+rX "$WORK/cache"
"$NGINX" -p "$WORK/" -e "$WORK/error.log" -c "$WORK/nginx.conf"
NGINX_URL="http://127.0.0.1:$port"
for _ in $(seq 50); do curl -sf -o /dev/null "$NGINX_URL$(head -n 1 "$WORK/files.txt")" && break; sleep 0.1; done

for ((round = 1; round <= RUNS; round++)); do
    say "round $round: wrk against photomap serve, then nginx"
    wrk_run photomap "$SERVE" "$WORK/squares.txt"
    wrk_run nginx "$NGINX_URL" "$WORK/files.txt"
done
peak=$(awk '/VmHWM/ { printf "%.1f", $2 / 1024 }' "/proc/$SERVE_PID/status")

echo "photomap serve: $N squares, $CONNECTIONS connections"
echo "cold, upstream answering after $DELAY_MS ms (HTTP/2 over TLS):"
echo "  $served of $N answered 200 in $cold_seconds s; upstream saw $fetched requests for $distinct images (at most $most for one)"
echo "warm, wrk -t2 -c$CONNECTIONS -d${SECONDS_PER_RUN}s over the cached squares (median of $RUNS):"
printf '  %-16s %12s %10s %8s\n' "" "requests/s" "p99 ms" "errors"
printf '  %-16s %12.0f %10.2f %8d\n' "nginx" "$(column nginx 1)" "$(column nginx 2)" "$(column nginx 3)"
printf '  %-16s %12.0f %10.2f %8d\n' "photomap serve" "$(column photomap 1)" "$(column photomap 2)" "$(column photomap 3)"
awk -v p="$(column photomap 1)" -v n="$(column nginx 1)" 'BEGIN { printf "  photomap / nginx: %.0f%% (target >= 50%%)\n", 100 * p / n }'
echo "  photomap serve's peak memory: $peak MB (target <= 100 MB)"
