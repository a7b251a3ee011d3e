import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe } from 'vitest';
import type { Core } from '../../src/main/core/Core';
import type { RemoteDesktop } from '../../src/main/services/desktopHost';
import { defineLiveTests, killPatterns, shippedLiveTests } from '../live/helpers/liveTestRunner';
import { killPrograms, windowsCore, windowsDesktop, winePath } from './windowsCore';

/**
 * Runs the live tests shipped with the skills for the Windows lane (`kind: live_tests`, lane
 * `windows`): Windows programs under Wine, driven through SkillDesk's desktop host.
 */

const { library, docs, requireValidLibrary } = await shippedLiveTests('windows');

const lane = createRequire(import.meta.url)('../../scripts/windows-lane.cjs') as { wineEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv };

let core: Core;
let approving: Core;
let desktop: RemoteDesktop;
beforeAll(async () => {
  requireValidLibrary();
  ({ core } = await windowsCore());
  ({ core: approving } = await windowsCore({ approve: true }));
  desktop = await windowsDesktop();
});
afterAll(async () => {
  core?.close();
  approving?.close();
  await desktop?.close();
  for (const d of docs) for (const p of killPatterns(library, d)) await killPrograms(p);
});

for (const doc of docs) {
  describe(`${doc.app} (Windows lane live tests: ${doc.source.file.split('/skills/').pop()})`, () => {
    defineLiveTests(library, doc, {
      core: (approve) => (approve ? approving : core),
      kill: killPrograms,
      appPath: winePath,
      registry: {
        // Read through the host, exactly as a skill's registry_value check reads it.
        read: (key, name) => desktop.registry!.readValue(key, name),
        // `reg delete` in the lane's prefix; a key that is not there is already clean.
        deleteKey: async (key) => {
          try {
            execFileSync('wine', ['reg', 'delete', key, '/f'], { env: lane.wineEnv(process.env), stdio: 'ignore' });
          } catch {
            // not there
          }
        },
      },
    });
  });
}
