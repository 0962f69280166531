#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: photomap's thumbnail prefetch beside curl fetching the same squares, in one run.
# Prints figures (medians of RUNS rounds) and ratios; it is not a test.
#
#  1. nginx on 127.0.0.1 over HTTP/1.1, N distinct 75x75 squares, with the work folder in memory
#     (/dev/shm) and on disk: photomap cold, warm and listing-only beside `curl --parallel
#     --parallel-max PARALLEL`, photomap using the same number of connections.
#  2. A server answering each image after DELAY_MS (a CDN's round trip; node's http2 module over
#     TLS with a throwaway CA), N_LATENCY squares: HTTP/2 (photomap beside `curl --http2 --parallel
#     --parallel-max STREAMS`), then HTTP/1.1 with STREAMS connections each.
#
#   bench/prefetch.sh                          # everything, building the release binary
#   PHOTOMAP_BIN=.build/release/photomap bench/prefetch.sh
#   PARTS=nginx LOCATIONS=/dev/shm bench/prefetch.sh    # or PARTS=latency
#   N=500 N_LATENCY=300 RUNS=1 bench/prefetch.sh
set -euo pipefail

N=${N:-2000}
N_LATENCY=${N_LATENCY:-1000}
PARALLEL=${PARALLEL:-8}
STREAMS=${STREAMS:-100}
DELAY_MS=${DELAY_MS:-50}
RUNS=${RUNS:-3}
PARTS=${PARTS:-nginx latency}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
LOCATIONS=${LOCATIONS:-/dev/shm $repo/.build/bench-disk}

source "$here/common.sh" nginx-light curl nodejs openssl python3
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
BIN=$PHOTOMAP_BIN

for value in N N_LATENCY PARALLEL STREAMS DELAY_MS RUNS; do
    [[ ${!value} =~ ^[1-9][0-9]*$ ]] || die "$value must be a positive integer"
done

# ---- shared helpers -----------------------------------------------------------------------------

# new_work VARIABLE FOLDER-BASE: sets VARIABLE to a fresh work folder under the base, removed on
# exit (not run in a subshell, or WORKS would not keep it).
new_work() {
    mkdir -p "$2"
    printf -v "$1" '%s' "$(mktemp -d "$2/photomap-bench.XXXXXX")"
    WORKS+=("${!1}")
    # nginx's worker runs as an unprivileged user when started by root: it must read www/.
    chmod 755 "${!1}"
}

# measure RESULTS NAME COMMAND...: appends "wall_seconds peak_rss_kb cpu_seconds" (user + system) to
# RESULTS/NAME; output discarded.
measure() {
    local results=$1 name=$2 start end rss cpu
    shift 2
    start=$(date +%s.%N)
    if ! /usr/bin/time -v -o "$results/time.txt" "$@" > /dev/null 2> "$results/last.err"; then
        say "failed: $*"
        tail -n 20 "$results/last.err" >&2
        return 1
    fi
    end=$(date +%s.%N)
    rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$results/time.txt")
    cpu=$(awk -F': ' '/(User|System) time \(seconds\)/ { sum += $2 } END { print sum }' "$results/time.txt")
    awk -v a="$start" -v b="$end" -v r="$rss" -v c="$cpu" 'BEGIN { printf "%.4f %d %.2f\n", b - a, r, c }' \
        >> "$results/$name"
}
# median RESULTS NAME COLUMN: the median of a column (the lower one for an even count).
median() {
    awk -v c="$3" '{ print $c }' "$1/$2" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
row() { # row RESULTS LABEL NAME [NOTE]: median wall seconds, peak RSS in MB and CPU seconds (user + system)
    printf '  %-34s %7.3f %9.1f %7.2f%s\n' "$2" "$(median "$1" "$3" 1)" \
        "$(awk -v k="$(median "$1" "$3" 2)" 'BEGIN { print k / 1024 }')" "$(median "$1" "$3" 3)" "${4:+   $4}"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
count_files() { find "$1" -type f ! -name '.*' 2> /dev/null | wc -l; }
# count_entries FOLDER: the cache's entries (files named by a SHA-256), not its journal or session markers.
count_entries() { find "$1" -type f -regextype posix-extended -regex '.*/[0-9a-f]{64}' 2> /dev/null | wc -l; }

# curl_config WORK HOST [PREFIX]: a curl config fetching every square, by its name, into the folder
# given with --output-dir.
curl_config() {
    awk -v host="$2" -v prefix="${3:-}" '{
        name = $0; sub(".*/", "", name)
        printf "url = \"%s%s%s\"\noutput = \"%s\"\n", host, prefix, $0, name
    }' "$1/paths.txt" > "$1/curl.conf"
}

# Each round's downloads go into folders of their own, kept until the bench ends: on ext4 without a
# journal, making a file skips every inode removed in the last 5 s (305 s when its inode table block is
# dirty) one by one, so removing a round's 2,000 files just before the next cold run made curl and
# photomap pay for them (curl took 0.8-1.0 s instead of 0.15 s on disk); see FACTS.md.

# photomap_command WORK CACHE IMAGE-HOST COUNT EXTRA...: sets the array PHOTOMAP (no API key: the catalog
# answers).
photomap_command() {
    local work=$1 cache=$2 host=$3 count=$4
    shift 4
    PHOTOMAP=(env -u FLICKR_API_KEY -u CURL_CA_BUNDLE -u SSL_CERT_FILE PHOTOMAP_FIXTURES="$work/catalog" "$BIN"
        --source embedded --image-host "$host" --cache "$cache" "$@" photos --place BENCH --limit "$count")
}

catalog() { # catalog WORK COUNT
    local images=()
    [[ -d $repo/Fixtures/images/65535 ]] && images=(--images "$repo/Fixtures/images/65535")
    python3 "$here/make_bench_catalog.py" --count "$2" --out "$1" "${images[@]}"
}

# ---- 1. nginx, HTTP/1.1 ---------------------------------------------------------------------------

start_nginx() { # start_nginx WORK: sets HOST
    local work=$1 port temp_paths module flags probe
    flags=$("$NGINX" -V 2>&1)
    temp_paths="client_body_temp_path $work/tmp/client_body;"
    for module in proxy fastcgi uwsgi scgi; do
        [[ $flags == *"--without-http_${module}_module"* ]] || temp_paths+=" ${module}_temp_path $work/tmp/$module;"
    done
    mkdir -p "$work/tmp"
    probe=$(head -n 1 "$work/paths.txt")
    HOST=
    for _ in 1 2 3 4 5; do
        port=$(free_port)
        cat > "$work/nginx.conf" <<EOF
worker_processes 1;
error_log $work/error.log;
pid $work/nginx.pid;
events {}
http {
    access_log off;
    keepalive_requests 100000;
    $temp_paths
    server { listen 127.0.0.1:$port; root $work/www; }
}
EOF
        if "$NGINX" -p "$work/" -e "$work/error.log" -c "$work/nginx.conf" 2>> "$work/error.log"; then
            for _ in $(seq 50); do
                curl -sf -o /dev/null "http://127.0.0.1:$port$probe" && { HOST="http://127.0.0.1:$port"; break; }
                sleep 0.1
            done
        fi
        [[ -n $HOST ]] && break
        [[ -s $work/nginx.pid ]] && kill -QUIT "$(cat "$work/nginx.pid")" 2> /dev/null || true
        sleep 0.2
    done
    [[ -n $HOST ]] || { cat "$work/error.log" >&2; die "nginx did not start"; }
    PIDS+=("$(cat "$work/nginx.pid")")
}

nginx_part() { # nginx_part LOCATION
    local work results cold warm listing curl_cold got
    new_work work "$1"
    results=$work/results
    mkdir -p "$results"
    catalog "$work" "$N"
    start_nginx "$work"
    curl_config "$work" "$HOST"
    say "nginx on $HOST, $N squares, work folder in $1"
    for ((round = 1; round <= RUNS; round++)); do
        mkdir -p "$work/curl-out-$round"
        measure "$results" curl curl --parallel --parallel-max "$PARALLEL" -s --fail -K "$work/curl.conf" \
            --output-dir "$work/curl-out-$round"
        got=$(count_files "$work/curl-out-$round")
        ((got == N)) || die "curl fetched $got files, expected $N"
        photomap_command "$work" "$work/cache-$round" "$HOST" "$N" --connections "$PARALLEL"
        measure "$results" listing "${PHOTOMAP[@]}" --json
        measure "$results" cold "${PHOTOMAP[@]}" --prefetch --json
        got=$(count_entries "$work/cache-$round/thumbs")
        ((got == N)) || die "photomap's cache holds $got thumbnails, expected $N"
        measure "$results" warm "${PHOTOMAP[@]}" --prefetch --json
    done
    curl_cold=$(median "$results" curl 1)
    cold=$(median "$results" cold 1)
    warm=$(median "$results" warm 1)
    listing=$(median "$results" listing 1)
    echo "nginx over HTTP/1.1 on 127.0.0.1, $N squares, $PARALLEL connections, work folder in $1 (median of $RUNS)"
    printf '  %-34s %7s %9s %7s\n' "" "wall s" "peak MB" "CPU s"
    row "$results" "curl --parallel-max $PARALLEL" curl
    row "$results" "photomap cold (--connections $PARALLEL)" cold "$(ratio "$cold" "$curl_cold")x curl (target <= 1.0x)"
    row "$results" "photomap warm (all hits)" warm
    row "$results" "photomap listing only" listing
    awk -v c="$cold" -v w="$warm" -v l="$listing" -v cc="$(median "$results" cold 3)" \
        -v wc="$(median "$results" warm 3)" -v lc="$(median "$results" listing 3)" 'BEGIN {
        printf "  the cache alone (minus the listing): cold %.3f s, warm %.3f s = %.1f%% of cold (target < 5%%)\n",
            c - l, w - l, 100 * (w - l) / c
        printf "  its CPU (user + system, minus the listing\x27s): cold %.2f s, warm %.2f s\n", cc - lc, wc - lc }'
    PIDS=()
    kill -QUIT "$(cat "$work/nginx.pid")" 2> /dev/null || true
}

# ---- 2. a server with a round trip's delay: HTTP/2 and HTTP/1.1 over TLS ---------------------------

start_node() { # start_node WORK FLAGS...: sets HOST (https) and NODE_PID
    local work=$1 port
    shift
    rm -f "$work/node.port"
    node "$repo/Tests/Support/h2_image_server.js" --root "$work/www" --cert "$work/ca/server.pem" --key "$work/ca/server.key" \
        --delay-ms "$DELAY_MS" --no-stdin-watch "$@" < /dev/null > "$work/node.port" 2> "$work/node.err" &
    NODE_PID=$!
    PIDS+=("$NODE_PID")
    for _ in $(seq 100); do [[ -s $work/node.port ]] && break; sleep 0.05; done
    port=$(awk '/^PORT / { print $2 }' "$work/node.port")
    [[ -n $port ]] || { cat "$work/node.err" >&2; die "the node server did not start"; }
    HOST="https://127.0.0.1:$port"
}

latency_round() { # latency_round WORK RESULTS LABEL ROUND CURL-FLAGS... -- PHOTOMAP-FLAGS...
    local work=$1 results=$2 label=$3 round=$4 got
    shift 4
    local curl_flags=() photomap_flags=()
    while (($#)) && [[ $1 != -- ]]; do curl_flags+=("$1"); shift; done
    shift
    photomap_flags=("$@")
    mkdir -p "$work/curl-out-$label-$round"
    measure "$results" "$label-curl" curl "${curl_flags[@]}" --cacert "$work/ca/ca.pem" -s --fail -K "$work/curl.conf" \
        --output-dir "$work/curl-out-$label-$round"
    got=$(count_files "$work/curl-out-$label-$round")
    ((got == N_LATENCY)) || die "curl fetched $got files, expected $N_LATENCY"
    photomap_command "$work" "$work/cache-$label-$round" "$HOST/ok" "$N_LATENCY" --cacert "$work/ca/ca.pem" \
        "${photomap_flags[@]}"
    measure "$results" "$label-photomap" "${PHOTOMAP[@]}" --prefetch --json
    got=$(count_entries "$work/cache-$label-$round/thumbs")
    ((got == N_LATENCY)) || die "photomap's cache holds $got thumbnails, expected $N_LATENCY"
}

latency_part() {
    local work results h2 h1
    new_work work "${LOCATIONS%% *}"
    results=$work/results
    mkdir -p "$results"
    catalog "$work" "$N_LATENCY"
    "$repo/Tests/Support/make_test_ca.sh" "$work/ca"
    start_node "$work"
    curl_config "$work" "$HOST" /ok
    say "HTTP/2 over TLS at $HOST, every answer after $DELAY_MS ms, $N_LATENCY squares"
    for ((round = 1; round <= RUNS; round++)); do
        latency_round "$work" "$results" h2 "$round" --http2 --parallel --parallel-max "$STREAMS" --
    done
    kill "$NODE_PID"
    start_node "$work" --http1
    curl_config "$work" "$HOST" /ok
    say "HTTP/1.1 over TLS at $HOST, every answer after $DELAY_MS ms, $N_LATENCY squares"
    for ((round = 1; round <= RUNS; round++)); do
        latency_round "$work" "$results" h1 "$round" --http1.1 --parallel --parallel-max "$STREAMS" -- --connections "$STREAMS"
    done
    h2=$(median "$results" h2-photomap 1)
    h1=$(median "$results" h1-photomap 1)
    echo "every answer after $DELAY_MS ms, TLS with a test CA, $N_LATENCY squares (median of $RUNS)"
    printf '  %-34s %7s %9s %7s\n' "" "wall s" "peak MB" "CPU s"
    row "$results" "curl --http2, $STREAMS streams" h2-curl
    row "$results" "photomap over HTTP/2" h2-photomap "$(ratio "$h2" "$(median "$results" h2-curl 1)")x curl (target <= 1.2x)"
    row "$results" "curl --http1.1, $STREAMS connections" h1-curl
    row "$results" "photomap, HTTP/1.1, $STREAMS connections" h1-photomap \
        "$(ratio "$h1" "$(median "$results" h1-curl 1)")x curl (target <= 1.1x)"
}

for part in $PARTS; do
    case $part in
        nginx) for location in $LOCATIONS; do nginx_part "$location"; done ;;
        latency) latency_part ;;
        *) die "unknown part '$part' (nginx, latency)" ;;
    esac
done
