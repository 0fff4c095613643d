#!/usr/bin/env bash
# Proves the README's first command on a clone with nothing beside it: the committed HEAD is cloned
# into an empty temporary folder (no ../shared beside or above it), `npm ci && npm start` runs
# there, and the check passes once /api/health/ready answers ready and one search returns
# passages from both models. The server and the folder are removed at the end, pass or fail.
# Usage: bash scripts/fresh-clone-check.sh   (npm run check:fresh-clone)
set -euo pipefail
repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
work=$(mktemp -d "${TMPDIR:-/tmp}/alchemy-fresh-clone-XXXXXX")
server_pid=
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

say() { printf '[fresh clone] %s\n' "$*"; }
fail() { say "FAILED: $*" >&2; [ -f "$work/start.log" ] && tail -40 "$work/start.log" >&2; exit 1; }

# Nothing named shared may stand beside the clone or above it: the project must not need it.
dir="$work/app"
while [ "$dir" != / ]; do
  dir=$(dirname "$dir")
  [ -e "$dir/shared" ] && fail "$dir/shared exists, so this would not prove a clone with nothing beside it"
done

say "cloning $(git -C "$repo" rev-parse --short HEAD) into $work/app"
git clone -q "$repo" "$work/app"
cd "$work/app"

say "npm ci"
start=$(date +%s)
npm ci --no-audit --no-fund --loglevel=error >"$work/ci.log" 2>&1 || { tail -40 "$work/ci.log" >&2; fail "npm ci"; }

port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
say "npm start on port $port"
PORT=$port DATA_DIR="$work/data" MODEL_FETCH=never npm start >"$work/start.log" 2>&1 &
server_pid=$!

base="http://127.0.0.1:$port/api"
ready=
for _ in $(seq 1 600); do
  kill -0 "$server_pid" 2>/dev/null || fail "npm start exited"
  if curl -fsS "$base/health/ready" >/dev/null 2>&1; then ready=1; break; fi
  sleep 1
done
[ -n "$ready" ] || fail "not ready after 10 minutes"
say "ready $(( $(date +%s) - start )) s after npm ci began"

reply=$(curl -fsS -X POST -H 'content-type: application/json' \
  --data '{"query":"how can I know myself?"}' "$base/search") || fail "search"
node -e '
  const results = JSON.parse(process.argv[1]);
  const models = new Set(results.map((r) => r.model));
  if (!Array.isArray(results) || results.length === 0 || models.size < 2 || !results.every((r) => r.text && r.chapter))
    { console.error("unexpected search reply: " + process.argv[1].slice(0, 500)); process.exit(1); }
  console.log(`[fresh clone] a search returned ${results.length} passages from ${[...models].join(" and ")}, first: ${results[0].id}`);
' "$reply" || fail "search reply"
grep -q "password:" "$work/start.log" || fail "the demo user's password was not printed on the first start"
say "passed"
