import type { ScriptLanguage } from './types';

/**
 * Which paths are credentials and which are shell profiles or autostart entries: reading the
 * first is `secrets.read`, writing the second changes the user's environment (`settings.write`).
 */

const SECRET_PATTERNS: RegExp[] = [
  /(^|[\\/])\.ssh([\\/]|$)/i,
  /(^|[\\/])id_(rsa|dsa|ecdsa|ed25519)(\.pub)?$/i,
  /(^|[\\/])\.env(\.[\w.-]+)?$/i,
  /(^|[\\/])\.aws([\\/]|$)/i,
  /(^|[\\/])\.azure([\\/]|$)/i,
  /(^|[\\/])\.config[\\/]gcloud([\\/]|$)/i,
  /(^|[\\/])\.gnupg([\\/]|$)/i,
  /(^|[\\/])\.netrc$/i,
  /(^|[\\/])\.git-credentials$/i,
  /(^|[\\/])\.docker[\\/]config\.json$/i,
  /(^|[\\/])\.kube[\\/]config$/i,
  /(^|[\\/])\.password-store([\\/]|$)/i,
  /(^|[\\/])(keyrings?|kwalletd?)([\\/]|$)/i,
  /(^|[\\/])\.config[\\/](google-chrome|chromium|BraveSoftware|microsoft-edge)([\\/]|$)/i,
  /(^|[\\/])\.mozilla[\\/]firefox([\\/]|$)/i,
  /(^|[\\/])(Login Data|Cookies|Web Data|logins\.json|key[34]\.db|cookies\.sqlite)$/i,
  /AppData[\\/](Local|Roaming)[\\/](Google[\\/]Chrome|Mozilla|Microsoft[\\/](Credentials|Protect|Vault))/i,
  /(^|[\\/])etc[\\/](shadow|gshadow|sudoers)$/i,
  /\.(pem|key|pfx|p12|kdbx|keychain(-db)?)$/i,
  /(^|[\\/])credentials(\.json|\.xml|\.db)?$/i,
  /(^|[\\/])\.pgpass$/i,
  /(^|[\\/])\.npmrc$/i,
  /(^|[\\/])\.pypirc$/i,
  // Shell and REPL histories hold typed passwords and tokens.
  /(^|[\\/])\.\w*_?history$/i,
  /ConsoleHost_history\.txt$/i,
  /^\/proc\/[^/]+\/environ$/,
  /(^|[\\/])\.config[\\/](gh[\\/]hosts\.yml|rclone[\\/]rclone\.conf|discord|Slack|Signal)([\\/]|$)/i,
  /(^|[\\/])(\.s3cfg|\.boto|\.vnc[\\/]passwd|wallet\.dat|recentservers\.xml|sitemanager\.xml)$/i,
  /(^|[\\/])\.(cargo|gem|terraform\.d)[\\/]credentials/i,
  /(^|[\\/])(\.bitcoin|\.electrum|\.ethereum[\\/]keystore|Local Storage[\\/]leveldb)([\\/]|$)/i,
  /(^|[\\/])\.config[\\/](hub|op|sops|git[\\/]credentials)([\\/]|$)/i,
  /(^|[\\/])\.(vault-token|dockercfg)$/i,
  /(^|[\\/])\.oci[\\/]config$/i,
  /(^|[\\/])\.m2[\\/]settings(-security)?\.xml$/i,
  /(^|[\\/])\.gradle[\\/]gradle\.properties$/i,
  /(^|[\\/])\.purple[\\/]accounts\.xml$/i,
  /(^|[\\/])\.local[\\/]share[\\/]fish[\\/]fish_history$/i,
  /(^|[\\/])Telegram Desktop[\\/]tdata([\\/]|$)/i,
  /(^|[\\/])Library[\\/]Keychains([\\/]|$)/i,
  /(^|[\\/])Windows[\\/]System32[\\/]config[\\/](SAM|SECURITY|SYSTEM)$/i,
];

const PROFILE_PATTERNS: RegExp[] = [
  /(^|[\\/])\.(bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|cshrc|tcshrc|kshrc|inputrc|xprofile|xinitrc|xsessionrc)$/i,
  /(^|[\\/])\.config[\\/](fish[\\/]config\.fish|autostart[\\/].*|environment\.d[\\/].*)$/i,
  /(^|[\\/])etc[\\/](profile|environment|bash\.bashrc|zsh[\\/].*|profile\.d[\\/].*)$/i,
  /Microsoft\.PowerShell_profile\.ps1$/i,
  /(^|[\\/])profile\.ps1$/i,
  /Start Menu[\\/]Programs[\\/]Startup/i,
  // Files that make other programs run code later: git hooks and config, SSH authorised keys,
  // the dynamic loader's preload list, Python start-up hooks, launchers and PATH folders.
  /(^|[\\/])\.git[\\/](hooks([\\/]|$)|config$)/i,
  /(^|[\\/])\.(gitconfig|curlrc|wgetrc|pythonrc(\.py)?|vimrc|exrc|Xresources|npmrc)$/i,
  /(^|[\\/])\.ssh[\\/](authorized_keys2?|config|rc)$/i,
  /(^|[\\/])etc[\\/](ld\.so\.preload|ld\.so\.conf(\.d[\\/].*)?|sudoers(\.d[\\/].*)?|hosts|passwd|rc\.local|init\.d[\\/].*)$/i,
  /(^|[\\/])(sitecustomize|usercustomize)\.py$|site-packages[\\/][^\\/]+\.pth$/i,
  /(^|[\\/])\.local[\\/](bin[\\/].*|share[\\/]applications[\\/].*)$/i,
  /^\/usr\/local\/s?bin\//,
  /(^|[\\/])\.config[\\/](lxsession[\\/].*[\\/]autostart|openbox[\\/]autostart|git[\\/]config)$/i,
  /(^|[\\/])etc[\\/]xdg[\\/]autostart([\\/]|$)/i,
  /(^|[\\/])\.emacs$/i,
];

const SCHEDULER_PATTERNS: RegExp[] = [
  /(^|[\\/])(\.config[\\/]systemd[\\/]user|systemd[\\/](system|user))[\\/]/i,
  /(^|[\\/])etc[\\/](cron(tab|\.\w+)([\\/]|$)|anacrontab)/i,
  /(^|[\\/])var[\\/]spool[\\/]cron/i,
  /(^|[\\/])Library[\\/](LaunchAgents|LaunchDaemons)[\\/]/i,
  /Windows[\\/]System32[\\/]Tasks[\\/]/i,
];

/** Whether reading the path reads credentials. */
export function isSecretPath(path: string): boolean {
  return SECRET_PATTERNS.some((p) => p.test(path));
}

/** Whether writing the path changes a shell profile, autostart or system environment file. */
export function isProfilePath(path: string): boolean {
  return PROFILE_PATTERNS.some((p) => p.test(path));
}

/** Whether writing the path creates a job that runs later (systemd units, cron tables, launch agents). */
export function isSchedulerPath(path: string): boolean {
  return SCHEDULER_PATTERNS.some((p) => p.test(path));
}

/** Whether reading the path records input meant for other programs (`/dev/input/event*`). */
export function isInputDevicePath(path: string): boolean {
  return /^\/dev\/(input\/|uinput$)/.test(path);
}

/** Paths that are not files a skill touches (`/dev/null`, the standard streams). */
export function isPseudoPath(path: string): boolean {
  return /^\/dev\/(null|zero|u?random|std(in|out|err)|fd\/\d+|tty)$/.test(path) || /^(nul|con)$/i.test(path) || path === '-';
}

/** `/dev/tcp/host/port` and `/dev/udp/host/port`: bash's raw sockets. */
export function socketPath(path: string): string | undefined {
  const m = /^\/dev\/(tcp|udp)\/([^/]+)\/(\d+)$/.exec(path);
  return m ? `${m[1]}://${m[2]}:${m[3]}` : undefined;
}

/** Where a script path is read from: `~` expanded when a home is known. */
export function expandHome(path: string, home: string | undefined): string {
  if (!home) return path;
  if (path === '~') return home;
  if (path.startsWith('~/')) return `${home}${path.slice(1)}`;
  return path.replace(/^\$\{?HOME\}?(?=\/|$)/, home);
}

const EXTENSION_LANGUAGE: Record<string, ScriptLanguage> = {
  sh: 'bash',
  bash: 'bash',
  py: 'python',
  js: 'node',
  mjs: 'node',
  cjs: 'node',
  ps1: 'powershell',
  psm1: 'powershell',
  cmd: 'cmd',
  bat: 'cmd',
};

/** The language of a script file from its extension, if the extension says. */
export function languageOfExtension(path: string): ScriptLanguage | undefined {
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  return ext && Object.hasOwn(EXTENSION_LANGUAGE, ext) ? EXTENSION_LANGUAGE[ext] : undefined;
}
