import { resolve } from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import type { Core } from '../../src/main/core/Core';
import { loadLibrary } from '../../src/main/services/library/YamlLibraryLoader';
import { defineLiveTests, killPatterns } from '../live/helpers/liveTestRunner';
import { killPrograms, windowsCore, winePath } from './windowsCore';

/**
 * Runs the live tests shipped with the skills for the Windows lane (`kind: live_tests`, lane
 * `windows`): Windows programs under Wine, driven through SkillDesk's desktop host.
 */
const { library, problems } = await loadLibrary({ builtinDir: resolve(__dirname, '../../skills') });
const docs = library.liveTests.filter((d) => d.lane === 'windows');

let core: Core;
let approving: Core;
beforeAll(async () => {
  if (problems.some((p) => p.severity === 'error'))
    throw new Error(
      `the skill library has errors; run \`skilldesk skills validate\`:\n${problems.map((p) => `${p.file}: ${p.message}`).join('\n')}`,
    );
  ({ core } = await windowsCore());
  ({ core: approving } = await windowsCore({ approve: true }));
});
afterAll(async () => {
  core?.close();
  approving?.close();
  for (const d of docs) for (const p of killPatterns(library, d)) await killPrograms(p);
});

for (const doc of docs) {
  describe(`${doc.app} (Windows lane live tests: ${doc.source.file.split('/skills/').pop()})`, () => {
    defineLiveTests(library, doc, { core: (approve) => (approve ? approving : core), kill: killPrograms, appPath: winePath });
  });
}
