import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import type { LibraryProblem } from '../../shared/skill';

/** Per-skill figures of the reliability benchmark (`bench/reliability.bench.ts`). */
const ReliabilityFileSchema = z.object({
  benchmark: z.literal('reliability'),
  date: z.string(),
  skills: z.record(
    z.string(),
    z.object({
      runs: z.number().int().positive(),
      succeeded: z.number().int().nonnegative(),
      successRate: z.number().min(0).max(1),
    }),
  ),
});

export interface SkillReliability {
  successRate: number;
  runs: number;
}

export interface ReliabilityFigures {
  bySkill: ReadonlyMap<string, SkillReliability>;
  /** The file the figures came from; absent when none was found. */
  source?: string;
  /** Why a file that exists was not used (unreadable, not the benchmark's output), as a library warning. */
  problem?: LibraryProblem;
}

/**
 * Reads the first of `files` that exists: the benchmark's JSON output. A broken file yields no
 * figures and a problem that names it; the library still loads ("not measured").
 */
export function loadReliability(files: readonly string[]): ReliabilityFigures {
  const file = files.find((f) => existsSync(f));
  if (!file) return { bySkill: new Map() };
  try {
    const parsed = ReliabilityFileSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return {
        bySkill: new Map(),
        problem: unusable(
          file,
          `${issue.message}; expected the JSON printed by \`npm run bench -- reliability\``,
          issue.path.map((k) => (typeof k === 'number' ? k : String(k))),
        ),
      };
    }
    const bySkill = new Map(Object.entries(parsed.data.skills).map(([id, s]) => [id, { successRate: s.successRate, runs: s.runs }]));
    return { bySkill, source: file };
  } catch (err) {
    return { bySkill: new Map(), problem: unusable(file, (err as Error).message, []) };
  }
}

function unusable(file: string, message: string, path: (string | number)[]): LibraryProblem {
  return { file, path, severity: 'warning', message: `reliability figures not shown: ${message}` };
}
