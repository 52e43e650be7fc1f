#!/usr/bin/env bash
# Peak memory (and CPU) of a review's fetch of a 100,000-file monorepo: Loupe's fetchWorkspace
# (head + merge-base, both trees read) against `git init --bare` + two `git fetch --depth 1` over
# the same test git server, alternating, RUNS times; the idle process's own peak (Node with the
# fetch code loaded) in the same run. GNU time: wall, user + system, peak RSS.
# usage: bench/fetch-monorepo-vs-native.sh [RUNS] [FILES]   (builds bench/.work/mono/mono.git once)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
runs="${1:-3}"
files="${2:-100000}"
work="$here/.work/mono"
node="$root/node_modules/.bin/node"
export GIT_CONFIG_NOSYSTEM=1 LC_ALL=C NODE_COMPILE_CACHE="$here/.work/compile-cache"
mkdir -p "$work"
. "$here/loupe-node-flags.sh" # Loupe's processes run with the V8 flags the `loupe` command gives Node
[ -d "$work/mono.git" ] || "$node" "$here/build-monorepo.ts" "$work/mono.git" "$files" > "$work/shas"
read -r head_sha merge_base < "$work/shas"
tmp="$work/tmp"; rm -rf "$tmp"; mkdir -p "$tmp"
. "$here/serve-git.sh"
serve_git "$work" "$tmp/url"
url="$(cat "$tmp/url")/mono.git"
results="$work/results.txt"; : > "$results"
measure() {
  local label="$1"; shift
  rm -rf "$tmp/w"; mkdir -p "$tmp/w"; sync
  /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$@" > /dev/null
  echo "$label $(tail -1 "$tmp/time")" | tee -a "$results"
}
native_fetch() { git init -q --bare "$1/b" && git -C "$1/b" fetch -q --depth 1 "$2" "$3" && git -C "$1/b" fetch -q --depth 1 "$2" "$4"; }
export -f native_fetch
measure warmup "$node" $node_flags "$here/fetch-workspace.ts" "$url" "$head_sha" "$merge_base" --tmp "$tmp/w" > /dev/null
for _ in $(seq "$runs"); do
  measure idle "$node" $node_flags --input-type=module -e "await import('$root/src/workspace/fetch.ts')"
  measure loupe "$node" $node_flags "$here/fetch-workspace.ts" "$url" "$head_sha" "$merge_base" --tmp "$tmp/w"
  measure native bash -c 'native_fetch "$@"' - "$tmp/w" "$url" "$head_sha" "$merge_base"
done
echo "(label wall-s user-s system-s peak-RSS-kB) → $results"
