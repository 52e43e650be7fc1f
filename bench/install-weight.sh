#!/usr/bin/env bash
# What an install of the packed tarball weighs (`npm pack`, then `npm install -g` into a private
# prefix, or with --local a project install there, as `npm install --prefix DIR` does), in total
# and per package, largest first. Packages come from the local npm cache when it has them (the
# registry otherwise).
# usage: bench/install-weight.sh [--local] [EXTRA NPM INSTALL FLAGS...]   e.g. --omit=optional
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/loupe-install-weight-XXXXXX")"
trap 'rm -rf "$work"' EXIT
global=-g
if [ "${1:-}" = --local ]; then global=; shift; fi
cd "$root"
tarball="$(npm pack --silent --pack-destination "$work" | tail -n 1)"
npm install $global --prefix "$work/prefix" --prefer-offline --no-audit --no-fund --loglevel=error \
  "$@" "$work/$tarball" >/dev/null
if [ -n "$global" ]; then installed="$work/prefix/lib/node_modules/loupe-review"; modules="$installed/node_modules"
else installed="$work/prefix/node_modules"; modules="$installed"; fi
echo "total: $(du -sm "$installed" | cut -f1) MB ($tarball ${global:---local} $*)"
echo "per package (MB, nested dependencies counted with the package that holds them):"
cd "$modules"
for dir in $(ls -d */ | grep -v '^@') $(ls -d @*/*/ 2>/dev/null); do
  du -sm "$dir"
done 2>/dev/null | sort -rn | head -n "${BENCH_TOP:-25}"
