import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Clipboard } from '../../../shared/ports/desktop';
import { DesktopError } from './errors';

const XCLIP_TIMEOUT_MS = 5000;

/** Options of XclipClipboard. */
export interface XclipClipboardOptions {
  /** @default process.env.DISPLAY */
  display?: string;
  /**
   * How long `writeText` waits for the new owner to serve the text.
   * @default 2000
   */
  writeTimeoutMs?: number;
  /**
   * Reads the clipboard instead of `xclip -o` (on the desktop: X11Selection, over the desktop's own
   * X connection, with a timeout and retries per request and no process per read).
   * @default `xclip -o`
   */
  read?: () => Promise<string>;
}

/**
 * The X11 CLIPBOARD selection through `xclip`, as UTF-8 (UTF8_STRING), so any text round-trips.
 * `xclip -i` forks a process that owns the selection until another program takes it: that is
 * what keeps the text available after this call returns, as a copy in an app would. Reads go
 * through `options.read` when given.
 */
export class XclipClipboard implements Clipboard {
  private readonly env: NodeJS.ProcessEnv;
  private readonly writeTimeoutMs: number;
  private readonly read: (() => Promise<string>) | undefined;

  constructor(options: XclipClipboardOptions = {}) {
    const display = options.display ?? process.env.DISPLAY;
    this.env = { ...process.env, ...(display && { DISPLAY: display }) };
    this.writeTimeoutMs = options.writeTimeoutMs ?? 2000;
    this.read = options.read;
  }

  async readText(): Promise<string> {
    if (this.read) return this.read();
    const r = await this.xclip(['-selection', 'clipboard', '-o', '-t', 'UTF8_STRING']);
    if (r.code === 0) return r.stdout.toString('utf8');
    // An empty clipboard (no owner, or no text target) reads as "".
    if (/target .* not available|no selection|cannot convert/i.test(r.stderr)) return '';
    throw new DesktopError('clipboard.read_failed', `xclip -o failed (exit ${r.code}): ${r.stderr.trim()}`);
  }

  async writeText(text: string): Promise<void> {
    const r = await this.xclip(['-selection', 'clipboard', '-i', '-t', 'UTF8_STRING'], Buffer.from(text, 'utf8'));
    if (r.code !== 0) throw new DesktopError('clipboard.write_failed', `xclip -i failed (exit ${r.code}): ${r.stderr.trim()}`);
    // xclip's server process takes the selection just after the parent exits: wait until it serves.
    const deadline = Date.now() + this.writeTimeoutMs;
    while ((await this.readText().catch(() => undefined)) !== text) {
      if (Date.now() > deadline)
        throw new DesktopError('clipboard.write_failed', `The clipboard did not hold the written text within ${this.writeTimeoutMs} ms`);
      await sleep(10);
    }
  }

  private xclip(args: string[], input?: Buffer): Promise<{ code: number; stdout: Buffer; stderr: string }> {
    return new Promise((resolve, reject) => {
      // For -i, stdout/stderr must not be pipes: the forked owner would hold them open forever.
      const child = spawn('xclip', args, {
        env: this.env,
        stdio: [input ? 'pipe' : 'ignore', input ? 'ignore' : 'pipe', input ? 'ignore' : 'pipe'],
      });
      // A clipboard owner that never answers (a hung app) would block `xclip -o` forever.
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(
          new DesktopError(
            'clipboard.timeout',
            `xclip did not finish within ${XCLIP_TIMEOUT_MS} ms; the app owning the clipboard may be hung`,
          ),
        );
      }, XCLIP_TIMEOUT_MS);
      child.on('close', () => clearTimeout(timer));
      child.on('exit', () => {
        if (input) clearTimeout(timer);
      });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout?.on('data', (b: Buffer) => out.push(b));
      child.stderr?.on('data', (b: Buffer) => err.push(b));
      child.on('error', (e: NodeJS.ErrnoException) =>
        reject(
          e.code === 'ENOENT'
            ? new DesktopError(
                'clipboard.no_xclip',
                'xclip is not installed; run `scripts/test-desktop.sh install` or `apt-get install xclip`',
              )
            : e,
        ),
      );
      child.on('exit', (code) => {
        // 'exit' can precede the last 'data' events of the pipes; 'close' follows them.
        if (input) resolve({ code: code ?? 1, stdout: Buffer.alloc(0), stderr: '' });
        else child.on('close', () => resolve({ code: code ?? 1, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') }));
      });
      if (input) child.stdin?.end(input);
    });
  }
}
