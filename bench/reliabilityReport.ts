/**
 * The reliability benchmark's figures from its task results: per app (skills, primitives per
 * skill, tasks, success rate, median seconds), per skill, and the failures; as JSON, a Markdown
 * table and an SVG bar chart of success per app. Pure: results in, report out.
 */

/** One task's result, as the benchmark keeps it (one JSON line each, so a run can resume). */
export interface TaskResult {
  id: string;
  /** The app the task starts on: its row in the table. */
  app: string;
  apps: string[];
  instruction: string;
  steps: number;
  /** The concrete skills it ran, callees included. */
  skills: string[];
  ok: boolean;
  ms: number;
  failure?: { step: number; skill: string; node?: string; message: string; screenshot?: string };
}

/** What the library says of an app's skills: their count and primitives per skill. */
export interface AppSkills {
  skills: number;
  primitives: number[];
}

const round = (n: number, d = 3) => Math.round(n * 10 ** d) / 10 ** d;

function median(xs: readonly number[]): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function meanStd(xs: readonly number[]): { mean: number | null; std: number | null } {
  if (!xs.length) return { mean: null, std: null };
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const std = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / xs.length);
  return { mean: round(mean, 2), std: round(std, 2) };
}

export interface AppFigures {
  skills: number;
  primitivesPerSkill: { mean: number | null; std: number | null; min: number | null; max: number | null };
  tasks: number;
  succeeded: number;
  successRate: number | null;
  medianSeconds: number | null;
}

export interface ReliabilityReport {
  overall: { tasks: number; succeeded: number; successRate: number | null; apps: number };
  apps: Record<string, AppFigures>;
  /** Per skill: tasks that ran it, and those it did not fail (what the Library shows). */
  skills: Record<string, { runs: number; succeeded: number; successRate: number }>;
  failures: { id: string; app: string; instruction: string; skill: string; node?: string; message: string; screenshot?: string }[];
}

export function reliabilityReport(results: readonly TaskResult[], appSkills: Record<string, AppSkills>): ReliabilityReport {
  const apps: Record<string, AppFigures> = {};
  for (const app of [...new Set([...Object.keys(appSkills), ...results.map((r) => r.app)])].sort()) {
    const mine = results.filter((r) => r.app === app);
    if (!mine.length) continue;
    const prims = appSkills[app]?.primitives ?? [];
    const ok = mine.filter((r) => r.ok).length;
    apps[app] = {
      skills: appSkills[app]?.skills ?? 0,
      primitivesPerSkill: {
        ...meanStd(prims),
        min: prims.length ? Math.min(...prims) : null,
        max: prims.length ? Math.max(...prims) : null,
      },
      tasks: mine.length,
      succeeded: ok,
      successRate: round(ok / mine.length),
      medianSeconds: round((median(mine.map((r) => r.ms)) ?? 0) / 1000, 1),
    };
  }
  const skills: ReliabilityReport['skills'] = {};
  for (const r of results) {
    for (const id of r.skills) {
      const s = (skills[id] ??= { runs: 0, succeeded: 0, successRate: 0 });
      s.runs += 1;
      if (r.ok || r.failure?.skill !== id) s.succeeded += 1;
      s.successRate = round(s.succeeded / s.runs);
    }
  }
  const succeeded = results.filter((r) => r.ok).length;
  return {
    overall: {
      tasks: results.length,
      succeeded,
      successRate: results.length ? round(succeeded / results.length) : null,
      apps: Object.keys(apps).length,
    },
    apps,
    skills: Object.fromEntries(Object.entries(skills).sort(([a], [b]) => a.localeCompare(b))),
    failures: results
      .filter((r) => !r.ok)
      .map((r) => ({
        id: r.id,
        app: r.app,
        instruction: r.instruction,
        skill: r.failure?.skill ?? '?',
        ...(r.failure?.node && { node: r.failure.node }),
        message: r.failure?.message ?? 'failed',
        ...(r.failure?.screenshot && { screenshot: r.failure.screenshot }),
      })),
  };
}

const pct = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(1)}%`);

/** The per-app table, as the CUA-Skill paper shows it, plus the overall line. */
export function markdownTable(report: ReliabilityReport): string {
  const rows = Object.entries(report.apps).map(([app, a]) => {
    const p = a.primitivesPerSkill;
    const prim = p.mean === null ? '–' : `${p.mean} ± ${p.std} (${p.min}–${p.max})`;
    return `| ${app} | ${a.skills} | ${prim} | ${a.tasks} | ${pct(a.successRate)} | ${a.medianSeconds ?? '–'} |`;
  });
  const o = report.overall;
  return [
    '| app | skills | primitives per skill (mean ± std, range) | tasks | success | median s per task |',
    '|---|---|---|---|---|---|',
    ...rows,
    `| **all** (${o.apps} apps) | | | ${o.tasks} | ${pct(o.successRate)} | |`,
    '',
  ].join('\n');
}

const escapeXml = (s: string) => s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);

/** A horizontal bar chart of success per app (SVG, no script, no external resources). */
export function successChart(report: ReliabilityReport, title: string): string {
  const entries = Object.entries(report.apps);
  const rowH = 26;
  const left = 170;
  const barW = 420;
  const top = 44;
  const height = top + entries.length * rowH + 30;
  const width = left + barW + 110;
  const bars = entries.map(([app, a], i) => {
    const y = top + i * rowH;
    const rate = a.successRate ?? 0;
    const colour = rate >= 0.97 ? '#2e7d32' : rate >= 0.9 ? '#f9a825' : '#c62828';
    return [
      `<text x="${left - 8}" y="${y + 17}" text-anchor="end">${escapeXml(app)}</text>`,
      `<rect x="${left}" y="${y + 4}" width="${barW}" height="${rowH - 8}" fill="#eeeeee"/>`,
      `<rect x="${left}" y="${y + 4}" width="${round(barW * rate, 1)}" height="${rowH - 8}" fill="${colour}"/>`,
      `<text x="${left + barW + 8}" y="${y + 17}">${pct(a.successRate)} (${a.succeeded}/${a.tasks})</text>`,
    ].join('');
  });
  const x90 = left + barW * 0.9;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="13">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="${left}" y="24" font-size="15" font-weight="bold">${escapeXml(title)}</text>`,
    ...bars,
    `<line x1="${x90}" y1="${top}" x2="${x90}" y2="${height - 26}" stroke="#555" stroke-dasharray="4 3"/>`,
    `<text x="${x90}" y="${height - 10}" text-anchor="middle" font-size="11">90%</text>`,
    `</svg>`,
    '',
  ].join('\n');
}
