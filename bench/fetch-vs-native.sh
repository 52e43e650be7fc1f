#!/usr/bin/env bash
# Loupe's fetchWorkspace (head + merge-base at depth 1, both snapshots read: ready to serve
# tools) against native git on the same local git http-backend, side by side, RUNS times each,
# alternating. Wall time and peak RSS from /usr/bin/time; `sync` between runs. Then the cost of
# reading every blob of the head tree (a whole-tree search) against `git cat-file --batch`.
# usage: bench/fetch-vs-native.sh [RUNS]   (run bench/build-fixture-repo.sh first)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
runs="${1:-5}"
work="$here/.work"
node="$root/node_modules/.bin/node"
bare="$work/fixture/server/big.git"
[ -d "$bare" ] || { echo "run bench/build-fixture-repo.sh first" >&2; exit 2; }
export HOME="$work/fixture/home" XDG_CONFIG_HOME="$work/fixture/home/.config" GIT_CONFIG_NOSYSTEM=1 LC_ALL=C
head_sha="$(git -C "$bare" rev-parse refs/pull/1/head)"
merge_base="$(git -C "$bare" merge-base refs/heads/main refs/pull/1/head)"
tmp="$work/tmp"; rm -rf "$tmp"; mkdir -p "$tmp"

"$node" "$here/git-http-serve.ts" "$work/fixture/server" > "$work/serve.url" &
server_pid=$!
trap 'kill "$server_pid" 2>/dev/null; cp "$tmp/results.txt" "$work/fetch-results.txt" 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 50); do [ -s "$work/serve.url" ] && break; sleep 0.1; done
url="$(cat "$work/serve.url")/big.git"

measure() { # label, command...
  local label="$1"; shift
  rm -rf "$tmp/n" "$tmp/b"  # outside the timed command: deleting a checkout is not part of a fetch
  sync
  /usr/bin/time -f "$label %e %M %U %S" -o "$tmp/time.txt" "$@" > "$tmp/out.txt"
  cat "$tmp/time.txt" >> "$tmp/results.txt"
}
native_clone() {
  git clone -q --depth 1 "$url" "$tmp/n" && git -C "$tmp/n" fetch -q --depth 1 origin "$merge_base"
}
native_bare() {
  git init -q --bare "$tmp/b" && git -C "$tmp/b" fetch -q --depth 1 "$url" "$head_sha" &&
    git -C "$tmp/b" fetch -q --depth 1 "$url" "$merge_base"
}
export -f native_clone native_bare
export url head_sha merge_base tmp

for _ in $(seq "$runs"); do
  measure loupe-fetch-ready "$node" "$here/fetch-workspace.ts" "$url" "$head_sha" "$merge_base" --tmp "$tmp"
  measure native-clone+fetch bash -c native_clone
  measure native-bare-fetch-x2 bash -c native_bare
done
rm -rf "$tmp/n" "$tmp/b"

echo "files at head: $(git -C "$bare" ls-tree -r --name-only "$head_sha" | wc -l); runs: $runs"
printf '%-22s %10s %10s %12s\n' variant "median s" "max s" "peak RSS MB"
for label in loupe-fetch-ready native-clone+fetch native-bare-fetch-x2; do
  grep "^$label " "$tmp/results.txt" | sort -k2,2n | awk -v l="$label" '
    { t[NR]=$2; if ($3>m) m=$3 }
    END { med=(NR%2)?t[(NR+1)/2]:(t[NR/2]+t[NR/2+1])/2; printf "%-22s %10.2f %10.2f %12.1f\n", l, med, t[NR], m/1024 }'
done

echo "whole-tree read of the head ($head_sha):"
"$node" "$here/fetch-workspace.ts" "$url" "$head_sha" "$merge_base" --read-all --tmp "$tmp" |
  sed 's/^/  loupe readBlob x all: /'
start=$(date +%s.%N)
git -C "$bare" ls-tree -r "$head_sha" | awk '$2=="blob"{print $3}' | git -C "$bare" cat-file --batch > /dev/null
echo "  native ls-tree -r | cat-file --batch: $(echo "$(date +%s.%N) - $start" | bc) s"
