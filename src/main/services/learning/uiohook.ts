import { createRequire } from 'node:module';
import { SkillDeskError } from '../../../shared/errors';
import type { InputHook } from './DesktopRecorder';

/**
 * The global input hook of this machine: uiohook-napi (prebuilt for Linux, Windows and macOS; on
 * X11 it listens through the RECORD extension). Loaded on first use: most runs record nothing.
 */
export function loadInputHook(): InputHook {
  try {
    const mod = createRequire(__filename)('uiohook-napi') as { uIOhook: InputHook };
    return mod.uIOhook;
  } catch (err) {
    throw new SkillDeskError(
      'record.no_hook',
      `Recording a desktop demonstration needs uiohook-napi's native module (npm install uiohook-napi): ${(err as Error).message.split('\n')[0]}`,
    );
  }
}
