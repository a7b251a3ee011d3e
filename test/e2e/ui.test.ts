import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { loadLibrary } from '../../src/main/services/library/YamlLibraryLoader';
import { ReplayServer } from '../fixtures/replay-server/ReplayServer';
import { openHostSession, pidsOf, ROOT, SCREENS_DIR, type HostSession } from './helpers/hostSession';

// A user skill whose manifest asks before typing: the approval prompt the third test answers.
const CONFIRM_SKILL = `kind: skill
id: mousepad.e2e_confirm_keys
app: mousepad
description: Press End in Mousepad, asking first (e2e fixture for permission prompts).
intents: [press end in mousepad]
permissions:
  - { capability: input.keyboard, effect: confirm, constraints: { apps: [mousepad] }, fallback_msg: 'The e2e test asks before pressing a key.' }
graph:
  start: press
  nodes:
    press: { action: key, key: End, next: done }
    done: { terminal: success }
`;

describe('src/renderer in host mode (Chromium, real core and store)', () => {
  let s: HostSession;
  const outFile = `/tmp/skilldesk-e2e-${process.pid}.txt`;
  let appsBefore: Set<number>;
  let appConfig: string;
  const savedConfigHome = process.env.XDG_CONFIG_HOME;

  beforeAll(async () => {
    if (!process.env.DISPLAY) throw new Error('The e2e tests drive the test desktop: start it (npm run desktop:start) and export DISPLAY');
    appsBefore = new Set([...pidsOf('mousepad'), ...pidsOf('notepad.exe')]);
    // Apps launched by the runs get their own settings folder: no session-restore question left
    // over from an earlier editor, and nothing this test does leaks into the user's settings.
    appConfig = mkdtempSync(join(tmpdir(), 'skilldesk-e2e-config-'));
    process.env.XDG_CONFIG_HOME = appConfig;
    s = await openHostSession({
      prepareDataDir: (dir) => {
        mkdirSync(join(dir, 'skills'), { recursive: true });
        writeFileSync(join(dir, 'skills', 'mousepad.e2e_confirm_keys.yaml'), CONFIRM_SKILL);
      },
    });
  });

  afterAll(async () => {
    await s?.close();
    rmSync(outFile, { force: true });
    // End only the editors this test's runs launched.
    for (const pid of [...pidsOf('mousepad'), ...pidsOf('notepad.exe')]) if (!appsBefore.has(pid)) process.kill(pid, 'SIGKILL');
    if (savedConfigHome === undefined) delete process.env.XDG_CONFIG_HOME;
    else process.env.XDG_CONFIG_HOME = savedConfigHome;
    rmSync(appConfig, { recursive: true, force: true });
  });

  it('runs a skill on the test desktop and shows its live trajectory', async () => {
    const { page } = s;
    await page.click('[data-screen=run]');
    await page.selectOption('select[aria-label=skill]', 'TextEditor.write_file');
    // Wine's Notepad: a Windows program on the test desktop.
    await page.selectOption('select[aria-label=app]', 'wine-notepad');
    // Inline validation: a relative path is refused as it is typed.
    await page.fill('#arg-path', 'notes.txt');
    await expect.poll(() => page.textContent('.field.invalid .field-error')).toContain('absolute POSIX path');
    // The path picker lists folders of the machine that runs the skills; it opens where the value points.
    await page.fill('#arg-path', '/tmp/x');
    await page.click('button:has-text("Browse…")');
    await page.waitForSelector('.picker-path:has-text("/tmp")');
    await s.screenshot('path-picker');
    await page.fill('input[aria-label="new file name"]', basename(outFile));
    await page.click('button:has-text("Use this name")');
    expect(await page.inputValue('#arg-path')).toBe(outFile);
    await page.fill('#arg-text', 'Hello from the SkillDesk e2e test');
    // The UI is under test here, not the skill: a run that fails inside Wine Notepad (its Save As
    // dialog occasionally ignores the first Enter) is retried once, with the desktop captured.
    let outcome: { status: string | null; errors: (string | null)[] } = { status: null, errors: [] };
    for (let attempt = 1; attempt <= 2; attempt++) {
      await page.click('button[data-action=run]');
      await page.waitForSelector('.trajectory[data-status=running]', { timeout: 30_000 });
      await page.waitForSelector('tr.step', { timeout: 30_000 });
      if (attempt === 1) await s.screenshot('run-live');
      await page.waitForSelector('.trajectory:not([data-status=running])', { timeout: 110_000 });
      outcome = {
        status: await page.getAttribute('.trajectory', 'data-status'),
        errors: await page.$$eval('.error-box', (xs) => xs.map((x) => x.textContent)),
      };
      if (outcome.status === 'succeeded') break;
      spawnSync('import', ['-window', 'root', join(SCREENS_DIR, `run-failure-${attempt}-desktop.png`)]);
      console.warn(`e2e run attempt ${attempt} ended ${outcome.status}: ${outcome.errors.join('; ')}`);
    }
    expect(outcome).toEqual({ status: 'succeeded', errors: [] });
    const steps = await page.$$eval('tr.step', (rows) => rows.map((r) => r.getAttribute('data-node')));
    expect(steps).toEqual(expect.arrayContaining(['new', 'type', 'save']));
    const cells = await page.$$eval('tr.step code', (xs) => xs.map((c) => c.textContent ?? ''));
    expect(cells).toContain('wine-notepad.save_as#dialog');
    expect(cells.some((c) => c.startsWith('wine-notepad.new_document#'))).toBe(true);
    expect(await page.$$('tr.step.step-ok')).not.toHaveLength(0);
    await page.waitForSelector('img.thumb', { timeout: 15_000 });
    await s.screenshot('run');
    expect(readFileSync(outFile, 'latin1')).toBe('Hello from the SkillDesk e2e test');
  }, 300_000);

  it('edits a graph, refuses it while invalid, saves it, and the file on disk is changed and valid', async () => {
    const { page } = s;
    await page.click('[data-screen=editor]');
    await page.selectOption('select[aria-label="skill to edit"]', 'mousepad.save_as');
    await page.waitForSelector('[data-node-id=dialog]');
    await expect.poll(() => page.getAttribute('.problem-count', 'data-problems')).toBe('0');

    // An unconnected node is unreachable and ends no path at a terminal node (two problems):
    // shown inline, counted, and the save is refused.
    await page.click('.palette button:has-text("wait_until")');
    await expect.poll(() => page.getAttribute('.problem-count', 'data-problems')).toBe('2');
    await page.waitForSelector('[data-node-id=wait_until] .problem-tag');
    await s.screenshot('editor-invalid');
    await page.click('button:has-text("Undo")');
    await expect.poll(() => page.getAttribute('.problem-count', 'data-problems')).toBe('0');

    // Lengthen the dialog wait through the inspector.
    await page.click('[data-node-id=dialog]');
    const yaml = await page.inputValue('textarea[aria-label="inspector yaml"]');
    expect(yaml).toContain('timeoutMs: 10000');
    await page.fill('textarea[aria-label="inspector yaml"]', yaml.replace('timeoutMs: 10000', 'timeoutMs: 15000'));
    await page.click('.inspector button:has-text("Apply")');
    await page.click('button:has-text("Auto layout")');
    await page.click('.toolbar button:has-text("Save")');
    const saved = await page.waitForSelector('[data-saved-path]');
    const path = await saved.getAttribute('data-saved-path');
    await s.screenshot('editor');

    expect(path).toBe(join(s.dataDir, 'skills', 'mousepad.save_as.yaml'));
    const doc = parseYaml(readFileSync(path!, 'utf8')) as { graph: { nodes: Record<string, { timeoutMs?: number }> } };
    expect(doc.graph.nodes.dialog?.timeoutMs).toBe(15000);
    const loaded = await loadLibrary({ builtinDir: join(ROOT, 'skills'), userDir: join(s.dataDir, 'skills') });
    expect(loaded.problems.filter((p) => p.file === path && p.severity === 'error')).toEqual([]);
    const skill = loaded.library.skills.get('mousepad.save_as')!;
    expect(skill.source.origin).toBe('user');
    const dialog = skill.graph.nodes.find((n) => n.id === 'dialog');
    expect(dialog?.kind === 'action' && dialog.primitive.action === 'wait_for_window' && dialog.primitive.timeoutMs).toBe(15000);

    // Test run of the saved skill (dry): it runs the user's version, node by node.
    await page.click('.side button:has-text("Test run")');
    await page.fill('textarea[aria-label="test arguments"]', 'path: /tmp/skilldesk-e2e-test-run.txt\n');
    await page.click('.side button.primary:has-text("Test run")');
    // The edited copy is saved as a community skill, so its sensitive steps ask first: allow them.
    let prompts = 0;
    await expect
      .poll(
        async () => {
          if (await page.$('.modal[role=alertdialog]')) {
            prompts++;
            if (prompts === 1) await s.screenshot('editor-test-run-prompt');
            await page.click('.modal button:has-text("Allow once")');
          }
          // Not page.getAttribute: it waits up to 30 s for the element, while a prompt that appeared
          // meanwhile would sit unanswered; each poll looks once and moves on.
          const status = await (await page.$('[data-test-status]'))?.getAttribute('data-test-status');
          // Without a status the run did not start: show the editor's error instead of `undefined`.
          return status ?? `no status; error box: ${JSON.stringify(await page.$$eval('.error-box', (xs) => xs.map((x) => x.textContent)))}`;
        },
        { timeout: 60_000, interval: 250 },
      )
      .toBe('succeeded');
    expect(prompts).toBeGreaterThan(0);
    expect(await page.$$eval('.gnode.visited', (xs) => xs.map((x) => x.getAttribute('data-node-id')))).toEqual(
      expect.arrayContaining(['focus', 'dialog', 'saved']),
    );
    await s.screenshot('editor-test-run');
  });

  it('asks for permission in the page, and the answer is in the audit view', async () => {
    const { page } = s;
    await page.click('[data-screen=run]');
    await page.selectOption('select[aria-label=skill]', 'mousepad.e2e_confirm_keys');
    await page.check('text=Dry run (touch nothing)');
    await page.click('button[data-action=run]');
    const modal = await page.waitForSelector('.modal[role=alertdialog]', { timeout: 30_000 });
    expect(await modal.textContent()).toContain('input.keyboard');
    expect(await modal.textContent()).toContain('mousepad.e2e_confirm_keys');
    await s.screenshot('permission-prompt');
    await page.click('.modal button:has-text("Allow once")');
    await page.waitForSelector('.trajectory[data-status=succeeded]', { timeout: 30_000 });

    await page.click('[data-screen=permissions]');
    await page.selectOption('select[aria-label="decision filter"]', 'confirm');
    const row = await page.waitForSelector('table.audit tr.decision-confirm');
    const text = await row.textContent();
    expect(text).toContain('mousepad.e2e_confirm_keys');
    expect(text).toContain('input.keyboard');
    expect(text).toContain('allow_once');

    // "Allow for this session" creates a grant the Permissions screen lists and can revoke.
    await page.click('[data-screen=run]');
    await page.click('button[data-action=run]');
    await page.waitForSelector('.modal[role=alertdialog]', { timeout: 30_000 });
    await page.click('.modal button:has-text("Allow for this session")');
    await page.waitForSelector('.trajectory[data-status=succeeded]', { timeout: 30_000 });
    await page.click('[data-screen=permissions]');
    const grant = await page.waitForSelector('table.grants tr:has-text("mousepad.e2e_confirm_keys")');
    expect(await grant.textContent()).toContain('input.keyboard');
    await page.waitForSelector('table.audit tr.decision-confirm:has-text("allow_session")');
    await s.screenshot('permissions');
    await page.click('table.grants tr:has-text("mousepad.e2e_confirm_keys") button:has-text("Revoke")');
    await page.waitForSelector('text=No grants.');
  });

  it('reaches a typed goal through the agent as one trajectory (dry run)', async () => {
    const { page } = s;
    await page.click('[data-screen=run]');
    await page.check('text=Dry run (touch nothing)');
    await page.fill('input[aria-label=goal]', "open notepad then write 'hello' and save it as /tmp/skilldesk-e2e-goal.txt");
    await page.click('button:has-text("Do it")');
    await page.waitForSelector('.trajectory[data-status=succeeded]', { timeout: 60_000 });
    const notes = await page.$$eval('.trajectory .note', (xs) => xs.map((x) => x.textContent ?? ''));
    expect(notes[0]).toMatch(/planner: offline/);
    expect(notes.some((n) => n.includes('TextEditor.write_file on wine-notepad'))).toBe(true);
    expect(await page.$$eval('tr.step code', (xs) => xs.map((c) => c.textContent))).toContain('wine-notepad.save_as#dialog');
    await s.screenshot('goal');
  });

  it('shows the library, the composition graph and the settings without page errors', async () => {
    const { page } = s;
    // Figures of the reliability benchmark, where the data folder has them, show per skill.
    writeFileSync(
      join(s.dataDir, 'reliability.json'),
      JSON.stringify({
        benchmark: 'reliability',
        date: new Date().toISOString(),
        skills: { 'mousepad.save_as': { runs: 5, succeeded: 4, successRate: 0.8 } },
      }),
    );
    await page.click('[data-screen=library]');
    await page.click('button:has-text("Reload library")');
    // By interface first: each method's implementations with how each is verified.
    await page.waitForSelector('tr[data-method="Document.save_as"] button:has-text("mousepad") .verify-live_desktop');
    await page.waitForSelector('tr[data-method="Document.save_as"] button:has-text("word") .verify-dry_run');
    await s.screenshot('library-interfaces');
    await page.fill('input[aria-label="search skills"]', 'save the document under a new name');
    await page.waitForSelector('tr[data-skill="mousepad.save_as"]:has-text("80% of 5 runs")');
    await s.screenshot('library');
    await page.click('button:has-text("Composition graph")');
    await page.waitForSelector('.react-flow__node');
    // One app's part, with the may-follow edges (pre- and postconditions) on demand: across apps too.
    await page.selectOption('select[aria-label="composition app"]', 'mousepad');
    await page.check('.legend input[type=checkbox]');
    await page.waitForSelector('.react-flow__edge.may-follow.across');
    await page.waitForSelector('.react-flow__node:has-text("mousepad.open_file")');
    await s.screenshot('composition');
    await page.click('[data-screen=settings]');
    await page.waitForSelector('fieldset[data-role=planner]');
    // "Test connection" against a local OpenAI-compatible server (the replay server computes embeddings).
    const replay = new ReplayServer();
    const baseURL = await replay.start();
    try {
      const embedder = 'fieldset[data-role=embedder]';
      await page.check(`${embedder} legend input[type=checkbox]`);
      await page.selectOption(`${embedder} select`, 'custom');
      await page.fill(`${embedder} input[placeholder="preset default"]`, baseURL);
      await page.fill(`${embedder} input[placeholder^="e.g."]`, 'replay-model');
      await page.click('button:has-text("Save settings")');
      await page.waitForSelector('text=Saved.');
      await page.click(`${embedder} button:has-text("Test connection")`);
      const result = await page.waitForSelector(`${embedder} [data-test-result]`, { timeout: 30_000 });
      expect(await result.getAttribute('data-test-result')).toBe('ok');
      expect(await result.textContent()).toMatch(/embeddings: \d+ dimensions/);
      expect(replay.requests.some((r) => r.path.endsWith('/embeddings'))).toBe(true);
    } finally {
      await replay.close();
    }
    await s.screenshot('settings');
    expect(s.pageErrors).toEqual([]);
    expect(existsSync(join(ROOT, 'test-results', 'screens', 'settings.png'))).toBe(true);
  });
});
