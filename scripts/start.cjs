#!/usr/bin/env node
// `npm start`: the desktop app when Electron's binary is here (fetched once with Electron's own
// installer when missing), else host mode: the same UI in a browser on 127.0.0.1 with a
// per-launch token. better-sqlite3 must match the runtime that loads it: node_modules keeps the
// Node build (CLI, tests, host mode); Electron gets its own copy built into .cache/ and named by
// SKILLDESK_SQLITE_BINDING.
//   npm start                 app or host mode
//   npm start -- --host       host mode even when Electron is available
//   npm start -- --port 5780  host mode port (default: a free one)
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const args = process.argv.slice(2);
const forceHost = args.includes('--host');
const passThrough = args.filter((a) => a !== '--host');

function newestMtime(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) newest = Math.max(newest, statSync(join(e.parentPath, e.name)).mtimeMs);
  }
  return newest;
}

/** Builds out/ when it is missing or older than the sources. */
function ensureBuilt() {
  const outputs = ['out/main/index.js', 'out/main/host.js', 'out/renderer/index.html'].map((p) => join(root, p));
  const src = join(root, 'src');
  const fresh = outputs.every(existsSync) && (!existsSync(src) || Math.min(...outputs.map((p) => statSync(p).mtimeMs)) >= newestMtime(src));
  if (fresh) return;
  process.stderr.write('Building SkillDesk (electron-vite build)...\n');
  const r = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build', '--logLevel', 'error'],
    { cwd: root, stdio: 'inherit' },
  );
  if (r.status !== 0) {
    process.stderr.write('The build failed; fix the errors above and run `npm start` again.\n');
    process.exit(r.status ?? 1);
  }
}

/** The Electron executable, or an explanation of why there is none. */
function electronBinary() {
  const dir = join(root, 'node_modules', 'electron');
  if (!existsSync(join(dir, 'package.json'))) return { error: 'the electron package is not installed' };
  const locate = () => {
    const pathFile = join(dir, 'path.txt');
    if (!existsSync(pathFile)) return undefined;
    const exe = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
    return existsSync(exe) ? exe : undefined;
  };
  let exe = locate();
  if (exe) return { exe };
  // One attempt with Electron's own installer (it downloads the binary for this platform).
  const r = spawnSync(process.execPath, [join(dir, 'install.js')], { cwd: dir, encoding: 'utf8', timeout: 180_000 });
  exe = locate();
  if (exe) return { exe };
  const why =
    `${r.stderr || r.stdout || ''}`
      .split('\n')
      .map((l) => l.trim())
      .find((l) => /error|ENOTFOUND|EAI_AGAIN|ECONN|403|404/i.test(l)) || `exit code ${r.status}`;
  return { error: `Electron's binary is missing and its installer could not fetch it (${why.slice(0, 160)})` };
}

/**
 * better-sqlite3 built for Electron's ABI, in .cache/ (the Node build in node_modules stays for
 * the CLI and tests). Built once per Electron version with @electron/rebuild; needs the
 * network for Electron's headers the first time.
 */
function electronSqliteBinding() {
  const version = JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
  const base = join(root, '.cache', `better-sqlite3-electron-${version}`);
  const binding = join(base, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
  if (existsSync(binding)) return { binding };
  rmSync(base, { recursive: true, force: true });
  mkdirSync(join(base, 'node_modules'), { recursive: true });
  cpSync(join(root, 'node_modules', 'better-sqlite3'), join(base, 'node_modules', 'better-sqlite3'), {
    recursive: true,
    dereference: true,
  });
  // Drop the copied Node build so that a binding present afterwards is the Electron one.
  rmSync(join(base, 'node_modules', 'better-sqlite3', 'build'), { recursive: true, force: true });
  const dep = JSON.parse(readFileSync(join(root, 'node_modules', 'better-sqlite3', 'package.json'), 'utf8'));
  writeFileSync(
    join(base, 'package.json'),
    JSON.stringify({ name: 'skilldesk-electron-natives', private: true, dependencies: { 'better-sqlite3': dep.version } }),
  );
  // @electron/rebuild comes with electron-builder; its CLI file is not in the package's exports map.
  const rebuild = join(root, 'node_modules', '@electron', 'rebuild', 'lib', 'cli.js');
  if (!existsSync(rebuild)) return { error: 'better-sqlite3 could not be built for Electron (@electron/rebuild is not installed)' };
  const r = spawnSync(process.execPath, [rebuild, '--version', version, '--module-dir', base, '--only', 'better-sqlite3', '--force'], {
    cwd: base,
    encoding: 'utf8',
    timeout: 600_000,
  });
  if (existsSync(binding) && r.status === 0) return { binding };
  const lines = `${r.stderr || ''}\n${r.stdout || ''}`
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('at '));
  const why = lines.some((l) => /network connectivity|ENOTFOUND|EAI_AGAIN|ECONNREFUSED/i.test(l))
    ? "Electron's headers could not be downloaded: no network"
    : lines.find((l) => /^Error:/.test(l)) || `exit code ${r.status}`;
  return { error: `better-sqlite3 could not be built for Electron ${version} (${why.slice(0, 160)})` };
}

function startHost() {
  const child = spawn(process.execPath, [join(root, 'out', 'main', 'host.js'), ...passThrough], { cwd: root, stdio: 'inherit' });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code) => process.exit(code ?? 0));
}

function startElectron(exe, binding) {
  const env = { ...process.env, SKILLDESK_SQLITE_BINDING: binding };
  delete env.ELECTRON_RUN_AS_NODE;
  const child = spawn(exe, [root, ...passThrough], { cwd: root, stdio: 'inherit', env });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code) => process.exit(code ?? 0));
}

ensureBuilt();
if (forceHost) {
  startHost();
} else {
  const electron = electronBinary();
  const sqlite = electron.exe ? electronSqliteBinding() : undefined;
  if (electron.exe && sqlite.binding) {
    startElectron(electron.exe, sqlite.binding);
  } else {
    process.stderr.write(`${electron.error ?? sqlite.error}; starting host mode instead.\n`);
    startHost();
  }
}
