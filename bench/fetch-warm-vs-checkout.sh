#!/usr/bin/env bash
# The App's fetch (head + merge-base of the date-fns fixture over the test git server, in a
# process that has fetched once: the warm repository worker) against another checkout's (the
# commit before a change, as `git worktree add /tmp/before <commit>` with node_modules linked),
# alternating, ROUNDS times: the fetch's wall time until the workspace is ready, and its CPU
# (bench/fetch-workspace.ts --warm). Prints the medians and each side's rounds.
# usage: bench/fetch-warm-vs-checkout.sh OTHER_CHECKOUT [ROUNDS]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
other="$(cd "${1:?usage: bench/fetch-warm-vs-checkout.sh OTHER_CHECKOUT [ROUNDS]}" && pwd)"
rounds="${2:-10}"
work="$here/.work"
fixture="$work/fixture/server"
[ -d "$fixture/big.git" ] || { echo "run bench/build-fixture-repo.sh first" >&2; exit 2; }
node="$root/node_modules/.bin/node"
export HOME="$work/fixture/home" XDG_CONFIG_HOME="$work/fixture/home/.config" GIT_CONFIG_NOSYSTEM=1 LC_ALL=C
export NODE_COMPILE_CACHE="$work/compile-cache"
tmp="$work/fetch-warm"; rm -rf "$tmp"; mkdir -p "$tmp/served" "$tmp/w"
ln -s "$fixture/big.git" "$tmp/served/big.git"
head_sha="$(git -C "$fixture/big.git" rev-parse refs/pull/1/head)"
merge_base="$(git -C "$fixture/big.git" merge-base refs/heads/main refs/pull/1/head)"
. "$here/loupe-node-flags.sh"
. "$here/serve-git.sh"
serve_git "$tmp/served" "$tmp/url"
url="$(cat "$tmp/url")/big.git"
for _ in $(seq "$rounds"); do
  for side in other here; do
    dir="$root"; [ "$side" = other ] && dir="$other"
    (cd "$dir" && "$node" $node_flags bench/fetch-workspace.ts "$url" "$head_sha" "$merge_base" --tmp "$tmp/w" --warm) |
      sed -E "s/.*\"readyMs\":([0-9]+),\"cpuMs\":([0-9]+).*/$side \1 \2/"
  done
done | awk '
  { wall[$1] = wall[$1] " " $2; cpu[$1] = cpu[$1] " " $3; n[$1]++ }
  function median(list,   v, k, i, j, t) {
    k = split(list, v, " ")
    for (i = 2; i <= k; i++) { t = v[i] + 0; for (j = i - 1; j >= 1 && v[j] + 0 > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
    return v[int((k + 1) / 2)]
  }
  END {
    for (side in n) printf "%-5s ready %s ms, CPU %s ms (medians of %d); ready:%s; CPU:%s\n", side, median(wall[side]), median(cpu[side]), n[side], wall[side], cpu[side]
  }'
