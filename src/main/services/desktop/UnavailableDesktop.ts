import type { Desktop } from '../../../shared/ports/desktop';
import { DesktopError } from './errors';

/**
 * A desktop for runs that must not touch one (a website's skills, which SkillDesk's browser
 * runs): every operation fails with `reason`, none is carried out.
 */
export function unavailableDesktop(platform: Desktop['platform'], reason: string): Desktop {
  const port = new Proxy({}, { get: () => () => Promise.reject(new DesktopError('desktop.unavailable', reason)) });
  return {
    platform,
    input: port as Desktop['input'],
    windows: port as Desktop['windows'],
    screen: port as Desktop['screen'],
    clipboard: port as Desktop['clipboard'],
    processes: port as Desktop['processes'],
    files: port as Desktop['files'],
  };
}
