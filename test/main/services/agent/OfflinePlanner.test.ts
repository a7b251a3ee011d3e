import { beforeAll, describe, expect, it } from 'vitest';
import type { SkillLibrary } from '../../../../src/shared/skill';
import { createAgent, MemoryAgentMemory, OfflinePlanner, splitGoal } from '../../../../src/main/services/agent';
import { loadLibrary } from '../../../../src/main/services/library/YamlLibraryLoader';
import { HybridRetriever } from '../../../../src/main/services/retrieval';
import { testExecutor } from '../../../helpers/executor';
import { fakeDesktop } from '../../../helpers/fakeDesktop';

describe('src/main/services/agent/OfflinePlanner', () => {
  let library: SkillLibrary;
  let planner: OfflinePlanner;
  beforeAll(async () => {
    library = (await loadLibrary({ builtinDir: 'skills' })).library;
    planner = new OfflinePlanner(library, HybridRetriever.fromLibrary(library, { platform: 'linux' }), 'linux');
  });

  it('splits goals at then / and then / ; but never inside quotes', () => {
    expect(splitGoal("type 'a then b'; save it and then close it").map((p) => [p.text, p.sep?.strength])).toEqual([
      ["type 'a then b'", 'strong'],
      ['save it', 'strong'],
      ['close it', undefined],
    ]);
  });

  it('maps a whole goal to a composite whose template covers it, on the app it names', async () => {
    const plan = await planner.plan("open notepad then write 'hello' and save it as /tmp/x/a.txt");
    expect(plan).toEqual({
      ok: true,
      steps: [
        expect.objectContaining({ skill: 'TextEditor.write_file', app: 'wine-notepad', args: { path: '/tmp/x/a.txt', text: 'hello' } }),
      ],
    });
  });

  it('maps clause by clause when no single template covers the goal, launching the named app first', async () => {
    const plan = await planner.plan('open mousepad then type hello world and then save it as /tmp/b.txt');
    expect(plan.ok && plan.steps.map((s) => [s.skill, s.app, s.args])).toEqual([
      ['Document.new_document', 'mousepad', {}],
      ['TextEditor.type_text', 'mousepad', { text: 'hello world' }],
      ['Document.save_as', 'mousepad', { path: '/tmp/b.txt' }],
    ]);
  });

  it('takes a leading "In <app>," as the app of the clauses after it, until another names one', async () => {
    const plan = await planner.plan(
      'In Notepad (Wine), open /tmp/t/a.txt, then go to the document start, then in Geany, open /tmp/t/b.txt, then select all the text.',
    );
    expect(plan.ok && plan.steps.map((s) => [s.skill, s.app, s.args])).toEqual([
      ['Document.open_file', 'wine-notepad', { path: '/tmp/t/a.txt' }],
      ['TextEditor.move_cursor', 'wine-notepad', { to: 'document_start' }],
      ['Document.open_file', 'geany', { path: '/tmp/t/b.txt' }],
      ['TextEditor.select_all', 'geany', {}],
    ]);
  });

  it('reads arguments given by name in parentheses after the words', async () => {
    const plan = await planner.plan('In PCManFM, remove "/tmp/t/old" for good (permanent: true)');
    expect(plan.ok && plan.steps.map((s) => [s.skill, s.app, s.args])).toEqual([
      ['FileManager.delete_items', 'pcmanfm', { items: '/tmp/t/old', permanent: true }],
    ]);
    // A name the skill does not have is no reading of it.
    expect((await planner.plan('In PCManFM, remove "/tmp/t/old" for good (colour: red)')).ok).toBe(false);
  });

  it('keeps "and" inside typed text when the split reading explains less', async () => {
    const plan = await planner.plan('type "salt and pepper" and save it as /tmp/c.txt in mousepad');
    expect(plan.ok && plan.steps.map((s) => [s.skill, s.args])).toEqual([
      ['TextEditor.type_text', { text: 'salt and pepper' }],
      ['Document.save_as', { path: '/tmp/c.txt' }],
    ]);
  });

  it('rejects readings whose arguments fall outside their domains', async () => {
    const plan = await planner.plan('calculate 2 + 2 then what is (1 + 2) * 3');
    expect(plan.ok && plan.steps.map((s) => s.args.expression)).toEqual(['2 + 2', '(1 + 2) * 3']);
    const bad = await planner.plan('calculate the meaning of life');
    expect(bad.ok).toBe(false);
  });

  it('says which part it could not map and which skills came closest', async () => {
    const plan = await planner.plan('open notepad then save the file somewhere nice');
    expect(plan.ok).toBe(false);
    if (plan.ok) return;
    expect(plan.unmapped).toBe('save the file somewhere nice');
    expect(plan.mapped.map((s) => s.skill)).toEqual(['Document.new_document']);
    // Saving under the current name, or under a new one: both are the closest, neither is enough.
    expect(plan.closest[0]!.skill).toMatch(/^Document\.save(_as)?$/);
    expect(plan.message).toMatch(/Could not map "save the file somewhere nice".*Closest skills: Document\.save/);
  });

  it('runs the plan through the executor and ends unmapped without touching anything when a part cannot be mapped', async () => {
    const fake = fakeDesktop();
    const runner = testExecutor({ library, desktop: fake.desktop });
    const memory = new MemoryAgentMemory();
    const { agent } = createAgent({ library, runner, platform: 'linux', memory });
    const ok = await agent.run('open mousepad then type hi then save it as /tmp/d.txt', { dryRun: true });
    expect(ok.outcome).toBe('finished');
    expect(ok.steps.filter((s) => s.run).map((s) => s.run!.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(memory.entries.map((e) => e.skill)).toEqual(['Document.new_document', 'TextEditor.type_text', 'Document.save_as']);
    expect(ok.accounting).toMatchObject({ planner: 'offline', steps: 4, llm: { calls: 0 } });
    const before = fake.calls.length;
    const bad = await agent.run('open mousepad then juggle three balls', { dryRun: true });
    expect(bad.outcome).toBe('unmapped');
    expect(bad.message).toMatch(/Could not map "juggle three balls"/);
    expect(fake.calls.length).toBe(before);
  });
});
