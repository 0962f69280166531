#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: sign-in latency of `photomap serve` (POST /login, the Argon2id check at libsodium's
# interactive cost, 64 MiB and 2 passes), one request at a time, right and wrong passwords and an
# unknown name (checked against a dummy hash, so it costs the same): p50 and p95 in milliseconds.
# Prints figures; it is not a test. Wrong ones stay under the throttle (10 a minute per name and address)
# by using a new name each time and a new X-Real-IP (believed from loopback, as from nginx).
#
#   bench/signin.sh                              # N=40 of each, builds the release binary
#   PHOTOMAP_BIN=.build/debug/photomap N=20 bench/signin.sh
set -euo pipefail

N=${N:-40}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
source "$here/common.sh" curl python3
BIN=$PHOTOMAP_BIN

password="correct horse battery staple"
printf '%s\n' "$password" | "$BIN" --cache "$work" users add anna --role family --password-stdin 2>/dev/null
port=$(free_port)
"$BIN" --cache "$work" serve --listen "127.0.0.1:$port" >"$work/serve.out" 2>"$work/serve.err" &
PIDS+=($!)
url="http://127.0.0.1:$port"
for _ in $(seq 600); do
    curl -sf -o /dev/null "$url/api/session" && break
    sleep 0.1
done
curl -sf -o /dev/null "$url/api/session" || die "serve did not start: $(cat "$work/serve.err")"

jar="$work/cookies"
csrf=$(curl -s -c "$jar" "$url/api/session" | python3 -c 'import json,sys; print(json.load(sys.stdin)["csrf"])')

# One POST /login: its time in ms and its status.
sign_in() { # NAME PASSWORD ADDRESS
    curl -s -o /dev/null -b "$jar" -H "Origin: $url" -H "X-Real-IP: $3" -w '%{time_total} %{http_code}\n' \
        --data-urlencode "name=$1" --data-urlencode "password=$2" --data-urlencode "csrf=$csrf" "$url/login"
}

report() { # LABEL EXPECTED-STATUS < "seconds status" lines
    python3 -c '
import statistics, sys
label, expected = sys.argv[1], sys.argv[2]
rows = [line.split() for line in sys.stdin if line.strip()]
bad = [status for _, status in rows if status != expected]
times = sorted(float(seconds) * 1000 for seconds, _ in rows)
p = lambda q: times[min(len(times) - 1, int(round(q * (len(times) - 1))))]
print(f"{label:16} n={len(times):3}  p50 {p(0.5):6.1f} ms  p95 {p(0.95):6.1f} ms  max {times[-1]:6.1f} ms"
      + (f"  unexpected statuses: {sorted(set(bad))}" if bad else ""))
' "$1" "$2"
}

say "sign-in latency, $N of each, one at a time ($("$BIN" --version | head -1))"
for i in $(seq "$N"); do sign_in anna "$password" "10.0.0.1"; done | report "right password" 303
# One name's failures would reach its throttle: a right sign-in (not counted) after every 9 clears it.
for i in $(seq "$N"); do
    if ((i % 9 == 0)); then sign_in anna "$password" "10.0.0.1" >/dev/null; fi
    sign_in anna "wrong password $i" "10.1.$((i / 200)).$((i % 200))"
done | report "wrong password" 401
for i in $(seq "$N"); do sign_in "nobody$i" "wrong password $i" "10.2.$((i / 200)).$((i % 200))"; done | report "unknown name" 401
