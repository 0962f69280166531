#!/usr/bin/env bash
# Benchmark: photomap's thumbnail prefetch against `curl --parallel`, both fetching N distinct
# 75x75 squares from a local nginx on 127.0.0.1. Prints figures; it is not a test.
#
#   bench/prefetch.sh                       # N=2000, 8 parallel, builds the release binary
#   N=500 PARALLEL=4 bench/prefetch.sh
#   PHOTOMAP_BIN=/path/to/photomap bench/prefetch.sh     # skip the build
#   RUNS=1 bench/prefetch.sh                # force the number of runs (default: 3 when quick)
#   TMPDIR=/dev/shm bench/prefetch.sh       # work folder in memory (file creation dominates on slow disks)
#
# PARALLEL sets curl's --parallel-max; photomap uses its own concurrency. N is capped by
# photomap's --limit (1-4000).
set -euo pipefail

N=${N:-2000}
PARALLEL=${PARALLEL:-8}
RUNS=${RUNS:-}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")

say() { printf 'bench: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

[[ $N =~ ^[1-9][0-9]*$ ]] || die "N must be a positive integer"
[[ $PARALLEL =~ ^[1-9][0-9]*$ ]] || die "PARALLEL must be a positive integer"
[[ -z $RUNS || $RUNS =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive integer"

# ---- 1. tools -----------------------------------------------------------------------------------

nginx_bin() { command -v nginx || { [[ -x /usr/sbin/nginx ]] && echo /usr/sbin/nginx; } || true; }

missing=()
[[ -n $(nginx_bin) ]] || missing+=(nginx-light)
command -v curl > /dev/null || missing+=(curl)
[[ -x /usr/bin/time ]] || missing+=(time)
command -v python3 > /dev/null || missing+=(python3)
if ((${#missing[@]})); then
    if ((EUID == 0)); then sudo=()
    elif command -v sudo > /dev/null; then sudo=(sudo)
    else die "missing ${missing[*]}; run as root or install them"
    fi
    say "installing ${missing[*]}"
    # Keep the package's own nginx service from starting (it would listen on port 80 everywhere).
    guard=
    if [[ ! -e /usr/sbin/policy-rc.d ]]; then
        guard=/usr/sbin/policy-rc.d
        printf '#!/bin/sh\nexit 101\n' | "${sudo[@]}" tee "$guard" > /dev/null
        "${sudo[@]}" chmod 755 "$guard"
    fi
    status=0
    "${sudo[@]}" apt-get update -qq &&
        "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            "${missing[@]}" > /dev/null || status=$?
    [[ -z $guard ]] || "${sudo[@]}" rm -f "$guard"
    ((status == 0)) || die "apt-get failed ($status)"
fi
NGINX=$(nginx_bin)
[[ -n $NGINX ]] || die "nginx not found after installing nginx-light"

# ---- 2. photomap --------------------------------------------------------------------------------

if [[ -n ${PHOTOMAP_BIN:-} ]]; then
    BIN=$PHOTOMAP_BIN
else
    say "building photomap (release)"
    (cd "$repo" && swift build -c release --product photomap >&2)
    BIN="$(cd "$repo" && swift build -c release --show-bin-path)/photomap"
fi
[[ -x $BIN ]] || die "no photomap binary at $BIN"
# The flag under test may be missing from older binaries; the curl baseline still runs then.
help=$("$BIN" photos --help 2>&1 || true)
has_prefetch=0
[[ $help == *--prefetch* ]] && has_prefetch=1

# ---- 3. work folder, catalog and images ---------------------------------------------------------

WORK=$(mktemp -d)
cleanup() {
    if [[ -s $WORK/nginx.pid ]]; then
        local pid
        pid=$(cat "$WORK/nginx.pid")
        kill -QUIT "$pid" 2> /dev/null || true
        # Wait for nginx to let go of the folder before removing it.
        for _ in $(seq 50); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# nginx's worker runs as an unprivileged user when started by root: it must read www/.
chmod 755 "$WORK"

# Real squares from the fixture images when they were made (scripts/setup), else a generated one.
images=()
[[ -d $repo/Fixtures/images/65535 ]] && images=(--images "$repo/Fixtures/images/65535")
python3 "$here/make_bench_catalog.py" --count "$N" --out "$WORK" "${images[@]}"

# ---- 4. nginx -----------------------------------------------------------------------------------

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Temp paths inside $WORK, only for the modules this nginx was built with (unknown ones are errors).
nginx_flags=$("$NGINX" -V 2>&1)
temp_paths="client_body_temp_path $WORK/tmp/client_body;"
for module in proxy fastcgi uwsgi scgi; do
    [[ $nginx_flags == *"--without-http_${module}_module"* ]] ||
        temp_paths+=" ${module}_temp_path $WORK/tmp/$module;"
done
# A status page counts the requests nginx served, to check who fetched what.
status_page=
[[ $nginx_flags == *--with-http_stub_status_module* ]] && status_page='location = /_status { stub_status; }'
mkdir -p "$WORK/tmp"
probe=$(head -n 1 "$WORK/paths.txt")

PORT=
for _ in 1 2 3 4 5; do
    port=$(free_port)
    cat > "$WORK/nginx.conf" <<EOF
worker_processes 1;
error_log $WORK/error.log;
pid $WORK/nginx.pid;
events {}
http {
    access_log off;
    keepalive_requests 10000;
    $temp_paths
    server {
        listen 127.0.0.1:$port;
        root $WORK/www;
        $status_page
    }
}
EOF
    rm -f "$WORK/nginx.pid"
    # Daemonizes and writes the pid file; -e keeps even the startup log out of /var/log.
    if "$NGINX" -p "$WORK/" -e "$WORK/error.log" -c "$WORK/nginx.conf" 2>> "$WORK/error.log"; then
        for _ in $(seq 50); do
            curl -sf -o /dev/null "http://127.0.0.1:$port$probe" && { PORT=$port; break; }
            sleep 0.1
        done
    fi
    [[ -n $PORT ]] && break
    # The port was taken between probing and binding, or nginx failed: stop it and retry.
    [[ -s $WORK/nginx.pid ]] && kill -QUIT "$(cat "$WORK/nginx.pid")" 2> /dev/null || true
    sleep 0.2
done
[[ -n $PORT ]] || { cat "$WORK/error.log" >&2; die "nginx did not start"; }
HOST="http://127.0.0.1:$PORT"
say "nginx on $HOST serving $N squares"

# nginx's request counter, this query included; empty without the status page.
served() {
    [[ -n $status_page ]] || return 0
    curl -sf "$HOST/_status" | awk 'NR == 3 { print $3 }'
}

# ---- 5. URL list, as a curl config file (keeps the command line short) ---------------------------

mkdir -p "$WORK/curl-out"
awk -v host="$HOST" -v out="$WORK/curl-out" '{
    name = $0; sub(".*/", "", name)
    printf "url = \"%s%s\"\noutput = \"%s/%s\"\n", host, $0, out, name
}' "$WORK/paths.txt" > "$WORK/curl.conf"

# ---- timing helpers -----------------------------------------------------------------------------

mkdir -p "$WORK/results"
# measure NAME COMMAND...: appends "wall_seconds peak_rss_kb" to results/NAME; stdout discarded.
measure() {
    local name=$1 start end rss
    shift
    start=$(date +%s.%N)
    if ! /usr/bin/time -v -o "$WORK/time.txt" "$@" > /dev/null 2> "$WORK/last.err"; then
        say "failed: $*"
        tail -n 20 "$WORK/last.err" >&2
        return 1
    fi
    end=$(date +%s.%N)
    rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$WORK/time.txt")
    awk -v a="$start" -v b="$end" -v r="$rss" 'BEGIN { printf "%.4f %d\n", b - a, r }' >> "$WORK/results/$name"
}
# median NAME COLUMN: the median of a results column (the lower one for an even count).
median() {
    awk -v c="$2" '{ print $c }' "$WORK/results/$1" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
count_files() { find "$1" -type f ! -name '*.lock' ! -name '.*' 2> /dev/null | wc -l; }

# An array, not a function: /usr/bin/time must exec it. No API key, so the catalog answers.
photomap=(env -u FLICKR_API_KEY PHOTOMAP_FIXTURES="$WORK/catalog" "$BIN" --source fixtures
    --image-host "$HOST" --cache "$WORK/cache" photos --place BENCH --limit "$N")

# ---- 6-7. one round: curl cold and warm, photomap cold, warm and listing-only --------------------

fetched_cold= fetched_warm=
round() {
    rm -rf "$WORK/curl-out" && mkdir -p "$WORK/curl-out"
    measure curl-cold curl --parallel --parallel-max "$PARALLEL" -s --fail -K "$WORK/curl.conf"
    local got
    got=$(count_files "$WORK/curl-out")
    ((got == N)) || die "curl fetched $got files, expected $N"
    # curl keeps no cache, so this is the same work again; printed for symmetry.
    measure curl-again curl --parallel --parallel-max "$PARALLEL" -s --fail -K "$WORK/curl.conf"

    measure listing "${photomap[@]}" --json
    if ((has_prefetch)); then
        rm -rf "$WORK/cache"
        local before after
        before=$(served)
        measure photomap-cold "${photomap[@]}" --prefetch --json
        after=$(served)
        got=$(count_files "$WORK/cache/thumbs")
        ((got == N)) || die "photomap's cache holds $got thumbnails, expected $N"
        # Minus one: the counter includes the status query that read it.
        [[ -z $before ]] || fetched_cold=$((after - before - 1))
        measure photomap-warm "${photomap[@]}" --prefetch --json
        [[ -z $before ]] || fetched_warm=$(($(served) - after - 1))
    fi
}

say "round 1"
t0=$(date +%s)
round
if [[ -z $RUNS ]]; then
    # Three rounds for a median when they fit in about a minute, else the one already done.
    elapsed=$(($(date +%s) - t0))
    if ((elapsed * 3 <= 60)); then RUNS=3; else RUNS=1; fi
fi
for ((r = 2; r <= RUNS; r++)); do say "round $r"; round; done

# ---- 8. figures ---------------------------------------------------------------------------------

row() { # row LABEL NAME [NOTE]: wall seconds and peak RSS in MB, medians
    printf '%-25s %6.2f %11.1f%s\n' "$1" "$(median "$2" 1)" "$(awk -v k="$(median "$2" 2)" 'BEGIN { print k / 1024 }')" "${3:+     $3}"
}
ratio() { awk -v a="$1" -v b="$2" -v m="$3" 'BEGIN { printf "%.*f", (m == 100 ? 1 : 2), m * a / b }'; }

runs_note=$( ((RUNS > 1)) && echo "median of $RUNS runs" || echo "1 run")
echo "prefetch of N=$N squares from nginx on 127.0.0.1 ($PARALLEL parallel; $runs_note)"
printf '%-25s %6s %11s\n' "" "wall s" "peak RSS MB"
curl_cold=$(median curl-cold 1)
row "curl --parallel (cold)" curl-cold
row "curl --parallel (again)" curl-again "(no cache: same work)"
if ((has_prefetch)); then
    cold=$(median photomap-cold 1)
    warm=$(median photomap-warm 1)
    row "photomap (cold)" photomap-cold "ratio to curl: $(ratio "$cold" "$curl_cold" 1)x (target <= 1.0x)"
    row "photomap (warm, hits)" photomap-warm "of cold: $(ratio "$warm" "$cold" 100)% (target < 5%)"
fi
row "photomap listing only" listing
if ((has_prefetch)); then
    listing=$(median listing 1)
    # The listing (reading the catalog, printing JSON) is the same work in every photomap run:
    # without it, what remains is the cache's own cost, cold and warm.
    awk -v c="$cold" -v w="$warm" -v l="$listing" 'BEGIN {
        printf "prefetch alone (minus listing): cold %.2f s, warm %.3f s = %.1f%% of cold\n", c - l, w - l, 100 * (w - l) / (c - l) }'
    echo "check: $N thumbnails in the cache after each cold run"
    [[ -z $fetched_cold ]] ||
        echo "check: nginx served $fetched_cold requests to photomap cold, $fetched_warm warm (last round)"
else
    echo "photomap: no --prefetch in $BIN; only the curl baseline and the listing were measured" >&2
    exit 1
fi
