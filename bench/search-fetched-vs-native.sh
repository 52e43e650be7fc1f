#!/usr/bin/env bash
# search_repository where the App meets it: in a warm repository worker, on a workspace fetched
# the App's way (head + merge-base of the date-fns fixture over the test git server, the packs
# indexed by Loupe), against `git grep -F -n` on the same two commits fetched by native git from
# the same server (`git fetch --depth 1`, so the same server-built pack). bench/search-warm.ts
# times only the searches (the median of five, after a first one, each on a freshly fetched
# workspace); git grep runs REPEATS times in one GNU time measurement (it counts in 10 ms steps).
# Alternating, ROUNDS times; CPU time (user + system). Prints each round's ratio, then the median
# and the range.
# usage: bench/search-fetched-vs-native.sh [ROUNDS] [REPEATS]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
rounds="${1:-3}"
repeats="${2:-10}"
work="$here/.work"
fixture="$work/fixture/server"
[ -d "$fixture/big.git" ] || { echo "run bench/build-fixture-repo.sh first" >&2; exit 2; }
node="$root/node_modules/.bin/node"
query=loupe-bench-literal-that-is-nowhere
export HOME="$work/fixture/home" XDG_CONFIG_HOME="$work/fixture/home/.config" GIT_CONFIG_NOSYSTEM=1 LC_ALL=C
export NODE_COMPILE_CACHE="$work/compile-cache"
tmp="$work/search-fetched"; rm -rf "$tmp"; mkdir -p "$tmp/served"
ln -s "$fixture/big.git" "$tmp/served/big.git"
head_sha="$(git -C "$fixture/big.git" rev-parse refs/pull/1/head)"
merge_base="$(git -C "$fixture/big.git" merge-base refs/heads/main refs/pull/1/head)"
. "$here/serve-git.sh"
serve_git "$tmp/served" "$tmp/url"
url="$(cat "$tmp/url")/big.git"
git init -q --bare "$tmp/native.git"
git -C "$tmp/native.git" fetch -q --depth 1 "$url" "$head_sha"
git -C "$tmp/native.git" fetch -q --depth 1 "$url" "$merge_base"
for round in $(seq "$rounds"); do
  loupe=$(TMPDIR="$tmp" "$node" "$here/search-warm.ts" "$url" "$head_sha" "$query" 5 "$merge_base" |
    sed 's/.*"searchCpuMs":\([0-9]*\).*/\1/')
  # git grep exits 1 when nothing matches (the case measured).
  /usr/bin/time -f "%U %S" -o "$tmp/time" sh -c "for _ in \$(seq $repeats); do git -C '$tmp/native.git' grep -F -n '$query' $head_sha; done; true"
  git=$(tail -1 "$tmp/time" | awk -v n="$repeats" '{ printf "%.1f", ($1 + $2) * 1000 / n }')
  echo "round $round: loupe ${loupe} ms, git grep ${git} ms, ratio $(awk -v a="$loupe" -v b="$git" 'BEGIN { printf "%.2f", a / b }')"
done | tee /dev/stderr | awk '{ print $NF }' | sort -n | awk '{ r[NR] = $1 } END { printf "CPU ratio, median %.2f (%.2f-%.2f) over %d rounds\n", r[int((NR + 1) / 2)], r[1], r[NR], NR }'
