import { readFile, stat } from 'node:fs/promises';
import type { Desktop } from '../../../shared/ports/desktop';
import type { RunResult } from '../../../shared/run';
import type { SkillLibrary, TaskCheck } from '../../../shared/skill';
import { windowBelongsToApp } from '../executor/appWindows';

/** One check's verdict, with what was found when it failed. */
export interface CheckVerdict {
  check: TaskCheck;
  ok: boolean;
  /** What was there instead (for a failed check). */
  found?: string;
}

/** Line endings aside: a Windows program writes CRLF, a clipboard may too. */
const lf = (s: string) => s.replaceAll('\r\n', '\n');

/** The bytes a file of a known type starts with: a file that is there but not what its name says fails. */
const MAGIC: Record<string, string[]> = {
  '.pdf': ['%PDF-'],
  '.png': ['\x89PNG'],
  '.bmp': ['BM'],
  '.zip': ['PK'],
  '.odt': ['PK'],
  '.ods': ['PK'],
  '.odp': ['PK'],
  '.docx': ['PK'],
  '.xlsx': ['PK'],
  '.pptx': ['PK'],
  '.xpm': ['/* XPM */'],
  '.ppm': ['P3', 'P6'],
};

async function kindAt(path: string): Promise<'file' | 'folder' | undefined> {
  try {
    return (await stat(path)).isDirectory() ? 'folder' : 'file';
  } catch {
    return undefined;
  }
}

/** Width and height from an image file's header (PNG, BMP, XPM, PPM); undefined for another format. */
export function imageSize(bytes: Buffer): { width: number; height: number } | undefined {
  if (bytes.subarray(0, 4).toString('latin1') === '\x89PNG') return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  if (bytes.subarray(0, 2).toString('latin1') === 'BM') return { width: bytes.readInt32LE(18), height: Math.abs(bytes.readInt32LE(22)) };
  const text = bytes.subarray(0, 4096).toString('latin1');
  const xpm = /^\/\* XPM \*\/[\s\S]*?"\s*(\d+)\s+(\d+)\s/.exec(text);
  if (xpm) return { width: Number(xpm[1]), height: Number(xpm[2]) };
  const ppm = /^P[36]\s+(?:#[^\n]*\n\s*)*(\d+)\s+(\d+)/.exec(text);
  return ppm ? { width: Number(ppm[1]), height: Number(ppm[2]) } : undefined;
}

/**
 * Checks a synthesized task's end state on the machine it ran on: files and folders on disk (a
 * file's type by its first bytes), the clipboard, the app's window titles, the registry, and what
 * the steps returned. Programmatic only: every verdict says what it found.
 */
export class TaskChecker {
  constructor(
    private readonly desktop: Desktop,
    private readonly library: SkillLibrary,
  ) {}

  /**
   * Each check's verdict. A failing check is asked again until `settleMs` have passed: the end
   * state may still be settling (a player's title between two items, a file being flushed), as a
   * live test's expectations wait. An effect that is not there fails all the same.
   */
  async check(
    checks: readonly TaskCheck[],
    runs: readonly Pick<RunResult, 'result'>[],
    o: { settleMs?: number } = {},
  ): Promise<CheckVerdict[]> {
    const deadline = Date.now() + (o.settleMs ?? 5000);
    const out: CheckVerdict[] = [];
    for (const check of checks) out.push(await this.one(check, runs));
    while (out.some((v) => !v.ok) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      for (const [i, v] of out.entries()) if (!v.ok) out[i] = await this.one(v.check, runs);
    }
    return out;
  }

  private async one(check: TaskCheck, runs: readonly Pick<RunResult, 'result'>[]): Promise<CheckVerdict> {
    const verdict = (ok: boolean, found?: string): CheckVerdict => ({ check, ok, ...(!ok && found !== undefined && { found }) });
    switch (check.kind) {
      case 'file':
      case 'folder': {
        const kind = await kindAt(check.path);
        const want = check.present ? check.kind : undefined;
        if (kind !== want) return verdict(false, kind ? `a ${kind} is there` : 'nothing is there');
        if (kind !== 'file') return verdict(true);
        const ext = Object.keys(MAGIC).find((e) => check.path.toLowerCase().endsWith(e));
        if (!ext) return verdict(true);
        const head = (await readFile(check.path)).subarray(0, 16).toString('latin1');
        return verdict(
          MAGIC[ext]!.some((m) => head.startsWith(m)),
          `a file starting ${JSON.stringify(head.slice(0, 8))}, not a ${ext} file`,
        );
      }
      case 'file_text': {
        let text: string;
        try {
          text = await readFile(check.path, 'utf8');
        } catch {
          return verdict(false, 'no file');
        }
        return verdict(lf(text) === lf(check.equals), JSON.stringify(text.slice(0, 300)));
      }
      case 'clipboard': {
        const text = await this.desktop.clipboard.readText();
        return verdict(lf(text) === lf(check.equals), JSON.stringify(text.slice(0, 300)));
      }
      case 'window_title': {
        const profile = this.library.apps.get(check.app);
        const titles = (await this.desktop.windows.list())
          .filter((w) => profile && windowBelongsToApp(w, profile.windows))
          .map((w) => w.title);
        return verdict(
          titles.some((t) => t.includes(check.contains)),
          titles.length ? titles.map((t) => JSON.stringify(t)).join(', ') : 'no window of the app',
        );
      }
      case 'image_size': {
        let size: { width: number; height: number } | undefined;
        try {
          size = imageSize(await readFile(check.path));
        } catch {
          return verdict(false, 'no file');
        }
        return verdict(size?.width === check.width && size.height === check.height, size ? `${size.width}x${size.height}` : 'not an image');
      }
      case 'registry': {
        const registry = this.desktop.registry;
        if (!registry) return verdict(false, 'this desktop has no registry');
        const value = await registry.readValue(check.key, check.name);
        return verdict(value?.data === check.equals, value ? JSON.stringify(value.data) : 'no value');
      }
      case 'result': {
        const got = runs[check.step]?.result;
        const want = check.equals;
        if (typeof want === 'number') {
          const n = typeof got === 'number' ? got : Number(got);
          return verdict(Number.isFinite(n) && Math.abs(n - want) <= 1e-9 * Math.max(1, Math.abs(want)), JSON.stringify(got));
        }
        return verdict(typeof got === 'string' ? lf(got) === lf(String(want)) : got === want, JSON.stringify(got));
      }
    }
  }
}
