#!/bin/sh
# Install code-server (VS Code in a browser) for the OSWorld vs_code tasks, from the npm
# registry only: no download from GitHub (its ripgrep comes from Debian's `ripgrep`).
#
# Needs: nodejs 20 with its headers, npm, build-essential, pkg-config, python3, libkrb5-dev,
# libx11-dev, libxkbfile-dev, libsecret-1-dev, ripgrep (Debian packages).
# Usage: sh install-code-server.sh [PREFIX]   (default /opt/code-server; links
#        /usr/local/bin/code-server). Takes a few minutes (native modules are compiled).
set -eu
VERSION=4.100.3            # the last code-server release that runs on Node.js 20
PREFIX=${1:-/opt/code-server}
BIN=${CODE_SERVER_BIN:-/usr/local/bin/code-server}

if [ -x "$PREFIX/out/node/entry.js" ] && "$PREFIX/out/node/entry.js" --version 2>/dev/null | grep -q "^$VERSION"; then
  echo "code-server $VERSION already in $PREFIX"
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "code-server@$VERSION" >/dev/null && tar xzf "code-server-$VERSION.tgz")
rm -rf "$PREFIX"
mkdir -p "$(dirname "$PREFIX")"
mv "$work/package" "$PREFIX"
cd "$PREFIX"
npm install --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error
npm rebuild argon2 --loglevel=error
cd lib/vscode
npm install --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error
# node-pty's post-install step (a compile_commands.json for editors) fetches node-gyp with
# npx and fails offline after the module is built: the check below is what matters.
npm rebuild kerberos node-pty @parcel/watcher @vscode/spdlog @vscode/deviceid native-watchdog \
  --loglevel=error || true
for module in node-pty/build/Release/pty.node @vscode/spdlog/build/Release/spdlog.node \
              native-watchdog/build/Release/watchdog.node; do
  [ -f "node_modules/$module" ] || { echo "native module $module did not build" >&2; exit 1; }
done
mkdir -p node_modules/@vscode/ripgrep/bin
cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
ln -sfn node_modules node_modules.asar
(cd bin/remote-cli && ln -sfn code-linux.sh code-server)
(cd bin/helpers && ln -sfn browser-linux.sh browser.sh)
(cd extensions && npm install --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error)
ln -sfn "$PREFIX/out/node/entry.js" "$BIN"
"$BIN" --version
