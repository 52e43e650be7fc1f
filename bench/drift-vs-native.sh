#!/usr/bin/env bash
# The figures of issue 43's table, Loupe against native git side by side in one run, alternating,
# RUNS times: wall time, CPU time (user + system, children included) and peak RSS from GNU time.
#   - fetch head + merge-base of the date-fns fixture (bench/build-fixture-repo.sh) over the test
#     git server, against `git init --bare` + two `git fetch --depth 1`; the idle process's own
#     peak (Node with the fetch code loaded, nothing run) measured in the same run;
#   - the same fetch in a process that has fetched once (the App's warm worker), its own time,
#     against a second native fetch of the round;
#   - fetch depth 1 of one rails/rails commit (v8.0.0) from a mirror, served the same way;
#   - search, whole process: `loupe tool search_repository` (bin/loupe.js, compile cache warm)
#     against `git grep -F -n`, on the fixture's pack and on the rails mirror's pack;
#   - the rails diff v7.0.0 → v8.0.0 with rename detection, every file rendered
#     (bench/diff-render.ts), against `git diff -M v7.0.0...v8.0.0` (the merge-base, as Loupe
#     diffs a pull request) and `git diff -M v7.0.0 v8.0.0`.
# usage: bench/drift-vs-native.sh RAILS_GIT_DIR [RUNS]
#   DRIFT_ONLY=fetch: only the fetch figures (date-fns, its idle process, rails), no search or diff.
#   RAILS_GIT_DIR: a bare clone (or mirror) of https://github.com/rails/rails with tags v7.0.0 and v8.0.0
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
rails="$(cd "${1:?usage: bench/drift-vs-native.sh RAILS_GIT_DIR [RUNS]}" && pwd)"
runs="${2:-5}"
work="$here/.work"
node="$root/node_modules/.bin/node"
fixture="$work/fixture/server"
[ -d "$fixture/big.git" ] || { echo "run bench/build-fixture-repo.sh first" >&2; exit 2; }
export HOME="$work/fixture/home" XDG_CONFIG_HOME="$work/fixture/home/.config" GIT_CONFIG_NOSYSTEM=1 LC_ALL=C
export NODE_COMPILE_CACHE="$work/compile-cache"
tmp="$work/drift"; rm -rf "$tmp"; mkdir -p "$tmp/served"
ln -s "$fixture/big.git" "$tmp/served/big.git"
ln -s "$rails" "$tmp/served/rails.git"
head_sha="$(git -C "$fixture/big.git" rev-parse refs/pull/1/head)"
merge_base="$(git -C "$fixture/big.git" merge-base refs/heads/main refs/pull/1/head)"
rails_head="$(git -C "$rails" rev-parse 'v8.0.0^{commit}')"
query=loupe-bench-literal-that-is-nowhere
# Every Loupe process runs with the V8 flags the `loupe` command gives Node.
. "$here/loupe-node-flags.sh"

. "$here/serve-git.sh"
serve_git "$tmp/served" "$tmp/url"
url="$(cat "$tmp/url")"
results="$work/drift-results.txt"; : > "$results"

measure() { # label, command... (output discarded; a failing command stops the run, git grep's 1 excepted)
  local label="$1"; shift
  rm -rf "$tmp/w"; mkdir -p "$tmp/w"; sync
  /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$@" > /dev/null 2> "$tmp/err" || [ "$label" = grep-fixture ] || [ "$label" = grep-rails ] || { cat "$tmp/err" >&2; exit 1; }
  echo "$label $(tail -1 "$tmp/time")" >> "$results"
}
native_fetch() { git init -q --bare "$1/b" && git -C "$1/b" fetch -q --depth 1 "$2" "$3" && { [ "$3" = "$4" ] || git -C "$1/b" fetch -q --depth 1 "$2" "$4"; }; }
export -f native_fetch
loupe_search() { "$node" $node_flags "$root/bin/loupe.js" tool search_repository --repo "$1" --base "$2" --head "$2" --args "{\"query\":\"$query\"}"; }

# Warm-up: compile cache, page cache.
measure warmup "$node" $node_flags "$here/fetch-workspace.ts" "$url/big.git" "$head_sha" "$merge_base" --tmp "$tmp/w"
[ "${DRIFT_ONLY:-}" = fetch ] || loupe_search "$fixture/big.git" "$head_sha" > /dev/null
# The diff's modules too (run without arguments it loads them and prints its usage): a module
# missing from the compile cache loads Node's TypeScript stripper, ~60 ms the first diff would pay.
[ "${DRIFT_ONLY:-}" = fetch ] || "$node" $node_flags "$here/diff-render.ts" 2> /dev/null || true
for run in $(seq "$runs"); do
  measure idle "$node" $node_flags --input-type=module -e "await import('$root/src/workspace/fetch.ts')"
  measure fetch-loupe "$node" $node_flags "$here/fetch-workspace.ts" "$url/big.git" "$head_sha" "$merge_base" --tmp "$tmp/w"
  measure fetch-native bash -c 'native_fetch "$@"' - "$tmp/w" "$url/big.git" "$head_sha" "$merge_base"
  # The same fetch in a process that has fetched once already (the App's warm repository worker):
  # its own wall and CPU time, from the JSON line, against the same round's native fetch.
  rm -rf "$tmp/w"; mkdir -p "$tmp/w"; sync
  "$node" $node_flags "$here/fetch-workspace.ts" "$url/big.git" "$head_sha" "$merge_base" --tmp "$tmp/w" --warm |
    sed -E 's/.*"readyMs":([0-9]+),"cpuMs":([0-9]+).*/fetch-loupe-warm \1 \2/' |
    awk '{ printf "%s %.3f %.3f 0 0\n", $1, $2 / 1000, $3 / 1000 }' >> "$results"
  measure fetch-native-again bash -c 'native_fetch "$@"' - "$tmp/w" "$url/big.git" "$head_sha" "$merge_base"
  measure rails-fetch-loupe "$node" $node_flags "$here/fetch-workspace.ts" "$url/rails.git" "$rails_head" "$rails_head" --tmp "$tmp/w"
  measure rails-fetch-native bash -c 'native_fetch "$@"' - "$tmp/w" "$url/rails.git" "$rails_head" "$rails_head"
  [ "${DRIFT_ONLY:-}" = fetch ] && { echo "run $run done" >&2; continue; }
  measure search-fixture "$node" $node_flags "$root/bin/loupe.js" tool search_repository --repo "$fixture/big.git" --base "$head_sha" --head "$head_sha" --args "{\"query\":\"$query\"}"
  measure grep-fixture git -C "$fixture/big.git" grep -F -n "$query" "$head_sha"
  measure search-rails "$node" $node_flags "$root/bin/loupe.js" tool search_repository --repo "$rails" --base "$rails_head" --head "$rails_head" --args "{\"query\":\"$query\"}"
  measure grep-rails git -C "$rails" grep -F -n "$query" "$rails_head"
  measure diff-loupe "$node" $node_flags "$here/diff-render.ts" "$rails" v7.0.0 v8.0.0
  measure diff-native-3dot git -C "$rails" diff -M v7.0.0...v8.0.0
  measure diff-native-2dot git -C "$rails" diff -M v7.0.0 v8.0.0
  echo "run $run done" >&2
done

# Per pair: the ratio within each run (wall and CPU), then the median and the range over the runs.
awk -v runs="$runs" '
  { n[$1]++; wall[$1, n[$1]] = $2; cpu[$1, n[$1]] = $3 + $4; if ($5 > rss[$1]) rss[$1] = $5 }
  function sortv(a, k,   i, j, t) { for (i = 2; i <= k; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t } }
  function pair(name, ours, theirs,   i, w, c) {
    if (n[ours] == 0 || n[theirs] == 0) return
    for (i = 1; i <= runs; i++) { w[i] = wall[ours, i] / wall[theirs, i]; c[i] = cpu[ours, i] / cpu[theirs, i] }
    sortv(w, runs); sortv(c, runs)
    printf "%-34s wall %.2fx (%.2f-%.2f)  cpu %.2fx (%.2f-%.2f)  peak RSS %d / %d MB\n", name,
      w[int((runs + 1) / 2)], w[1], w[runs], c[int((runs + 1) / 2)], c[1], c[runs], rss[ours] / 1024, rss[theirs] / 1024
  }
  END {
    pair("fetch head + merge-base, date-fns", "fetch-loupe", "fetch-native")
    pair("the same in a warm process (its own)", "fetch-loupe-warm", "fetch-native-again")
    printf "%-34s peak RSS %d MB\n", "idle process (fetch code loaded)", rss["idle"] / 1024
    pair("fetch depth 1, rails", "rails-fetch-loupe", "rails-fetch-native")
    pair("search, whole process, date-fns", "search-fixture", "grep-fixture")
    pair("search, whole process, rails", "search-rails", "grep-rails")
    pair("rails diff vs git diff -M A...B", "diff-loupe", "diff-native-3dot")
    pair("rails diff vs git diff -M A B", "diff-loupe", "diff-native-2dot")
  }' "$results"
echo "raw figures: $results"
