#!/usr/bin/env bash
# Where a test tier's CPU goes, by program: the tier runs under process accounting (every process
# that ends is recorded with its CPU, whatever started it) while strace records each program's
# command line (execve only, filtered in the kernel), and tier-census-report.ts joins the two by
# pid: the Loupe servers, the jest workers, npm, git, Chromium... The timing reporter names the
# costliest test files; this names what inside them costs. Accounting is machine-wide: run it on
# an otherwise idle machine. strace adds about a quarter to the tier's CPU; the shares hold.
# usage (as root): bench/tier-census.sh TIER [ROWS]   TIER: fast, e2e or drift
#   needs accton and dump-acct (apt-get install -y acct) and strace (apt-get install -y strace)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
tier="${1:?usage: bench/tier-census.sh fast|e2e|drift [ROWS]}"
rows="${2:-30}"
case "$tier" in
  fast) workers=3 ;; # package.json's test scripts
  e2e) workers=4 ;;
  drift) workers=1 ;;
  *) echo "unknown tier $tier (fast, e2e or drift)" >&2; exit 2 ;;
esac
for program in accton dump-acct strace; do
  command -v "$program" >/dev/null || { echo "$program is missing (apt-get install -y acct strace)" >&2; exit 2; }
done
[ "$(id -u)" = 0 ] || { echo "process accounting needs root" >&2; exit 2; }
work="$(mktemp -d)"
trap 'accton off >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
touch "$work/pacct"
accton "$work/pacct" >/dev/null
status=0
# As npm scripts run it: the project's Node 24 first on PATH, for jest and what the tests start.
PATH="$root/node_modules/.bin:$PATH" NODE_OPTIONS=--experimental-vm-modules LOUPE_TEST_SLOWEST=0 \
  strace -f --seccomp-bpf -qq -e trace=execve -e signal=none -s 300 -o "$work/exec.txt" \
  "$root/node_modules/.bin/jest" --selectProjects "$tier" --maxWorkers="$workers" >"$work/jest.log" 2>&1 || status=$?
accton off >/dev/null
dump-acct "$work/pacct" >"$work/acct.txt"
grep -E '^(Tests|Time):|^FAIL|^  ● ' "$work/jest.log" | sort -u || true
"$root/node_modules/.bin/node" "$here/tier-census-report.ts" "$work/exec.txt" "$work/acct.txt" "$rows"
exit "$status"
