import { editDistance } from '../text';

/**
 * The capability taxonomy for desktop computer use: one canonical name per capability,
 * grouped by what it touches, each with a protection level. Manifests, the policy engine,
 * static inference and the audit trail all speak these names.
 */

/**
 * How much harm a capability can do, which decides how it is treated beyond the manifest:
 * - `normal`: routine UI work inside the app the skill drives.
 * - `dangerous`: can destroy data or send it away; capped to `confirm` for less-trusted skills.
 * - `system`: changes the machine beyond the session (settings, packages, jobs).
 * - `redact`: reads sensitive content; its target is digested, never written in clear, in the audit.
 */
export type ProtectionLevel = 'normal' | 'dangerous' | 'system' | 'redact';

/** The kind of target a capability is scoped by, i.e. which constraint applies to it. */
export type ScopeKind = 'path' | 'app' | 'url' | 'command' | 'skill' | 'none';

export type CapabilityCategory = 'files' | 'processes' | 'input_screen' | 'network' | 'system' | 'secrets' | 'agent';

export interface CapabilityInfo {
  category: CapabilityCategory;
  level: ProtectionLevel;
  scope: ScopeKind;
  description: string;
}

/** Every capability SkillDesk knows. Manifests naming anything else are rejected. */
export const CAPABILITIES = {
  'file.read': {
    category: 'files',
    level: 'normal',
    scope: 'path',
    description: 'Read a file (opened in an app, read by a script, or read by the executor).',
  },
  'file.write': { category: 'files', level: 'dangerous', scope: 'path', description: 'Create or overwrite a file.' },
  'file.delete': { category: 'files', level: 'dangerous', scope: 'path', description: 'Delete a file or folder.' },
  'file.permissions': {
    category: 'files',
    level: 'dangerous',
    scope: 'path',
    description: "Change a file's permissions, owner or attributes (chmod, chown, icacls, os.chmod, fs.chmod).",
  },
  'app.launch': { category: 'processes', level: 'normal', scope: 'app', description: 'Start an application from its profile.' },
  'process.create': {
    category: 'processes',
    level: 'dangerous',
    scope: 'command',
    description:
      'Start a program from a command line SkillDesk does not ship (an app profile from your skill folder, or launch arguments a skill adds).',
  },
  'process.kill': { category: 'processes', level: 'dangerous', scope: 'command', description: 'Terminate a process.' },
  'shell.execute': {
    category: 'processes',
    level: 'dangerous',
    scope: 'command',
    description: 'Start other programs or command lines from a script (subprocess, child_process, Start-Process).',
  },
  'script.execute': {
    category: 'processes',
    level: 'dangerous',
    scope: 'command',
    description: 'Run a script the skill carries (`run_script`, any interpreter).',
  },
  'script.unanalysed': {
    category: 'processes',
    level: 'dangerous',
    scope: 'command',
    description:
      'Run script code whose effects static analysis cannot establish (a name computed at run time, an unmodelled program or module, code built from strings); the target says why.',
  },
  'input.keyboard': {
    category: 'input_screen',
    level: 'normal',
    scope: 'app',
    description: 'Send keystrokes to the windows of the named apps.',
  },
  'input.mouse': {
    category: 'input_screen',
    level: 'normal',
    scope: 'app',
    description: 'Click, drag and scroll in the windows of the named apps.',
  },
  'app.window': {
    category: 'input_screen',
    level: 'normal',
    scope: 'app',
    description: 'Find, wait for and bring to the front the windows of the named apps, and read their titles.',
  },
  'screen.capture': {
    category: 'input_screen',
    level: 'redact',
    scope: 'none',
    description: 'Take a screenshot or read the screen (OCR grounding of `text` targets, `text_visible`).',
  },
  'input.capture': {
    category: 'input_screen',
    level: 'redact',
    scope: 'none',
    description:
      'Record keystrokes or pointer events meant for other windows, or the microphone (key loggers, input hooks, /dev/input, arecord).',
  },
  'clipboard.read': { category: 'input_screen', level: 'redact', scope: 'none', description: 'Read the clipboard.' },
  'clipboard.write': {
    category: 'input_screen',
    level: 'normal',
    scope: 'none',
    description: 'Replace the clipboard (including Ctrl+C / Ctrl+X in an app).',
  },
  'web.navigate': { category: 'network', level: 'normal', scope: 'url', description: 'Open a URL in a browser.' },
  'web.fetch': {
    category: 'network',
    level: 'normal',
    scope: 'url',
    description: 'Download from a URL without sending data beyond the request.',
  },
  'web.post': {
    category: 'network',
    level: 'dangerous',
    scope: 'url',
    description: 'Send data to a network host: HTTP bodies and uploads, raw sockets, mail, scp/rsync.',
  },
  'external_api.call': {
    category: 'network',
    level: 'dangerous',
    scope: 'url',
    description: 'Call a third-party API with credentials (aws, gcloud, az, gh and other API CLIs and SDKs).',
  },
  'net.listen': {
    category: 'network',
    level: 'dangerous',
    scope: 'url',
    description: 'Accept network connections: a listening server or socket (http.server, nc -l, bind shells, debugger ports).',
  },
  'vcs.push': {
    category: 'network',
    level: 'dangerous',
    scope: 'url',
    description: 'Push to a version-control remote or change where a repository pushes (git push, git remote add/set-url).',
  },
  'settings.write': {
    category: 'system',
    level: 'system',
    scope: 'path',
    description: 'Change system or user settings, including shell profiles (`~/.bashrc`, `$PROFILE`) and autostart.',
  },
  'registry.read': {
    category: 'system',
    level: 'normal',
    scope: 'path',
    description: 'Read a Windows registry value (the check of a setting a skill changed).',
  },
  'registry.write': { category: 'system', level: 'system', scope: 'path', description: 'Write the Windows registry.' },
  'package.install': { category: 'system', level: 'system', scope: 'command', description: 'Install or remove software packages.' },
  'env_var.write': {
    category: 'system',
    level: 'system',
    scope: 'none',
    description: 'Set persistent environment variables (`setx`, `[Environment]::SetEnvironmentVariable`).',
  },
  'scheduled_job.create': {
    category: 'system',
    level: 'system',
    scope: 'command',
    description: 'Create scheduled jobs: cron, at, systemd timers, Windows scheduled tasks.',
  },
  'secrets.read': {
    category: 'secrets',
    level: 'redact',
    scope: 'path',
    description: 'Read credentials: SSH keys, `.env` files, cloud credentials, keyrings, password stores, browser profiles.',
  },
  'location.read': {
    category: 'secrets',
    level: 'redact',
    scope: 'none',
    description: "Read the machine's physical location (location services, GPS, Wi-Fi geolocation APIs).",
  },
  'context.load': {
    category: 'agent',
    level: 'normal',
    scope: 'skill',
    description: "Load an untrusted skill's text into a model's context.",
  },
  'skill.call': {
    category: 'agent',
    level: 'normal',
    scope: 'skill',
    description: "Call another skill (whose manifest must lie within the caller's).",
  },
  'policy.modify': { category: 'agent', level: 'system', scope: 'none', description: 'Change permission policy or grants.' },
} as const satisfies Record<string, CapabilityInfo>;

export type Capability = keyof typeof CAPABILITIES;

export const CAPABILITY_NAMES = Object.keys(CAPABILITIES) as Capability[];

export const CATEGORY_TITLES: Record<CapabilityCategory, string> = {
  files: 'Files',
  processes: 'Processes',
  input_screen: 'Input and screen',
  network: 'Network',
  system: 'System',
  secrets: 'Secrets',
  agent: 'Agent',
};

/** True when `name` is a canonical capability name. */
export function isCapability(name: string): name is Capability {
  return Object.hasOwn(CAPABILITIES, name);
}

/** The taxonomy entry of a capability. */
export function capabilityInfo(cap: Capability): CapabilityInfo {
  return CAPABILITIES[cap];
}

/** The group of a capability name: `file` for `file.read`. Patterns `group.*` match on it. */
export function capabilityGroup(cap: string): string {
  const dot = cap.indexOf('.');
  return dot < 0 ? cap : cap.slice(0, dot);
}

/** Whether a manifest pattern (`file.read`, `file.*`, `*`) covers the capability. */
export function patternMatches(pattern: string, cap: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return capabilityGroup(cap) === pattern.slice(0, -2);
  return pattern === cap;
}

/** Whether pattern `outer` covers every capability `inner` covers. */
export function patternCovers(outer: string, inner: string): boolean {
  if (outer === '*') return true;
  if (inner === '*') return false;
  if (outer.endsWith('.*')) return capabilityGroup(inner) === outer.slice(0, -2);
  return outer === inner;
}

/** Capabilities a pattern stands for. */
export function expandPattern(pattern: string): Capability[] {
  return CAPABILITY_NAMES.filter((c) => patternMatches(pattern, c));
}

/** Whether a pattern names at least one known capability (`file.*` yes, `files.*` no). */
export function isKnownPattern(pattern: string): boolean {
  return expandPattern(pattern).length > 0;
}

/** The closest known names to a mistyped one, for error messages. */
export function suggestCapabilities(name: string, max = 3): string[] {
  const groups = [...new Set(CAPABILITY_NAMES.map(capabilityGroup))].map((g) => `${g}.*`);
  return [...CAPABILITY_NAMES, ...groups]
    .map((c) => ({ c, d: editDistance(name, c) }))
    .filter(({ d }) => d <= Math.max(2, Math.floor(name.length / 3)))
    .sort((a, b) => a.d - b.d)
    .slice(0, max)
    .map(({ c }) => c);
}
