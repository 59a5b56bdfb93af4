#!/usr/bin/env bash
# Regenerates link/startup-functions.txt: the functions referee runs from start until it is
# connected, registered and idle, then those it runs only once it serves commands (see that
# file's header, and build.rs).
#
# It runs the bot_load bench's idle phase with referee under valgrind's callgrind, once for the
# referee that `cargo bench` builds and once for the one `cargo build --release` makes (their
# symbols' hashes differ: dev-dependencies switch on features of shared crates), dumps the
# profile once the bot is idle, and keeps every function of the binary that ran. Then it runs
# the bench's /roll and mixed phases slowly (200 a second for 5 s each) under callgrind too, and
# keeps the functions that ran there and not at start-up.
#
# Needs valgrind and nm (binutils). Took 3 to 9 minutes from a warm target/ on 2 cores (two
# optimised links; longer when the code changed since the last build), and about 3 more for
# the load.
# Usage: bash scripts/startup-order.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

bench_exe=$(cargo bench --bench bot_load --no-run --message-format=json 2>/dev/null \
  | grep -o '"executable":"[^"]*bot_load[^"]*"' | cut -d'"' -f4 | tail -1)
cp target/release/referee "$work/referee-bench"
cargo build --release 2>/dev/null
cp target/release/referee "$work/referee-release"

# One build's executed functions, one name per line.
profile() {
  local binary=$1 out=$2
  cat >"$work/wrap.sh" <<WRAP
#!/usr/bin/env bash
exec valgrind --tool=callgrind --demangle=no --callgrind-out-file=$work/cg.%p "$binary" "\$@"
WRAP
  chmod +x "$work/wrap.sh"
  rm -f "$work"/cg.*
  (
    for _ in $(seq 1 600); do
      pid=$(pgrep -f "callgrind.*$binary" | head -1 || true)
      [ -n "$pid" ] && break
      sleep 0.05
    done
    # The bench stops the bot 2 s after it has registered its commands; under valgrind that is
    # about 3 s after the start, so dump at 2.5 s, once it is idle.
    sleep 2.5
    callgrind_control -d "$pid" >/dev/null 2>&1
  ) &
  REFEREE_LOAD_BIN="$work/wrap.sh" REFEREE_LOAD_PHASES=idle "$bench_exe" --bench >/dev/null
  wait
  # Functions the profile names (cost lines and calls), kept if they are code in the binary.
  grep -ohE '^c?fn=\([0-9]+\) .*' "$work"/cg.*.* | sed -E 's/^c?fn=\([0-9]+\) //' | sort -u >"$work/ran"
  nm "$binary" | awk '$2 ~ /^[tTwW]$/ {print $3}' | sort -u >"$work/code"
  comm -12 "$work/ran" "$work/code" >"$out"
  patterns "$out"
  echo "$(basename "$binary"): $(wc -l <"$out") functions ran" >&2

  # The same build serving commands: each phase's bot writes its profile when the bench stops
  # it (REFEREE_LOAD_WRAP).
  rm -f "$work"/load.*
  REFEREE_LOAD_BIN="$binary" \
    REFEREE_LOAD_WRAP="valgrind --tool=callgrind --demangle=no --callgrind-out-file=$work/load.%p" \
    REFEREE_LOAD_PHASES=roll,mix REFEREE_LOAD_ROLL_RATE=200 REFEREE_LOAD_MIX_RATE=200 \
    REFEREE_LOAD_SECS=5 "$bench_exe" --bench >/dev/null
  grep -ohE '^c?fn=\([0-9]+\) .*' "$work"/load.* | sed -E 's/^c?fn=\([0-9]+\) //' | sort -u \
    | comm -12 - "$work/code" >"$out.load"
  patterns "$out.load"
  echo "$(basename "$binary"): $(wc -l <"$out.load") functions ran under load" >&2
}

# Writes $1.patterns: the names of $1, a hashed name whose function has one copy in the binary
# ($work/code) as a pattern.
patterns() {
  local names=$1
  # A hashed name whose function has one copy in the binary becomes a pattern with the hash as
  # `*`, good for every build; a generic function's copies differ only by hash, so those stay
  # exact (a pattern would pull in all of its copies).
  sed -nE 's/^(.*17h)[0-9a-f]{16}E(\.[0-9]+)?$/\1/p' "$work/code" | sort | uniq -c \
    | awk '$1 == 1 {print $2}' >"$work/single"
  awk -v singles="$work/single" '
    BEGIN { while ((getline s < singles) > 0) one[s] = 1 }
    {
      if (match($0, /17h[0-9a-f]+E(\.[0-9]+)?$/)) {
        prefix = substr($0, 1, RSTART + 2)
        if (prefix in one) { print prefix "*"; next }
      }
      print
    }' "$names" >"$names.patterns"
}

# Between the two parts of the list.
LOAD_HEADER="# Run once the bot serves commands (/roll and the bench's mix), not at start-up."

profile "$work/referee-bench" "$work/bench"
profile "$work/referee-release" "$work/release"

sort -u "$work/bench.patterns" "$work/release.patterns" >"$work/startup"
sort -u "$work/bench.load.patterns" "$work/release.load.patterns" | comm -23 - "$work/startup" \
  >"$work/load"
{
  # The file's header: its comment lines up to the first name.
  sed -n '/^[^#]/q;p' link/startup-functions.txt
  cat "$work/startup"
  echo "$LOAD_HEADER"
  cat "$work/load"
} >"$work/list"
mv "$work/list" link/startup-functions.txt
echo "link/startup-functions.txt: $(grep -vc '^#' link/startup-functions.txt) names" >&2
