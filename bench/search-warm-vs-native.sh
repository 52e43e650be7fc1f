#!/usr/bin/env bash
# search_repository in the App's warm repository worker (bench/search-warm.ts: the median CPU of
# five searches after a first one, each on a freshly opened repository) against `git grep -F -n`
# on the same commit (REPEATS runs in one GNU time measurement: it counts in 10 ms steps),
# alternating, ROUNDS times; CPU time (user + system). Prints each round's ratio, then the median
# and the range.
# usage: bench/search-warm-vs-native.sh REPOSITORY REVISION [ROUNDS] [REPEATS]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
repo="${1:?usage: bench/search-warm-vs-native.sh REPOSITORY REVISION [ROUNDS] [REPEATS]}"
revision="$(git -C "$repo" rev-parse "${2:?revision}^{commit}")"
rounds="${3:-3}"
repeats="${4:-10}"
node="$root/node_modules/.bin/node"
query=loupe-bench-literal-that-is-nowhere
export GIT_CONFIG_NOSYSTEM=1 LC_ALL=C NODE_COMPILE_CACHE="$here/.work/compile-cache"
timing="$(mktemp)"
trap 'rm -f "$timing"' EXIT
for round in $(seq "$rounds"); do
  loupe=$("$node" "$here/search-warm.ts" "$repo" "$revision" "$query" | sed 's/.*"searchCpuMs":\([0-9]*\).*/\1/')
  # git grep exits 1 when nothing matches (the case measured).
  /usr/bin/time -f "%U %S" -o "$timing" sh -c "for _ in \$(seq $repeats); do git -C '$repo' grep -F -n '$query' $revision; done; true"
  git=$(tail -1 "$timing" | awk -v n="$repeats" '{ printf "%.1f", ($1 + $2) * 1000 / n }')
  echo "round $round: loupe ${loupe} ms, git grep ${git} ms, ratio $(awk -v a="$loupe" -v b="$git" 'BEGIN { printf "%.2f", a / b }')"
done | tee /dev/stderr | awk '{ print $NF }' | sort -n | awk '{ r[NR] = $1 } END { printf "CPU ratio, median %.2f (%.2f-%.2f) over %d rounds\n", r[int((NR + 1) / 2)], r[1], r[NR], NR }'
