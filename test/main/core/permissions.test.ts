import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Core } from '../../../src/main/core/Core';
import { createNodeCore } from '../../../src/main/core/createNodeCore';
import { grantViews, revokeGrantView } from '../../../src/main/core/permissions';
import { addGrant } from '../../../src/main/services/store';
import type { PermissionPrompter, PromptResult } from '../../../src/shared/ports/prompter';

/** Answers from a script, and counts how often it was asked. */
class ScriptedPrompter implements PermissionPrompter {
  asked = 0;
  constructor(private readonly answers: PromptResult[]) {}
  async ask(): Promise<PromptResult> {
    this.asked++;
    return this.answers.shift() ?? { answer: 'deny', by: 'user' };
  }
}

const greet = `kind: skill
id: mousepad.greet
app: mousepad
trust: community
description: Types a greeting
intents: [greet]
permissions:
  - { capability: input.keyboard, effect: confirm, constraints: { apps: [mousepad] } }
graph:
  start: act
  nodes:
    act: { action: type_text, text: hello, next: done }
    done: { terminal: success }
`;

describe('src/main/core/permissions', () => {
  let dataDir: string;
  let core: Core;
  let prompter: ScriptedPrompter;
  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'skilldesk-perm-'));
    mkdirSync(join(dataDir, 'skills'));
    writeFileSync(join(dataDir, 'skills', 'greet.yaml'), greet);
    prompter = new ScriptedPrompter([{ answer: 'allow_session', by: 'user' }]);
    core = await createNodeCore({ dataDir, interactive: false, prompter });
  });
  afterEach(() => {
    core.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const run = () => core.runSkill({ skill: 'mousepad.greet', dryRun: true });

  it('keeps one permission session per core: a session grant answers later runs, is listed, and asks again once revoked', async () => {
    expect((await run()).status).toBe('succeeded');
    expect((await run()).status).toBe('succeeded');
    expect(prompter.asked).toBe(1);
    const grants = core.sessionGrants.list();
    expect(grants).toEqual([expect.objectContaining({ scope: 'session', skillId: 'mousepad.greet', capability: 'input.keyboard' })]);
    expect(core.sessionGrants.revoke(grants[0]!.id)).toBe(true);
    expect(core.sessionGrants.list()).toEqual([]);
    const denied = await run();
    expect(prompter.asked).toBe(2);
    expect(denied.status).toBe('failed');
  });

  it('lists session grants before persistent ones, and revokes each kind by the id it listed', async () => {
    await run();
    const persistent = addGrant(core.db!, {
      skillId: 'mousepad.greet',
      capability: 'input.keyboard',
      constraints: { apps: ['mousepad'] },
      grantedAt: Date.now(),
      expiresAt: null,
      skillHash: 'a'.repeat(64),
    });
    const views = grantViews(core.sessionGrants, core.db!);
    expect(views.map((g) => g.scope)).toEqual(['session', 'persistent']);
    expect(views[1]!.id).toBe(`p${persistent.id}`);
    expect(revokeGrantView(core.sessionGrants, core.db!, `p${persistent.id}`)).toBe(true);
    expect(revokeGrantView(core.sessionGrants, core.db!, views[0]!.id)).toBe(true);
    expect(revokeGrantView(core.sessionGrants, core.db!, 'p999')).toBe(false);
    expect(grantViews(core.sessionGrants, core.db!)).toEqual([]);
  });
});
