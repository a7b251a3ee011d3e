import type { CapabilityNeed } from '../../../shared/permissions/needs';
import type { Capability } from '../../../shared/permissions/taxonomy';
import type { AppDoc } from '../../../shared/skill';

/**
 * Programs whose keyboard and mouse input is itself a privileged effect: what is typed into a
 * registry editor writes the registry (Run keys included), what is typed into a terminal runs as a
 * command. Input to an app whose profile identifies one of them needs these capabilities too,
 * whatever primitive sends it, so a skill cannot reach them through plain `input.keyboard`.
 * Names are program names as windows report them (process, or WM_CLASS parts), lower case.
 */
const PROGRAMS: readonly { names: readonly string[]; effects: readonly Capability[]; why: string }[] = [
  {
    names: ['regedit.exe', 'regedt32.exe', 'regedit'],
    effects: ['registry.write', 'settings.write'],
    why: 'a registry editor writes any key',
  },
  {
    names: ['mmc.exe', 'taskschd.msc', 'services.msc', 'gpedit.msc'],
    effects: ['settings.write', 'scheduled_job.create'],
    why: 'the management console edits services, scheduled tasks and policies',
  },
  {
    names: ['cmd.exe', 'powershell.exe', 'pwsh.exe', 'pwsh', 'wt.exe', 'windowsterminal.exe', 'conhost.exe', 'mintty.exe', 'wineconsole'],
    effects: ['shell.execute'],
    why: 'a command line runs what is typed into it',
  },
  {
    names: [
      'xterm',
      'uxterm',
      'gnome-terminal-server',
      'gnome-terminal',
      'konsole',
      'xfce4-terminal',
      'lxterminal',
      'mate-terminal',
      'terminator',
      'tilix',
      'qterminal',
      'kitty',
      'alacritty',
      'urxvt',
      'rxvt',
    ],
    effects: ['shell.execute'],
    why: 'a terminal runs what is typed into it',
  },
  {
    // One shortcut (Ctrl+`, F4) away from a terminal panel, tasks or a command palette that runs
    // programs: what a skill types may land there, so it is judged as a command line.
    names: ['code.exe', 'code', 'codium', 'code-oss', 'kate', 'geany'],
    effects: ['shell.execute'],
    why: 'a code editor with an integrated terminal runs what is typed into it',
  },
];

/**
 * What input to an app does beyond `input.*`, from the program its profile identifies (the
 * profile's `process` and `class` patterns, anchored program names, are tried on each known name).
 */
export function inputEffects(app: string, windows: AppDoc['windows'] | undefined, action: string): CapabilityNeed[] {
  const patterns = [windows?.process, windows?.class].filter((p): p is string => p !== undefined).map((p) => new RegExp(p, 'i'));
  if (!patterns.length) return [];
  const needs: CapabilityNeed[] = [];
  for (const program of PROGRAMS) {
    const hit = program.names.find((name) => patterns.some((p) => p.test(name)));
    if (!hit) continue;
    for (const capability of program.effects)
      needs.push({
        capability,
        target: { kind: 'unknown', hint: `anything, by input to ${hit}` },
        detail: `${action} into ${hit}: ${program.why}`,
      });
  }
  return needs;
}
