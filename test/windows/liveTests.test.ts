import { afterAll, beforeAll, describe } from 'vitest';
import type { Core } from '../../src/main/core/Core';
import { defineLiveTests, killPatterns, shippedLiveTests } from '../live/helpers/liveTestRunner';
import { killPrograms, windowsCore, winePath } from './windowsCore';

/**
 * Runs the live tests shipped with the skills for the Windows lane (`kind: live_tests`, lane
 * `windows`): Windows programs under Wine, driven through SkillDesk's desktop host.
 */

const { library, docs, requireValidLibrary } = await shippedLiveTests('windows');

let core: Core;
let approving: Core;
beforeAll(async () => {
  requireValidLibrary();
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
