import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LaunchRequest, ProcessRunner, ScriptRequest, ScriptResult } from '../../../shared/ports/desktop';
import { DesktopError } from './errors';
import { defaultParentDeathWatch, groupedCommand, type ParentDeathWatch } from './scriptGroup';

const MAX_OUTPUT_BYTES = 4 * 1024 * 1024;
const KILL_GRACE_MS = 2000;

/** Options of NodeProcessRunner. */
export interface NodeProcessRunnerOptions {
  /** @default process.platform */
  platform?: NodeJS.Platform;
  /** Environment added to every launch and script (e.g. DISPLAY, WINEPREFIX). */
  env?: Record<string, string>;
  /**
   * How a script is killed when SkillDesk itself is killed (scriptGroup.ts).
   * @default 'pdeathsig' on Linux with util-linux's setpriv, 'poll' on other POSIX systems, 'none' on Windows
   */
  parentDeath?: ParentDeathWatch;
}

// Scripts running now, by process group: killed when this process exits normally (an exit
// handler runs then; for a kill -9 it does not, and the parent-death watch does the job).
const runningGroups = new Set<number>();
let exitHookInstalled = false;

function killRunningGroupsOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const pgid of runningGroups) {
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });
}

/**
 * Starts applications and runs scripts with Node's child_process. Applications outlive SkillDesk;
 * scripts do not: each runs in its own process group, killed on timeout, abort, SkillDesk's exit,
 * and (through the parent-death watch) SkillDesk being killed.
 */
export class NodeProcessRunner implements ProcessRunner {
  private readonly platform: NodeJS.Platform;
  private readonly env: Record<string, string>;
  private readonly parentDeath: ParentDeathWatch;

  constructor(options: NodeProcessRunnerOptions = {}) {
    this.platform = options.platform ?? process.platform;
    this.env = options.env ?? {};
    this.parentDeath = options.parentDeath ?? defaultParentDeathWatch(this.platform);
  }

  /** Starts `command` detached from SkillDesk (it outlives the run); resolves once it has started. */
  launch(req: LaunchRequest): Promise<{ pid: number }> {
    return new Promise((resolve, reject) => {
      const child = spawn(req.command, [...req.args], {
        detached: true,
        stdio: 'ignore',
        env: { ...process.env, ...this.env, ...req.env },
        ...(req.cwd && { cwd: req.cwd }),
        windowsHide: false,
      });
      child.once('error', (err: NodeJS.ErrnoException) => reject(spawnError(req.command, err)));
      child.once('spawn', () => {
        child.unref();
        resolve({ pid: child.pid ?? -1 });
      });
    });
  }

  /** Runs a script to completion; rejects with `script.timeout` or `script.aborted` (the process tree is killed). */
  async runScript(req: ScriptRequest): Promise<ScriptResult> {
    if (!Number.isFinite(req.timeoutMs) || req.timeoutMs <= 0) {
      throw new DesktopError(
        'script.bad_timeout',
        `Expected \`timeoutMs\` to be a positive number, got \`${req.timeoutMs}\` (${typeof req.timeoutMs})`,
      );
    }
    if (req.signal?.aborted) throw new DesktopError('script.aborted', `The ${req.interpreter} script was stopped before it started`);
    const tmp =
      req.interpreter === 'powershell' || req.interpreter === 'cmd' ? await mkdtemp(join(tmpdir(), 'skilldesk-script-')) : undefined;
    try {
      const [command, args] = await this.commandFor(req, tmp);
      return await this.run(...groupedCommand(command, args, this.platform === 'win32' ? 'none' : this.parentDeath), req);
    } finally {
      if (tmp) await rm(tmp, { recursive: true, force: true });
    }
  }

  private async commandFor(req: ScriptRequest, tmp: string | undefined): Promise<[string, string[]]> {
    const win = this.platform === 'win32';
    switch (req.interpreter) {
      case 'bash':
      case 'sh':
        // $0 is a name; the arguments are $1, $2...
        return [req.interpreter, ['-c', req.script, 'skilldesk', ...req.args]];
      case 'python':
        return [win ? 'python' : 'python3', ['-c', req.script, ...req.args]];
      case 'node':
        // Inside Electron, process.execPath is the app; scripts need a real Node.
        return [process.versions.electron ? 'node' : process.execPath, ['-e', req.script, '--', ...req.args]];
      case 'powershell': {
        const file = join(tmp as string, 'script.ps1');
        await writeFile(file, `\ufeff${req.script}`, 'utf8');
        return [
          win ? 'powershell.exe' : 'pwsh',
          ['-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-File', file, ...req.args],
        ];
      }
      case 'cmd': {
        const file = join(tmp as string, 'script.cmd');
        await writeFile(file, req.script.replace(/\r?\n/g, '\r\n'), 'utf8');
        return ['cmd.exe', ['/d', '/c', file, ...req.args]];
      }
    }
  }

  private run(command: string, args: string[], req: ScriptRequest): Promise<ScriptResult> {
    return new Promise((resolve, reject) => {
      const child = spawn(command, args, {
        env: { ...process.env, ...this.env, ...req.env },
        stdio: ['ignore', 'pipe', 'pipe'],
        // Its own process group, so a timeout kills the script's children too.
        detached: this.platform !== 'win32',
        windowsHide: true,
      });
      const pgid = this.platform !== 'win32' ? child.pid : undefined;
      if (pgid !== undefined) {
        killRunningGroupsOnExit();
        runningGroups.add(pgid);
      }
      const stdout = collect(child.stdout);
      const stderr = collect(child.stderr);
      let outcome: DesktopError | undefined;
      const stop = (err: DesktopError) => {
        outcome ??= err;
        killTree(child, this.platform);
      };
      const timer = setTimeout(
        () =>
          stop(
            new DesktopError('script.timeout', `The ${req.interpreter} script did not finish within ${req.timeoutMs} ms and was killed`),
          ),
        req.timeoutMs,
      );
      const onAbort = () => stop(new DesktopError('script.aborted', `The ${req.interpreter} script was stopped`));
      req.signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => {
        if (pgid !== undefined) runningGroups.delete(pgid);
        clearTimeout(timer);
        req.signal?.removeEventListener('abort', onAbort);
      };
      child.once('error', (err: NodeJS.ErrnoException) => {
        done();
        reject(spawnError(command, err));
      });
      child.once('close', (code, signal) => {
        done();
        if (outcome) reject(outcome);
        else resolve({ exitCode: code ?? (signal ? 128 : 1), stdout: stdout(), stderr: stderr() });
      });
    });
  }
}

function collect(stream: NodeJS.ReadableStream | null): () => string {
  const parts: Buffer[] = [];
  let size = 0;
  stream?.on('data', (b: Buffer) => {
    if (size < MAX_OUTPUT_BYTES) parts.push(b);
    size += b.length;
  });
  return () => Buffer.concat(parts).toString('utf8');
}

function killTree(child: ChildProcess, platform: NodeJS.Platform): void {
  if (child.pid === undefined || child.exitCode !== null) return;
  const pid = child.pid;
  const kill = (sig: NodeJS.Signals) => {
    try {
      if (platform === 'win32') spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore' });
      else process.kill(-pid, sig);
    } catch {
      // Already gone.
    }
  };
  kill('SIGTERM');
  setTimeout(() => {
    if (child.exitCode === null && child.signalCode === null) kill('SIGKILL');
  }, KILL_GRACE_MS).unref();
}

function spawnError(command: string, err: NodeJS.ErrnoException): DesktopError {
  if (err.code === 'ENOENT') return new DesktopError('process.not_found', `\`${command}\` is not installed or not on PATH`);
  return new DesktopError('process.spawn_failed', `Could not start \`${command}\`: ${err.message}`);
}
