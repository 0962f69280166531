# Sourced by every benchmark that runs photomap, with `here` and `repo` set, the Debian packages it
# needs as arguments: installs what is missing (GNU time always; no package's own service started),
# builds the release binary unless PHOTOMAP_BIN names one, makes a work folder `work` removed on exit
# (with any folder added to WORKS and any process added to PIDS), and defines say, die, median,
# milliseconds, catalog_url, catalog_state, fresh_catalog, free_port and
# `timed` (and, for the servers' benchmarks, start_h2_upstream, upstream_counts, list_squares, wrk_run and
# column).
# A benchmark may define `bench_cleanup`, run first on exit.

say() { printf 'bench: %s\n' "$*" >&2; }
# median VALUE…: the middle one (the upper of the two middle ones for an even count).
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# milliseconds COMMAND…: runs it, its output dropped (its errors shown if it fails, which ends the
# benchmark), and sets `ms` to its wall time.
milliseconds() {
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
    end=$(date +%s%N)
    ms=$(((end - start) / 1000000))
}
die() { say "error: $*"; exit 1; }
# The catalog benchmarks' (under scripts/with-postgres for PostgreSQL): catalog_url NAME, the database NAME
# on the throwaway server; catalog_state ENGINE NAME, the options naming catalog NAME (a cache folder in
# `work`, and on postgresql its database); fresh_catalog ENGINE NAME BINARY CSV, an empty catalog NAME loaded
# by BINARY from CSV, setting `ms` to the load's time.
catalog_url() { printf %s "${PHOTOMAP_TEST_POSTGRES:-}" | sed "s#/postgres?#/$1?#"; }
catalog_state() {
    if [[ $1 == sqlite ]]; then echo "--cache $work/cache-$2"; else echo "--cache $work/cache-$2 --database $(catalog_url "$2")"; fi
}
fresh_catalog() {
    rm -rf "$work/cache-$2"
    if [[ $1 == postgresql ]]; then
        psql -q "$PHOTOMAP_TEST_POSTGRES" -c "DROP DATABASE IF EXISTS $2 WITH (FORCE)" -c "CREATE DATABASE $2 TEMPLATE photomap_template"
        # shellcheck disable=SC2046
        "$3" $(catalog_state "$1" "$2") db migrate >/dev/null
    fi
    # shellcheck disable=SC2046
    milliseconds "$3" $(catalog_state "$1" "$2") import --records "$4" --visibility public
}

missing=()
[ -x /usr/bin/time ] || missing+=(time)
for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    if ((EUID == 0)); then sudo=()
    elif command -v sudo >/dev/null; then sudo=(sudo)
    else die "missing ${missing[*]}; run as root or install them"
    fi
    say "installing ${missing[*]}"
    # Keep a package's own service from starting (nginx would listen on port 80 everywhere).
    guard=
    if [[ ! -e /usr/sbin/policy-rc.d ]]; then
        guard=/usr/sbin/policy-rc.d
        printf '#!/bin/sh\nexit 101\n' | "${sudo[@]}" tee "$guard" >/dev/null
        "${sudo[@]}" chmod 755 "$guard"
    fi
    status=0
    "${sudo[@]}" apt-get update -qq &&
        "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            "${missing[@]}" >/dev/null || status=$?
    [[ -z $guard ]] || "${sudo[@]}" rm -f "$guard"
    ((status == 0)) || die "apt-get failed ($status)"
fi
"$repo/scripts/install-deps"
if [ -z "${PHOTOMAP_BIN:-}" ]; then
    say "building photomap (release)"
    (cd "$repo" && swift build -c release --product photomap >/dev/null)
    PHOTOMAP_BIN="$repo/.build/release/photomap"
fi
[[ -x $PHOTOMAP_BIN ]] || die "no photomap binary at $PHOTOMAP_BIN"

work=$(mktemp -d)
WORKS=("$work")
PIDS=()
cleanup() {
    local pid
    ! declare -F bench_cleanup >/dev/null || bench_cleanup
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    done
    rm -rf "${WORKS[@]}"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# timed COMMAND...: runs it (stdout to $work/stdout) and sets `wall` (seconds) and `peak_mb` (its
# peak resident memory, in MiB: KiB / 1024); stops the benchmark with the command's errors if it fails.
timed() {
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" >"$work/stdout" 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
    local rss
    read -r wall rss <"$work/time"
    peak_mb=$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')
}

# start_h2_upstream ROOT DELAY_MS: node's http2 image server over TLS (a throwaway CA in $WORK/ca) serving
# ROOT, each answer after DELAY_MS; its base URL in UPSTREAM.
start_h2_upstream() {
    "$repo/Tests/Support/make_test_ca.sh" "$WORK/ca"
    node "$repo/Tests/Support/h2_image_server.js" --root "$1" --cert "$WORK/ca/server.pem" --key "$WORK/ca/server.key" \
        --delay-ms "$2" --no-stdin-watch < /dev/null > "$WORK/node.port" 2> "$WORK/node.err" &
    PIDS+=($!)
    for _ in $(seq 100); do [[ -s $WORK/node.port ]] && break; sleep 0.05; done
    UPSTREAM="https://127.0.0.1:$(awk '/^PORT/ { print $2 }' "$WORK/node.port")"
}

# upstream_counts: what the h2 upstream was asked under /ok/: "requests images most-for-one".
upstream_counts() {
    curl -sk --cacert "$WORK/ca/ca.pem" "$UPSTREAM/_counts" | python3 -c '
import json, sys
counts = {path: n for path, n in json.load(sys.stdin).items() if path.startswith("/ok/")}
print(sum(counts.values()), len(counts), max(counts.values(), default=0))'
}

# wrk_run NAME URL PATHS: wrk with CONNECTIONS connections for SECONDS_PER_RUN s, rotating over the paths in
# the file PATHS; appends "requests/s p99-ms errors" to $WORK/NAME.
wrk_run() {
    [[ -s $WORK/rotate.lua ]] || cat > "$WORK/rotate.lua" <<'LUA'
local paths = {}
for line in io.lines(os.getenv("PATHS")) do paths[#paths + 1] = line end
local counter = math.random(#paths)
request = function()
    counter = counter % #paths + 1
    return wrk.format("GET", paths[counter])
end
LUA
    PATHS=$3 wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_PER_RUN}s" --latency -s "$WORK/rotate.lua" "$2" > "$WORK/wrk.out"
    python3 - "$WORK/wrk.out" >> "$WORK/$1" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
rate = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
value, unit = re.search(r"99%\s+([\d.]+)(us|ms|s)", text).groups()
p99 = float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
errors = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", text))
non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
print(rate, p99, errors + (int(non2xx.group(1)) if non2xx else 0))
PY
}

# column NAME N: the median of column N of $WORK/NAME (what wrk_run appended).
column() { awk -v c="$2" '{ print $c }' "$WORK/$1" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# list_squares CATALOG N OUT: the /squares/ID paths of the N photos of the bench catalog's place, as a browser
# asks for them from its page, one a line in OUT.
list_squares() {
    PHOTOMAP_FIXTURES="$1" "$PHOTOMAP_BIN" --cache "$WORK/cache-list" photos --place BENCH --limit "$2" --format csv \
        | python3 -c 'import csv, sys; print("\n".join("/squares/" + row["id"] for row in csv.DictReader(sys.stdin)))' > "$3"
    (($(sort -u "$3" | wc -l) == $2)) || die "the place lists $(wc -l < "$3") photos, expected $2"
}
