#!/usr/bin/env bash
# Memory against the size of what a review fetches: one commit of incompressible 1 MiB files
# (random bytes, so the pack is as large as the files) per size given in MiB, served by the same
# local git http-backend bridge; Loupe's fetchWorkspace (--verify: every blob re-hashed) against
# `git clone --bare --depth 1`, side by side, wall time and peak RSS from /usr/bin/time. Then a
# file that packs small but is huge: 1 GiB of zeros, indexed by Loupe and by `git index-pack`.
# usage: bench/fetch-large-vs-native.sh [SIZE_MiB ...]   (default: 64 128 384)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
node="$root/node_modules/.bin/node"
work="$here/.work/large"
if [ $# -gt 0 ]; then sizes=("$@"); else sizes=(64 128 384); fi
mkdir -p "$work/home" "$work/server"
export HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" GIT_CONFIG_NOSYSTEM=1 LC_ALL=C
g() { git -c user.name="Loupe Bench" -c user.email=bench@loupe.invalid -c commit.gpgsign=false "$@"; }

for size in "${sizes[@]}"; do
  bare="$work/server/random-$size.git"
  [ -d "$bare" ] && continue
  src="$work/src-$size"; rm -rf "$src"; g init -q "$src"
  for i in $(seq "$size"); do head -c 1048576 /dev/urandom > "$src/f$i.bin"; done
  g -C "$src" add -A && g -C "$src" commit -q -m "random $size MiB"
  g clone -q --bare --no-local "$src" "$bare" && g -C "$bare" repack -a -d -q && rm -rf "$src"
done

"$node" "$here/git-http-serve.ts" "$work/server" > "$work/serve.url" &
server_pid=$!
tmp="$work/tmp"; rm -rf "$tmp"; mkdir -p "$tmp"
trap 'kill "$server_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 50); do [ -s "$work/serve.url" ] && break; sleep 0.1; done
base="$(cat "$work/serve.url")"

printf '%-10s %-28s %10s %12s\n' pack variant "wall s" "peak RSS MB"
for size in "${sizes[@]}"; do
  url="$base/random-$size.git"
  sha="$(git -C "$work/server/random-$size.git" rev-parse HEAD)"
  sync
  /usr/bin/time -f "%e %M" -o "$tmp/t" "$node" "$here/fetch-workspace.ts" "$url" "$sha" "$sha" \
    --verify --tmp "$tmp" --max-bytes 8589934592 > "$tmp/out"
  read -r wall rss < "$tmp/t"
  printf '%-10s %-28s %10.2f %12.1f\n' "${size}MiB" "loupe fetch ready + verify" "$wall" "$(echo "$rss/1024" | bc -l)"
  rm -rf "$tmp/n"; sync
  /usr/bin/time -f "%e %M" -o "$tmp/t" git clone -q --bare --depth 1 "$url" "$tmp/n"
  read -r wall rss < "$tmp/t"
  printf '%-10s %-28s %10.2f %12.1f\n' "${size}MiB" "native clone --bare --depth 1" "$wall" "$(echo "$rss/1024" | bc -l)"
  rm -rf "$tmp/n"
done

zeros="$work/zeros"
if [ ! -d "$zeros" ]; then
  g init -q "$zeros" && head -c 1073741824 /dev/zero > "$zeros/zeros.bin"
  g -C "$zeros" add zeros.bin && g -C "$zeros" commit -q -m zeros && g -C "$zeros" repack -a -d -q
  rm "$zeros/zeros.bin"
fi
pack="$(ls "$zeros"/.git/objects/pack/*.pack)"
/usr/bin/time -f "%e %M" -o "$tmp/t" "$node" "$here/index-pack.ts" "$pack" "$tmp/ours.idx" > /dev/null
read -r wall rss < "$tmp/t"
printf '%-10s %-28s %10.2f %12.1f\n' "1GiB-zeros" "loupe indexPack" "$wall" "$(echo "$rss/1024" | bc -l)"
/usr/bin/time -f "%e %M" -o "$tmp/t" git index-pack -o "$tmp/git.idx" "$pack" > /dev/null
read -r wall rss < "$tmp/t"
printf '%-10s %-28s %10.2f %12.1f\n' "1GiB-zeros" "git index-pack" "$wall" "$(echo "$rss/1024" | bc -l)"
cmp -s "$tmp/ours.idx" "$tmp/git.idx" && echo "the two .idx files are identical" || { echo "the .idx files differ" >&2; exit 1; }
