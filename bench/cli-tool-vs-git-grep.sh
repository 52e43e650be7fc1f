#!/usr/bin/env bash
# `loupe tool search_repository` as a whole process (the bin/loupe launcher, as an installed
# `loupe` runs) against `git grep -F -n` on the same commit, with hyperfine, side by side, on the
# repository bench/build-fixture-repo.sh builds: its work tree (objects loose, as after commits)
# and its bare server copy (one pack). Then what a launcher costs: `loupe --version` through
# bin/loupe, the same entry run directly, and a Node 20 JavaScript launcher starting Node 24.
# usage: bench/cli-tool-vs-git-grep.sh [RUNS]   (needs hyperfine: apt-get install -y hyperfine)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
runs="${1:-20}"
work="$here/.work"
node24="$root/node_modules/.bin/node"
loupe="$root/bin/loupe"
src="$work/fixture/src"
bare="$work/fixture/server/big.git"
[ -d "$src" ] && [ -d "$bare" ] || { echo "run bench/build-fixture-repo.sh first" >&2; exit 2; }
command -v hyperfine >/dev/null || { echo "hyperfine is missing (apt-get install -y hyperfine)" >&2; exit 2; }
export GIT_CONFIG_NOSYSTEM=1 LC_ALL=C
# The compile cache lives in the system temp directory; a private one makes the first run cold.
export NODE_COMPILE_CACHE="$work/compile-cache"
rm -rf "$NODE_COMPILE_CACHE"
query=loupe-bench-literal-that-is-nowhere
args="'{\"query\":\"$query\"}'"  # quoted: hyperfine -N splits the command like a shell
out="$work/cli-tool-results"
mkdir -p "$out"

for repo in "$src" "$bare"; do
  name=$(basename "$repo")
  head=$(git -C "$repo" rev-parse HEAD)
  # git grep exits 1 when nothing matches (the case measured): -i keeps hyperfine going.
  hyperfine -N -i --warmup 3 --runs "$runs" --export-json "$out/search-$name.json" \
    -n "git grep -F -n ($name)" "git -C $repo grep -F -n $query $head" \
    -n "loupe tool search_repository ($name)" \
    "$loupe tool search_repository --repo $repo --base $head --head $head --args $args"
done

# The Node 20 launcher a JavaScript bin would be: Node 20 starts, then starts Node 24.
system_node=$(PATH=$(printf %s "$PATH" | tr : '\n' | grep -v node_modules | paste -sd:) command -v node)
hyperfine -N --warmup 3 --runs "$runs" --export-json "$out/launcher.json" \
  -n "bin/loupe (sh) → Node 24" "$loupe --version" \
  -n "Node 24 bin/loupe.js directly" "$node24 $root/bin/loupe.js --version" \
  -n "$("$system_node" --version) JS launcher → Node 24" \
  "$system_node -e \"require('child_process').spawnSync(process.argv[1],process.argv.slice(2),{stdio:'inherit'})\" $node24 $root/bin/loupe.js --version" \
  -n "Node 24 src/cli.ts, no compile cache (type stripping every run)" \
  "env NODE_DISABLE_COMPILE_CACHE=1 $node24 $root/src/cli.ts --version"
echo "results: $out"
