#!/usr/bin/env bash
# Builds the benchmark repository: published versions of date-fns (from the npm registry, the
# only network used) committed as history, plus a PR branch with edits, a rename, a delete, a
# binary file and a chmod. Output: bench/.work/fixture/src (work tree) and .../server/big.git
# (bare, repacked, with refs/pull/1/head). Re-running reuses the downloaded tarballs.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$here/.work/fixture"
mkdir -p "$work/tarballs" "$work/home"
export HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" GIT_CONFIG_NOSYSTEM=1 LC_ALL=C
g() { git -c user.name="Loupe Bench" -c user.email=bench@loupe.invalid -c commit.gpgsign=false "$@"; }

versions=(3.6.0 4.0.0 4.1.0)
for v in "${versions[@]}"; do
  [ -f "$work/tarballs/date-fns-$v.tgz" ] || (cd "$work/tarballs" && npm pack --silent "date-fns@$v" >/dev/null)
done

rm -rf "$work/src" "$work/server"
mkdir -p "$work/src" "$work/server"
cd "$work/src"
g init --quiet --initial-branch=main
for v in "${versions[@]}"; do
  find . -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
  tar -xzf "$work/tarballs/date-fns-$v.tgz" --strip-components=1
  g add -A && g commit --quiet -m "import date-fns $v"
  [ "$v" = 4.0.0 ] && g branch pr-base
done
echo "main moves on" >> README.md && g commit --quiet -am "main: one more commit"

# The PR branches off 4.0.0: multi-hunk edits, a delete, an add, a rename, a binary, a chmod.
g checkout --quiet -b pr pr-base
sed -i '1s/^/\/\/ reviewed by loupe\n/' addDays.js
sed -i 's/export function format(/export function format(\/* pr *\/ /' format.js
printf '\n// appended by the PR\n' >> parse.js
g rm --quiet isFirstDayOfMonth.d.cts
g mv addWeeks.js addWeeksRenamed.js
head -c 4096 /dev/urandom > logo.bin
printf 'export const feature = 1;\n' > newFeature.js
chmod +x README.md
g add -A && g commit --quiet -m "pr: edits, rename, delete, binary, chmod"
printf 'export const feature = 2;\n' > newFeature.js
g commit --quiet -am "pr: second commit"

g clone --quiet --bare --no-local "$work/src" "$work/server/big.git"
cd "$work/server/big.git"
g update-ref refs/pull/1/head "$(g rev-parse pr)"
g repack -a -d -q
g gc --quiet --prune=now

echo "files at head: $(g ls-tree -r --name-only pr | wc -l)"
echo "head=$(g rev-parse pr) merge-base=$(g merge-base main pr) main=$(g rev-parse main)"
du -sh objects/pack | sed 's/^/pack: /'
