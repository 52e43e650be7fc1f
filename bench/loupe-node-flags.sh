# Sourced by the benches (with $root set): node_flags, the V8 flags the `loupe` command gives Node
# (bin/loupe), so that a bench's Loupe process runs as a user's command does.
# LOUPE_NODE_FLAGS= (set and empty) measures without them; LOUPE_NODE_FLAGS="…" with others.
node_flags="${LOUPE_NODE_FLAGS-$(sed -n 's/^node_flags="\(.*\)"$/\1/p' "$root/bin/loupe")}"
echo "Loupe's node flags: ${node_flags:-none}" >&2
