# Sourced by the benchmarks that time photomap runs (export.sh, formats.sh), with `here` and `repo`
# set: installs GNU time and the Debian packages given as arguments, builds the release binary
# (unless PHOTOMAP_BIN names one), makes a work folder removed on exit, and defines `timed`.

missing=()
[ -x /usr/bin/time ] || missing+=(time)
for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
"$repo/scripts/install-deps"
if [ -z "${PHOTOMAP_BIN:-}" ]; then
    (cd "$repo" && swift build -c release --product photomap >/dev/null)
    PHOTOMAP_BIN="$repo/.build/release/photomap"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# timed COMMAND...: runs it (stdout to $work/stdout) and sets `wall` (seconds) and `peak_mb` (its
# peak resident memory); stops the benchmark with the command's errors if it fails.
timed() {
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" >"$work/stdout" 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
    local rss
    read -r wall rss <"$work/time"
    peak_mb=$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')
}
