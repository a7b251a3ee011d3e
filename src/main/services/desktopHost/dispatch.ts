import { assertNever } from '../../../shared/errors';
import type { Call } from '../../../shared/desktopHost/protocol';
import type { Desktop } from '../../../shared/ports/desktop';
import { DesktopError } from '../desktop/errors';

/** Carries one checked call out on the host's desktop; the value is what `RESULT_SCHEMAS[op]` describes. */
export async function dispatchCall(desktop: Desktop, call: Call, signal: AbortSignal): Promise<unknown> {
  switch (call.op) {
    case 'input.pressKey':
      return done(await desktop.input.pressKey(call.key));
    case 'input.hotkey':
      return done(await desktop.input.hotkey(call.keys));
    case 'input.typeText':
      return done(await desktop.input.typeText(call.text));
    case 'input.click':
      return done(await desktop.input.click(call.at, call.button, call.count));
    case 'input.drag':
      return done(await desktop.input.drag(call.from, call.to));
    case 'input.scroll':
      return done(await desktop.input.scroll(call.at, call.dx, call.dy));
    case 'windows.list':
      return desktop.windows.list();
    case 'windows.active':
      return (await desktop.windows.active()) ?? null;
    case 'windows.focus':
      return done(await desktop.windows.focus(call.id));
    case 'windows.close':
      return done(await desktop.windows.close(call.id));
    case 'screen.capture': {
      const shot = await desktop.screen.capture(call.region);
      return { width: shot.width, height: shot.height, pngBase64: Buffer.from(shot.png).toString('base64') };
    }
    case 'clipboard.read':
      return desktop.clipboard.readText();
    case 'clipboard.write':
      return done(await desktop.clipboard.writeText(call.text));
    case 'processes.launch':
      return desktop.processes.launch({
        command: call.command,
        args: call.args,
        ...(call.env && { env: call.env }),
        ...(call.cwd !== undefined && { cwd: call.cwd }),
      });
    case 'processes.runScript':
      return desktop.processes.runScript({
        interpreter: call.interpreter,
        script: call.script,
        args: call.args,
        timeoutMs: call.timeoutMs,
        ...(call.env && { env: call.env }),
        signal,
      });
    case 'files.exists':
      return desktop.files.exists(call.path);
    case 'files.readText':
      return desktop.files.readText(call.path);
    case 'registry.readValue':
      if (!desktop.registry) throw new DesktopError('registry.unsupported', `This desktop (${desktop.platform}) has no registry to read`);
      return (await desktop.registry.readValue(call.key, call.name)) ?? null;
    default:
      return assertNever(call, 'desktop host call');
  }
}

/** Methods that resolve to nothing answer `null` (JSON has no undefined). */
function done(_: void): null {
  return null;
}
