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
  // Tokens of developer tools and cloud clients.
  /(^|[\\/])\.config[\\/](gh|hub|op|sops|rclone|git[\\/]credentials)([\\/]|$)/i,
  /(^|[\\/])\.cargo[\\/]credentials(\.toml)?$/i,
  /(^|[\\/])\.terraform\.d[\\/]credentials\.tfrc\.json$/i,
  /(^|[\\/])\.(vault-token|s3cfg|boto|dockercfg)$/i,
  /(^|[\\/])\.oci[\\/]config$/i,
  /(^|[\\/])\.m2[\\/]settings(-security)?\.xml$/i,
  /(^|[\\/])\.gradle[\\/]gradle\.properties$/i,
  /(^|[\\/])\.config[\\/]filezilla[\\/]/i,
  /(^|[\\/])\.purple[\\/]accounts\.xml$/i,
  // What people typed: shell and REPL histories hold passwords pasted on command lines.
  /(^|[\\/])\.(bash|zsh|sh|fish|python|node_repl|psql|mysql|sqlite|rediscli|lesshst)_?history$/i,
  /(^|[\\/])\.local[\\/]share[\\/]fish[\\/]fish_history$/i,
  /PSReadLine[\\/]ConsoleHost_history\.txt$/i,
  // Chat and wallet data: session tokens and keys.
  /(^|[\\/])(discord|Slack|Telegram Desktop)[\\/].*(Local Storage|Cookies|tdata)/i,
  /(^|[\\/])(wallet\.dat|\.bitcoin|\.electrum|\.ethereum[\\/]keystore)([\\/]|$)/i,
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
  // Autostart and scheduled jobs: what runs later without being asked.
  /(^|[\\/])\.config[\\/](systemd[\\/]user|lxsession[\\/].*[\\/]autostart|openbox[\\/]autostart)/i,
  /(^|[\\/])etc[\\/](systemd|cron\.[a-z]+|crontab|rc\.local|init\.d|xdg[\\/]autostart)([\\/]|$)/i,
  /(^|[\\/])var[\\/]spool[\\/]cron([\\/]|$)/i,
  /(^|[\\/])Library[\\/](LaunchAgents|LaunchDaemons)([\\/]|$)/i,
  /(^|[\\/])Windows[\\/]System32[\\/]Tasks([\\/]|$)/i,
  // Files programs execute or obey when they start: editors, git, ssh, Python.
  /(^|[\\/])\.(vimrc|exrc|emacs|gitconfig|pythonrc(\.py)?)$/i,
  /(^|[\\/])\.config[\\/]git[\\/]config$/i,
  /(^|[\\/])\.git[\\/](hooks[\\/]|config$)/i,
  /(^|[\\/])\.ssh[\\/](authorized_keys2?|config|rc)$/i,
  /(^|[\\/])sitecustomize\.py$/i,
];

/** Whether reading the path reads credentials. */
export function isSecretPath(path: string): boolean {
  return SECRET_PATTERNS.some((p) => p.test(path));
}

/** Whether writing the path changes a shell profile, autostart or system environment file. */
export function isProfilePath(path: string): boolean {
  return PROFILE_PATTERNS.some((p) => p.test(path));
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
