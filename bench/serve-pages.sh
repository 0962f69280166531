#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: many people opening different place pages of `photomap serve` at once, with a Flickr key,
# against the Flickr stand-in (Tests/Support/flickr_server.py, the embedded catalog's recorded answers)
# answering every REST call after DELAY seconds. Prints figures; it is not a test.
#
# For 1, 16 and 64 pages asked together (curl, every connection opened at once; 45 places at limit 100,
# then places again at limit 50, each page a listing of its own):
#   cold  a new serve on an empty cache: each page costs Flickr calls
#   kept  a new serve on the cache the cold run left (every listing kept on disk; no call is made)
#   warm  the same pages again from that serve
# wall time (the last page's answer), Flickr calls made and the most in flight at once; medians of ROUNDS.
# Then, on the kept serve, the same pages for a viewer signed in (family), whose view lists them anew:
#   signed-kept  their view's first asking (from the listings kept on disk)
#   signed-warm  the same pages again
# beside the anonymous kept and warm runs (goal: signed-in within 1.2x of anonymous at 16 pages at once).
#
#   bench/serve-pages.sh                     # DELAY=0.1, ROUNDS=3, builds the release binary
#   PHOTOMAP_BIN=../old/.build/release/photomap bench/serve-pages.sh   # another build, for a before/after
#
# The key's budget (3,600 calls an hour, a minute's 60 at once) holds as in production: 64 cold pages need
# more than 60 calls, so the last of them wait for tokens, about one a second.
set -euo pipefail

DELAY=${DELAY:-0.1}
ROUNDS=${ROUNDS:-3}
COUNTS=${COUNTS:-1 16 64}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
source "$here/common.sh" curl python3
BIN=$PHOTOMAP_BIN
WORK=$work

python3 "$repo/Tests/Support/flickr_server.py" --catalog "$repo/Fixtures/catalog" --port 0 --no-stdin-watch \
    > "$WORK/flickr.port" 2> "$WORK/flickr.err" &
PIDS+=($!)
for _ in $(seq 100); do grep -q '^PORT' "$WORK/flickr.port" 2> /dev/null && break; sleep 0.05; done
FLICKR="http://127.0.0.1:$(awk '/^PORT/ { print $2 }' "$WORK/flickr.port")"
ENDPOINT="$FLICKR/slow/$DELAY/services/rest/"

# 64 different pages: every place at limit 100, then places again at limit 50.
python3 - "$repo/Fixtures/catalog/top-places.json" > "$WORK/pages.txt" <<'PY'
import json, sys
ids = [p["place_id"] for p in json.load(open(sys.argv[1]))["places"]["place"]]
pages = [f"/places/{i}?limit=100" for i in ids] + [f"/places/{i}?limit=50" for i in ids]
print("\n".join(pages[:64]))
PY

SERVE_PID=
# start_serve CACHE: a new photomap serve on CACHE, its base URL in SERVE.
start_serve() {
    env -u PHOTOMAP_FIXTURES PHOTOMAP_CACHE="$1" FLICKR_API_KEY="bench-key" "$BIN" --endpoint "$ENDPOINT" \
        serve --listen 127.0.0.1:0 < /dev/null > /dev/null 2> "$WORK/serve.log" &
    SERVE_PID=$!
    PIDS+=("$SERVE_PID")
    # A new cache first builds its gazetteer (about 1.5 s here); a shared machine under load can take far longer.
    for _ in $(seq 2400); do
        grep -q "serving http" "$WORK/serve.log" && break
        kill -0 "$SERVE_PID" 2> /dev/null || break
        sleep 0.05
    done
    SERVE=$(grep -o 'http://127.0.0.1:[0-9]*' "$WORK/serve.log" | head -n 1 || true)
    if [[ -z $SERVE ]]; then
        cat "$WORK/serve.log" >&2
        kill -0 "$SERVE_PID" 2> /dev/null && die "photomap serve did not start within 120 s"
        wait "$SERVE_PID" && status=0 || status=$?
        die "photomap serve exited ($status) before it started"
    fi
}
stop_serve() {
    kill "$SERVE_PID" 2> /dev/null || true
    wait "$SERVE_PID" 2> /dev/null || true
}

PASSWORD="bench viewer password"
# sign_in: signs the bench's family viewer in to $SERVE as a browser does; the session in $WORK/jar.
sign_in() {
    rm -f "$WORK/jar"
    local csrf code
    csrf=$(curl -s -c "$WORK/jar" "$SERVE/api/session" | python3 -c 'import json, sys; print(json.load(sys.stdin)["csrf"])')
    code=$(curl -s -o /dev/null -b "$WORK/jar" -c "$WORK/jar" -H "Origin: $SERVE" -w '%{http_code}' \
        --data-urlencode "name=viewer" --data-urlencode "password=$PASSWORD" --data-urlencode "csrf=$csrf" \
        "$SERVE/login")
    [[ $code == 303 ]] || die "the viewer's sign-in answered $code"
}

# burst N NAME [JAR]: the first N pages asked at once (with JAR's cookies: signed in); appends
# "seconds calls peak-in-flight" to $WORK/NAME.
burst() {
    curl -s "$FLICKR/_reset" > /dev/null
    head -n "$1" "$WORK/pages.txt" | awk -v base="$SERVE" '{ printf "url = \"%s%s\"\noutput = \"/dev/null\"\nwrite-out = \"%%{http_code}\\n\"\n", base, $0 }' \
        > "$WORK/burst.conf"
    local start codes
    start=$(date +%s.%N)
    local jar=()
    [[ -n ${3:-} ]] && jar=(-b "$3")
    codes=$(curl -Z --parallel-immediate --parallel-max "$1" -s "${jar[@]}" -K "$WORK/burst.conf" 2> /dev/null)
    local seconds
    seconds=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
    [[ $(grep -c '^200$' <<< "$codes") == "$1" ]] || die "$2: not every page answered 200: $(sort <<< "$codes" | uniq -c | tr '\n' ' ')"
    local calls peak
    calls=$(curl -s "$FLICKR/_requests" | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))')
    peak=$(curl -s "$FLICKR/_inflight" | python3 -c 'import json, sys; print(json.load(sys.stdin)["peak"])')
    echo "$seconds $calls $peak" >> "$WORK/$2"
}

for ((round = 1; round <= ROUNDS; round++)); do
    for n in $COUNTS; do
        say "round $round: $n pages at once, cold, kept and warm"
        cache="$WORK/cache-$round-$n"
        start_serve "$cache"
        burst "$n" "cold-$n"
        stop_serve
        printf '%s\n' "$PASSWORD" | PHOTOMAP_CACHE="$cache" "$BIN" users add viewer --role family --password-stdin \
            2> /dev/null
        start_serve "$cache"
        burst "$n" "kept-$n"
        burst "$n" "warm-$n"
        sign_in
        burst "$n" "signed-kept-$n" "$WORK/jar"
        burst "$n" "signed-warm-$n" "$WORK/jar"
        stop_serve
    done
done

echo "photomap serve: place pages asked at once, Flickr answering each call after $DELAY s (median of $ROUNDS rounds)"
printf '  %-6s %6s %10s %8s %10s %16s\n' "" "pages" "seconds" "calls" "in flight" "× one page alone"
for state in cold kept warm; do
    one=$(column "$state-1" 1)
    for n in $COUNTS; do
        printf '  %-6s %6d %10.3f %8d %10d %16.1f\n' "$state" "$n" "$(column "$state-$n" 1)" "$(column "$state-$n" 2)" \
            "$(column "$state-$n" 3)" "$(awk -v a="$(column "$state-$n" 1)" -v b="$one" 'BEGIN { print a / b }')"
    done
done
echo "signed in (family), beside anonymous on the same serve (median of $ROUNDS rounds)"
printf '  %-12s %6s %10s %10s %14s\n' "" "pages" "seconds" "anonymous" "× anonymous"
for state in kept warm; do
    for n in $COUNTS; do
        printf '  %-12s %6d %10.3f %10.3f %14.2f\n' "signed-$state" "$n" "$(column "signed-$state-$n" 1)" \
            "$(column "$state-$n" 1)" \
            "$(awk -v a="$(column "signed-$state-$n" 1)" -v b="$(column "$state-$n" 1)" 'BEGIN { print a / b }')"
    done
done
echo "goals: 16 cold pages at once <= 2x one alone; 16 kept pages <= 1 s; 16 signed-in pages <= 1.2x anonymous"
