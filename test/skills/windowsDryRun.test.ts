import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/Core';
import { createNodeCore } from '../../src/main/core/createNodeCore';
import type { RunResult } from '../../src/shared/run';
import { sampleArg, seededRandom, type ArgValues } from '../../src/shared/skill/domains';
import type { Skill } from '../../src/shared/skill/library';
import type { PermissionPrompt } from '../../src/shared/ports/prompter';

/**
 * Every implementation of a Windows app, run dry (the recording driver) with arguments sampled
 * from its feasible domains: it must succeed under its own manifest, and its primitive sequence
 * must equal the reviewed one in `__dryrun__/<app>/<method>.txt` (`npx vitest run -u` rewrites
 * them; review the diff like code).
 */

const SAMPLE_DIR = 'C:\\Users\\Public\\Documents';
let core: Core;
let dataDir: string;
const asked: PermissionPrompt[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'skilldesk-dryrun-'));
  core = await createNodeCore({
    dataDir,
    interactive: false,
    // A stand-in user who allows once whatever the policy asks about; each question is kept.
    prompter: { ask: async (prompt) => (asked.push(prompt), { answer: 'allow_once', by: 'user' }) },
  });
});
afterAll(() => {
  core?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Arguments for a dry run: the first example of each argument, else a seeded sample of its domain. */
export function sampleArgs(skill: Skill): ArgValues {
  const rand = seededRandom([...skill.id].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7));
  const values: ArgValues = {};
  for (const [name, spec] of Object.entries(skill.args)) {
    if (spec.optional && spec.default === undefined && !spec.examples?.length) continue;
    values[name] = spec.examples?.length ? spec.examples[0]! : sampleArg(spec, rand, { tempDir: SAMPLE_DIR, pathStyle: 'win32' });
  }
  return values;
}

/** One line per step: depth, skill, node and the primitive with its templates resolved. */
export function describeSteps(r: RunResult): string {
  return `${r.steps
    .map(
      (s) =>
        `${'  '.repeat(s.depth)}${s.skillId} ${s.nodeId}: ${JSON.stringify(s.resolved)}${s.outcome === 'ok' ? '' : ` -> ${s.outcome}`}`,
    )
    .join('\n')}\n`;
}

const library = await (async () => {
  const dir = mkdtempSync(join(tmpdir(), 'skilldesk-dryrun-lib-'));
  const c = await createNodeCore({ dataDir: dir, interactive: false });
  try {
    return (await c.loadLibrary()).library;
  } finally {
    c.close();
    rmSync(dir, { recursive: true, force: true });
  }
})();

const windowsApps = [...library.apps.values()].filter((a) => a.platforms.includes('win32')).sort((a, b) => a.id.localeCompare(b.id));

describe('skills: Windows implementations, dry run', () => {
  it('has Windows apps to check', () => {
    expect(windowsApps.length).toBeGreaterThan(0);
  });

  for (const app of windowsApps) {
    const skills = [...library.skills.values()].filter((s) => s.app === app.id).sort((a, b) => a.id.localeCompare(b.id));
    describe(app.id, () => {
      for (const skill of skills) {
        it(`${skill.id} runs dry under its own manifest, with the reviewed primitive sequence`, async () => {
          const args = sampleArgs(skill);
          const r = await core.runSkill({ skill: skill.id, app: app.id, args, dryRun: true });
          expect(r.error?.message, describeSteps(r)).toBeUndefined();
          expect(r.status).toBe('succeeded');
          await expect(`args: ${JSON.stringify(args)}\n${describeSteps(r)}`).toMatchFileSnapshot(
            `__dryrun__/${app.id}/${skill.id.slice(app.id.length + 1)}.txt`,
          );
        });
      }
    });
  }
});
