import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CoreApiAdapter } from '../../../src/main/bridge/CoreApiAdapter';
import type { Core } from '../../../src/main/core/Core';
import { createNodeCore } from '../../../src/main/core/createNodeCore';
import { appendAudit, getSetting } from '../../../src/main/services/store';
import type { RunEventView } from '../../../src/shared/ipc';
import { insertAuditRows } from '../services/store/helpers/auditRows';

describe('src/main/bridge/CoreApiAdapter', () => {
  let dataDir: string;
  let core: Core;
  let api: CoreApiAdapter;

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'skilldesk-adapter-'));
    core = await createNodeCore({ dataDir, interactive: false });
    api = new CoreApiAdapter({ core, db: core.db!, version: '9.9.9' });
  });
  afterEach(() => {
    core.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs a skill dry and streams its events', async () => {
    const events: RunEventView[] = [];
    const r = await api.runSkill({
      skill: 'TextEditor.save_as',
      app: 'notepad',
      args: { path: 'C:\\Users\\me\\a.txt' },
      dryRun: true,
      screenshotEveryStep: false,
      signal: new AbortController().signal,
      onEvent: (e) => events.push(e),
    });
    expect(r.status).toBe('succeeded');
    expect(events[0]).toMatchObject({ type: 'run_started', skillId: 'notepad.save_as' });
    expect(events.at(-1)).toMatchObject({ type: 'run_finished' });
    expect((await api.listRuns({ limit: 5 })).map((x) => x.id)).toContain(r.runId);
    expect((await api.getRun(r.runId))?.steps.length).toBe(r.steps.length);
  });

  it('shows the reliability benchmark figures in the library and skill views, and a broken figures file as a warning', async () => {
    const figures = {
      benchmark: 'reliability',
      date: '2026-11-22T00:00:00Z',
      skills: { 'mousepad.save_as': { runs: 5, succeeded: 4, successRate: 0.8 } },
    };
    writeFileSync(join(dataDir, 'reliability.json'), JSON.stringify(figures));
    const view = await api.library();
    expect(view.skills.find((s) => s.id === 'mousepad.save_as')?.reliability).toEqual({ successRate: 0.8, runs: 5 });
    expect(view.skills.find((s) => s.id === 'wine-notepad.save_as')?.reliability).toBeUndefined();
    expect((await api.getSkill('mousepad.save_as')).reliability).toEqual({ successRate: 0.8, runs: 5 });
    writeFileSync(join(dataDir, 'reliability.json'), '{ "benchmark": "executor" }');
    const broken = await api.library();
    expect(broken.skills.length).toBe(view.skills.length);
    expect(broken.skills.every((s) => s.reliability === undefined)).toBe(true);
    expect(broken.problems).toContainEqual(expect.objectContaining({ file: join(dataDir, 'reliability.json'), severity: 'warning' }));
  });

  it('lists the audit newest first, filtered by decision and text, within the limit', async () => {
    const base = { sessionId: 's', reason: 'r', policySource: 'manifest:x#0' };
    appendAudit(core.db!, { ...base, ts: 1000, capability: 'file.write', target: '/tmp/a', decision: 'allow' });
    appendAudit(core.db!, {
      ...base,
      ts: 2000,
      capability: 'input.keyboard',
      target: 'app:mousepad',
      decision: 'confirm',
      answer: 'allow_once',
    });
    appendAudit(core.db!, { ...base, ts: 3000, capability: 'file.write', target: '/etc/passwd', decision: 'deny' });
    appendAudit(core.db!, { ...base, ts: 4000, capability: 'file.write', target: '/tmp/b', decision: 'allow' });
    const all = await api.listAudit({ limit: 10 });
    expect(all.rows.map((r) => r.ts)).toEqual([4000, 3000, 2000, 1000]);
    expect(all.nextCursor).toBeNull();
    expect(Object.keys(all.rows[0]!)).not.toContain('hash');
    const newest = await api.listAudit({ limit: 2 });
    expect(newest.rows.map((r) => r.ts)).toEqual([4000, 3000]);
    expect((await api.listAudit({ limit: 2, cursor: newest.nextCursor! })).rows.map((r) => r.ts)).toEqual([2000, 1000]);
    expect((await api.listAudit({ limit: 10, decision: 'allow' })).rows.map((r) => r.target)).toEqual(['/tmp/b', '/tmp/a']);
    expect((await api.listAudit({ limit: 10, text: 'MOUSEPAD' })).rows.map((r) => r.answer)).toEqual(['allow_once']);
  });

  // The filed bug: the view scanned the oldest 200,000 rows and showed their tail as the newest.
  it('shows the newest rows first when there are 200,010 of them', async () => {
    insertAuditRows(core.db!, 200_010);
    const page = await api.listAudit({ limit: 3 });
    expect(page.rows.map((r) => r.id)).toEqual([200_010, 200_009, 200_008]);
    expect((await api.listAudit({ limit: 1, decision: 'deny' })).rows.map((r) => r.id)).toEqual([200_000]);
  }, 60_000);

  it('serves screenshots only from the data folder', async () => {
    const shots = join(dataDir, 'screenshots');
    mkdirSync(shots, { recursive: true });
    writeFileSync(join(shots, 'a.png'), Buffer.from([137, 80, 78, 71]));
    writeFileSync(join(dataDir, 'secret.png'), 'x');
    expect(Array.from(await api.readScreenshot(join(shots, 'a.png')))).toEqual([137, 80, 78, 71]);
    await expect(api.readScreenshot(join(dataDir, 'secret.png'))).rejects.toMatchObject({ code: 'runs.screenshot_refused' });
    await expect(api.readScreenshot(join(shots, '..', 'secret.png'))).rejects.toMatchObject({ code: 'runs.screenshot_refused' });
    await expect(api.readScreenshot('/etc/passwd')).rejects.toMatchObject({ code: 'runs.screenshot_refused' });
  });

  it('writes nothing when a saved skill is invalid, and reloads the library when it is valid', async () => {
    const skill = await api.getSkill('mousepad.select_all');
    const doc = {
      kind: 'skill',
      id: skill.id,
      app: 'mousepad',
      implements: skill.implements,
      permissions: skill.permissions,
      graph: { start: 'nowhere', nodes: { a: { terminal: 'success' } } },
    };
    await expect(api.saveUserSkill(doc)).rejects.toMatchObject({
      code: 'skills.invalid',
      problems: [expect.objectContaining({ message: expect.stringContaining('nowhere') })],
    });
    expect(existsSync(join(dataDir, 'skills'))).toBe(false);
    const saved = await api.saveUserSkill({ ...doc, graph: { start: 'a', nodes: { a: { terminal: 'success' } } } });
    expect(saved.path).toBe(join(dataDir, 'skills', 'mousepad.select_all.yaml'));
    expect(saved.skill).toMatchObject({ origin: 'user', primitives: 0 });
    expect((await api.getSkill('mousepad.select_all')).origin).toBe('user');
    expect(readdirSync(join(dataDir, 'skills'))).toEqual(['mousepad.select_all.yaml']);
  });

  it('keeps API keys write-only and stored keys when the form leaves the key empty', async () => {
    await api.saveSettings({
      providers: { planner: { preset: 'ollama', model: 'qwen2.5:7b', apiKey: 'sk-secret' } },
      defaultApps: { TextEditor: 'mousepad' },
    });
    const view = await api.getSettings();
    expect(view.providers.planner).toEqual({ preset: 'ollama', model: 'qwen2.5:7b', apiKeySet: true });
    expect(JSON.stringify(view)).not.toContain('sk-secret');
    expect(view.defaultApps).toEqual({ TextEditor: 'mousepad' });
    expect(view.domains.find((d) => d.id === 'TextEditor')?.apps).toContain('wine-notepad');
    await api.saveSettings({ providers: { planner: { preset: 'ollama', model: 'llama3' } } });
    expect(getSetting<{ planner: { apiKey?: string; model: string } }>(core.db!, 'llm')?.planner).toMatchObject({
      model: 'llama3',
      apiKey: 'sk-secret',
    });
    await api.saveSettings({ providers: { planner: null } });
    expect((await api.getSettings()).providers.planner).toBeUndefined();
    expect((await api.testProvider('planner')).message).toMatch(/No provider is set for the planner/);
  });

  it('lists folders before files for the path picker and refuses relative paths', async () => {
    mkdirSync(join(dataDir, 'zdir'));
    writeFileSync(join(dataDir, 'a.txt'), '');
    writeFileSync(join(dataDir, '.hidden'), '');
    const listing = await api.listDirectory(dataDir, false);
    // zdir sorts after the store's files by name, but folders come first.
    expect(listing.entries.slice(0, 2)).toEqual([
      { name: 'zdir', kind: 'directory' },
      { name: 'a.txt', kind: 'file' },
    ]);
    expect(listing.entries.some((e) => e.name === '.hidden')).toBe(false);
    expect(listing.parent).toBe(join(dataDir, '..'));
    await expect(api.listDirectory('relative/dir', false)).rejects.toMatchObject({ code: 'files.not_absolute' });
  });
});

describe('src/main/bridge/GoalRunner (through the adapter)', () => {
  it("runs a goal with the offline planner as one trajectory with the agent's decisions as notes", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'skilldesk-goal-'));
    const core = await createNodeCore({ dataDir, interactive: false });
    try {
      const api = new CoreApiAdapter({ core, db: core.db!, version: '0' });
      const events: RunEventView[] = [];
      const r = await api.runGoal({
        goal: "open notepad then write 'hello' and save it as /tmp/skilldesk-goal.txt",
        dryRun: true,
        signal: new AbortController().signal,
        onEvent: (e) => events.push(e),
      });
      const runIds = new Set(
        events.map((e) => (e.type === 'step_finished' ? e.step.runId : e.type === 'run_finished' ? e.result.runId : e.runId)),
      );
      expect(runIds).toEqual(new Set([r.runId]));
      expect(events[0]).toMatchObject({ type: 'run_started', skillId: 'agent', args: { goal: expect.stringContaining('hello') } });
      const notes = events.flatMap((e) => (e.type === 'note' ? [e.message] : []));
      expect(notes[0]).toMatch(/planner: offline/);
      expect(notes.some((n) => /TextEditor\.write_file|write_file/.test(n))).toBe(true);
      expect(r.status).toBe('succeeded');
      const seqs = r.steps.map((s) => s.seq);
      expect(new Set(seqs).size).toBe(seqs.length);
      expect(r.steps.some((s) => s.skillId === 'wine-notepad.save_as' && s.depth >= 1)).toBe(true);
    } finally {
      core.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
