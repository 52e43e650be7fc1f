# Sourced by the benches (with $here and $node set): serve_git DIR URL_FILE starts the test git
# server (bench/git-http-serve.ts, 127.0.0.1) on DIR, stops it when the script exits, and waits for
# the base URL it writes to URL_FILE. $server is its pid.
serve_git() {
  "$node" "$here/git-http-serve.ts" "$1" > "$2" &
  server=$!
  trap 'kill "$server" 2>/dev/null || true' EXIT
  for _ in $(seq 50); do [ -s "$2" ] && break; sleep 0.1; done
}
