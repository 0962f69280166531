# Sourced by every benchmark that runs photomap, with `here` and `repo` set, the Debian packages it
# needs as arguments: installs what is missing (GNU time always; no package's own service started),
# builds the release binary unless PHOTOMAP_BIN names one, makes a work folder `work` removed on exit
# (with any folder added to WORKS and any process added to PIDS), and defines say, die, free_port and
# `timed`. A benchmark may define `bench_cleanup`, run first on exit.

say() { printf 'bench: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

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
# peak resident memory); stops the benchmark with the command's errors if it fails.
timed() {
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" >"$work/stdout" 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
    local rss
    read -r wall rss <"$work/time"
    peak_mb=$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')
}
