import type { ScriptLanguage } from './types';

/**
 * The programs the command rules know by name, grouped by what running them does. A program in
 * none of these groups and without its own rule in commands.ts is `shell.execute`.
 */

export const INTERPRETERS: Record<string, ScriptLanguage> = {
  bash: 'bash', sh: 'sh', dash: 'sh', zsh: 'bash', ksh: 'bash', python: 'python', python3: 'python', python2: 'python',
  node: 'node', nodejs: 'node', pwsh: 'powershell', powershell: 'powershell', 'powershell.exe': 'powershell', 'pwsh.exe': 'powershell',
  cmd: 'cmd', 'cmd.exe': 'cmd',
};
export const WRAPPERS = new Set(['sudo', 'doas', 'nohup', 'nice', 'ionice', 'time', 'exec', 'command', 'builtin', 'stdbuf', 'setsid', 'chronic', 'unbuffer', 'busybox', 'toybox', 'runuser', 'flock', 'caffeinate']);
export const READERS = new Set(['cat', 'tac', 'less', 'more', 'head', 'tail', 'base64', 'base32', 'xxd', 'od', 'hexdump', 'strings', 'md5sum', 'sha256sum', 'sha1sum', 'wc', 'sort', 'uniq', 'cut', 'awk', 'gawk', 'jq', 'yq', 'nl', 'file', 'stat', 'diff', 'cmp', 'openssl', 'type', 'get-content', 'gc', 'more.com']);
export const DELETERS = new Set(['rm', 'rmdir', 'unlink', 'shred', 'srm', 'trash', 'trash-put', 'del', 'erase', 'rd', 'remove-item', 'ri']);
export const WRITERS = new Set(['touch', 'mkdir', 'tee', 'truncate', 'chmod', 'chown', 'chgrp', 'ln', 'install', 'mkfifo']);
export const PACKAGE_MANAGERS: Record<string, RegExp> = {
  apt: /^(install|remove|purge|upgrade|full-upgrade|dist-upgrade)$/, 'apt-get': /^(install|remove|purge|upgrade|dist-upgrade)$/,
  dpkg: /^(-i|--install|-r|--remove|-P|--purge)$/, pip: /^(install|uninstall)$/, pip3: /^(install|uninstall)$/, pipx: /^install$/,
  npm: /^(i|install|add|uninstall|remove|rm)$/, pnpm: /^(add|install|i|remove)$/, yarn: /^(add|global|remove)$/, gem: /^(install|uninstall)$/,
  brew: /^(install|uninstall|reinstall|upgrade)$/, snap: /^(install|remove|refresh)$/, flatpak: /^(install|uninstall|update)$/,
  yum: /^(install|remove|update|erase)$/, dnf: /^(install|remove|update|erase)$/, zypper: /^(in|install|rm|remove|up|update)$/,
  pacman: /^-(S|R|U)/, apk: /^(add|del)$/, cargo: /^install$/, go: /^install$/, choco: /^(install|uninstall|upgrade)$/,
  winget: /^(install|uninstall|upgrade)$/, scoop: /^(install|uninstall)$/, msiexec: /^\/[ixIX]/, conda: /^(install|remove)$/,
};
export const CLIPBOARD_READ = new Set(['pbpaste', 'wl-paste', 'get-clipboard', 'gcb']);
export const CLIPBOARD_WRITE = new Set(['pbcopy', 'wl-copy', 'clip', 'clip.exe', 'set-clipboard', 'scb']);
export const SCREENSHOT = new Set(['import', 'scrot', 'gnome-screenshot', 'xwd', 'grim', 'maim', 'spectacle', 'screencapture', 'flameshot']);
export const KILLERS = new Set(['kill', 'pkill', 'killall', 'taskkill', 'xkill', 'stop-process', 'spps']);
export const SECRET_TOOLS: Record<string, RegExp | true> = {
  'secret-tool': /^(lookup|search)$/, security: /^find-(generic|internet)-password$/, pass: true, gopass: true, keyctl: /^(read|print|pipe)$/,
  cmdkey: /^\/list/i, vaultcmd: true, 'kwallet-query': true, gpg: /^(-d|--decrypt)$/, printenv: true, 'get-storedcredential': true,
};
/**
 * Programs and shell words with no effect this taxonomy names (output, shell state, reading the
 * clock or the process table). Any other program without a rule below is `shell.execute`.
 */
export const INERT = new Set([
  // POSIX shells and coreutils
  'echo', 'printf', 'true', 'false', 'test', '[', ':', 'pwd', 'cd', 'pushd', 'popd', 'dirs', 'export', 'unset', 'local', 'declare', 'typeset', 'readonly',
  'set', 'shift', 'return', 'exit', 'read', 'sleep', 'date', 'basename', 'dirname', 'seq', 'ls', 'which', 'whereis', 'id', 'whoami', 'groups', 'uname',
  'hostname', 'tr', 'wait', 'trap', 'let', 'expr', 'realpath', 'readlink', 'getopts', 'hash', 'ulimit', 'umask', 'alias', 'unalias', 'shopt', 'tput',
  'clear', 'yes', 'nproc', 'free', 'df', 'du', 'ps', 'pgrep', 'pidof', 'tty', 'stty', 'arch', 'locale', 'logname', 'users', 'uptime', 'cal', 'bc', 'dc',
  'numfmt', 'factor', 'fold', 'fmt', 'column', 'rev', 'paste', 'join', 'comm', 'tsort', 'shuf', 'expand', 'unexpand',
  // cmd.exe built-ins
  'setlocal', 'endlocal', 'rem', 'chdir', 'goto', 'title', 'cls', 'ver', 'pause', 'dir', 'vol', 'path', 'prompt', 'color', 'where',
  'choice', 'chcp', 'tasklist', 'systeminfo', 'whoami.exe', 'hostname.exe', 'findstr',
  // PowerShell keywords, when a line reaches the program rules
  'if', 'else', 'elseif', 'while', 'foreach', 'do', 'until', 'switch', 'function', 'param', 'break', 'continue', 'try', 'catch', 'finally', 'throw', 'begin',
  'process', 'end', 'filter',
]);
export const API_CLIS = new Set(['aws', 'gcloud', 'az', 'gh', 'kubectl', 'heroku', 'doctl', 'gsutil', 's3cmd', 'rclone']);
