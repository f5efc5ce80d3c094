#!/usr/bin/env bash
# Renders the golden Adaptive Cards with Microsoft's adaptivecards renderer
# (under jsdom) and validates the Teams app manifest with
# @microsoft/app-manifest. The npm packages are installed once, pinned,
# into a cache outside the repository ($CEW_NODE_CACHE).
set -euo pipefail
cd "$(dirname "$0")/.."
cache=${CEW_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cew/teams-checks}
# Pinned versions; fs-extra is what @microsoft/app-manifest reads schemas with.
packages=(adaptivecards@3.0.6 jsdom@26.1.0 @microsoft/app-manifest@1.1.2 fs-extra@11.3.0)

command -v node >/dev/null || { echo "teams-checks: node is required (apt-get install nodejs npm)"; exit 1; }
mkdir -p "$cache"
stamp="$cache/.installed"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "${packages[*]}" ]; then
  echo "teams-checks: installing ${packages[*]} into $cache"
  [ -f "$cache/package.json" ] || echo '{"name":"cew-teams-checks","private":true,"version":"1.0.0"}' > "$cache/package.json"
  (cd "$cache" && npm install --no-audit --no-fund --save-exact --loglevel=error "${packages[@]}")
  echo "${packages[*]}" > "$stamp"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The manifest as `make teams-package` fills it, with example values.
go run ./scripts/teams-package -app-id 11111111-2222-3333-4444-555555555555 -host cew.example.com \
  -o "$work/app.zip" -manifest "$work/manifest.json" >/dev/null
NODE_PATH="$cache/node_modules" node scripts/teams-checks.js adapters/teams/testdata/golden "$work/manifest.json"
