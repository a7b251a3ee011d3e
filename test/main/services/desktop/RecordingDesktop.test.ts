import { describe, expect, it } from 'vitest';
import { createRecordingDesktop } from '../../../../src/main/services/desktop';
import type { WindowInfo } from '../../../../src/shared/ports/desktop';

const notepad: WindowInfo = {
  id: 'w1',
  title: 'Untitled - Notepad',
  processName: 'notepad.exe',
  bounds: { x: 0, y: 0, width: 800, height: 600 },
};

describe('src/main/services/desktop/RecordingDesktop', () => {
  it('records input calls in order with their arguments', async () => {
    const rec = createRecordingDesktop();
    const { input } = rec.desktop;
    await input.typeText('A_B>C:D!');
    await input.hotkey(['Control', 's']);
    await input.pressKey('Enter');
    await input.click({ x: 3, y: 4 }, 'right', 1);
    await input.drag({ x: 1, y: 1 }, { x: 9, y: 9 });
    await input.scroll(undefined, 0, 3);
    expect(rec.calls).toEqual([
      { op: 'type', text: 'A_B>C:D!' },
      { op: 'hotkey', keys: ['Control', 's'] },
      { op: 'key', key: 'Enter' },
      { op: 'click', at: { x: 3, y: 4 }, button: 'right', count: 1 },
      { op: 'drag', from: { x: 1, y: 1 }, to: { x: 9, y: 9 } },
      { op: 'scroll', dx: 0, dy: 3 },
    ]);
  });

  it('returns what was written to the clipboard and keeps reads out of actions()', async () => {
    const rec = createRecordingDesktop({ clipboard: 'before' });
    expect(await rec.desktop.clipboard.readText()).toBe('before');
    await rec.desktop.clipboard.writeText('é ✓');
    expect(await rec.desktop.clipboard.readText()).toBe('é ✓');
    expect(rec.actions()).toEqual([{ op: 'clipboard.write', text: 'é ✓' }]);
    expect(rec.calls.map((c) => c.op)).toEqual(['clipboard.read', 'clipboard.write', 'clipboard.read']);
  });

  it('lists fixture windows, adds the launched app window and makes it active', async () => {
    const rec = createRecordingDesktop({ windows: [], launchWindows: { wine: notepad }, platform: 'linux' });
    expect(await rec.desktop.windows.list()).toEqual([]);
    const { pid } = await rec.desktop.processes.launch({ command: 'wine', args: ['notepad.exe'] });
    expect(pid).toBeGreaterThan(0);
    expect((await rec.desktop.windows.list()).map((w) => w.id)).toEqual(['w1']);
    expect((await rec.desktop.windows.active())?.title).toBe('Untitled - Notepad');
    await rec.desktop.windows.close('w1');
    expect(await rec.desktop.windows.list()).toEqual([]);
    expect(rec.actions()).toEqual([
      { op: 'launch', command: 'wine', args: ['notepad.exe'] },
      { op: 'close', id: 'w1' },
    ]);
  });

  it('accepts focus on stand-in windows of dry runs', async () => {
    const rec = createRecordingDesktop({ windows: [notepad] });
    await rec.desktop.windows.focus('dry:wine-notepad:main');
    expect(rec.calls).toEqual([{ op: 'focus', id: 'dry:wine-notepad:main' }]);
  });

  it('answers file probes from the fixture and fails on missing files', async () => {
    const rec = createRecordingDesktop({ files: { '/tmp/a.txt': 'hi' } });
    expect(await rec.desktop.files.exists('/tmp/a.txt')).toBe(true);
    expect(await rec.desktop.files.exists('/tmp/b.txt')).toBe(false);
    expect(await rec.desktop.files.readText('/tmp/a.txt')).toBe('hi');
    await expect(rec.desktop.files.readText('/tmp/b.txt')).rejects.toMatchObject({ code: 'file.not_found' });
  });

  it('captures a valid PNG of the requested region size', async () => {
    const rec = createRecordingDesktop();
    const full = await rec.desktop.screen.capture();
    const part = await rec.desktop.screen.capture({ x: 10, y: 10, width: 40, height: 30 });
    expect([full.width, full.height]).toEqual([1280, 800]);
    expect([part.width, part.height]).toEqual([40, 30]);
    expect(Buffer.from(part.png).readUInt32BE(16)).toBe(40);
    expect(Buffer.from(part.png).subarray(1, 4).toString()).toBe('PNG');
  });

  it('returns the configured script result and records the script', async () => {
    const rec = createRecordingDesktop({ scriptResult: (req) => ({ exitCode: 0, stdout: `ran ${req.args.join(',')}`, stderr: '' }) });
    const r = await rec.desktop.processes.runScript({ interpreter: 'bash', script: 'echo', args: ['x', 'y'], timeoutMs: 1000 });
    expect(r.stdout).toBe('ran x,y');
    expect(rec.actions()).toEqual([{ op: 'script', interpreter: 'bash', script: 'echo', args: ['x', 'y'], timeoutMs: 1000 }]);
  });

  it('tells onCall of each call before its effect, so a fixture can react to it', async () => {
    const dialog: WindowInfo = { ...notepad, id: 'w2', title: 'Save changes?' };
    const seen: string[] = [];
    const rec = createRecordingDesktop({
      windows: [notepad, dialog],
      onCall: (call) => {
        seen.push(`${call.op} with ${rec.calls.length} recorded`);
        // The click closes the dialog.
        if (call.op === 'click') rec.windows.splice(1, 1);
      },
    });
    await rec.desktop.input.click({ x: 1, y: 1 }, 'left', 1);
    expect(seen).toEqual(['click with 0 recorded']);
    expect((await rec.desktop.windows.list()).map((w) => w.id)).toEqual(['w1']);
  });

  it('moves focus with setActiveWindow without recording a call', async () => {
    const rec = createRecordingDesktop({ windows: [notepad, { ...notepad, id: 'w2', title: 'Terminal' }] });
    expect((await rec.desktop.windows.active())?.id).toBe('w1');
    rec.setActiveWindow('w2');
    expect((await rec.desktop.windows.active())?.title).toBe('Terminal');
    expect(rec.actions()).toEqual([]);
  });
});
