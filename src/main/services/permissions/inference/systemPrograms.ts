import { ADMIN_PROGRAMS, bySubcommand } from './adminPrograms';
import type { Invocation, ProgramModel } from './commands';
import { names, urlOf } from './effects';

/**
 * Credential stores, clipboard, screenshots, synthetic and captured input, location, browsers;
 * the shell built-ins and utilities with no effect beyond their output; and (from
 * adminPrograms.ts) package managers, schedulers and settings tools.
 */

const inert: ProgramModel = () => undefined;
const SETTINGS = 'settings.write' as const;

const SECRET_TOOLS: Record<string, ProgramModel> = {
  'secret-tool': bySubcommand(
    [
      [/^(lookup|search)$/, 'secrets.read'],
      [/^(store|clear)$/, SETTINGS],
    ],
    'fail',
  ),
  security: bySubcommand(
    [
      [/^(find-generic-password|find-internet-password|find-certificate|dump-keychain|export)$/, 'secrets.read'],
      [/^(list-keychains|default-keychain|show-keychain-info)$/, 'inert'],
    ],
    'fail',
  ),
  pass: bySubcommand([[/^(insert|generate|rm|mv|cp|edit|init|git)$/, SETTINGS]], 'secrets.read'),
  gopass: bySubcommand([[/^(insert|generate|rm|mv|cp|edit|init|git)$/, SETTINGS]], 'secrets.read'),
  keyctl: bySubcommand(
    [
      [/^(read|print|pipe)$/, 'secrets.read'],
      [/^(show|list|describe)$/, 'inert'],
    ],
    SETTINGS,
  ),
  vaultcmd: bySubcommand([], 'secrets.read'),
  'kwallet-query': bySubcommand([], 'secrets.read'),
  printenv: bySubcommand([], 'secrets.read'),
  cmdkey: bySubcommand([[/^\/list/i, 'secrets.read']], SETTINGS, true),
  gpg: (inv) => {
    if (inv.args.some((w) => /^(-d|--decrypt|--export-secret-keys|--export-secret-subkeys|--export-ssh-key)$/.test(w.text) || w.dynamic))
      inv.emit('secrets.read', { kind: 'command', command: inv.ev });
    if (
      inv.args.some((w) =>
        /^--(exec-path|photo-viewer|keyserver-options|list-options|verify-options|load-extension|import-options)$/.test(w.text),
      )
    )
      return inv.fail('`gpg` is given an option that can run programs');
    inv.args.forEach((w, k) => {
      if (/^(-o|--output)$/.test(inv.args[k - 1]?.text ?? '')) inv.touch('write', w);
      else if (!w.text.startsWith('-')) inv.touch('read', w);
    });
  },
  getent: (inv) =>
    inv.args.some((w) => /^(shadow|gshadow)$/.test(w.text)) ? inv.emit('secrets.read', { kind: 'command', command: inv.ev }) : undefined,
};

const DEVICES: Record<string, ProgramModel> = {
  xclip: (inv) =>
    inv.emit(inv.args.some((w) => /^-o(ut)?$|^--?output$/.test(w.text)) ? 'clipboard.read' : 'clipboard.write', { kind: 'none' }),
  xsel: (inv) => {
    const a = inv.args.map((w) => w.text).join(' ');
    if (/(^| )-[a-zA-Z]*[oa]|--output/.test(a) || !/(^| )-[a-zA-Z]*[iacd]|--(input|append|clear|delete)/.test(a))
      inv.emit('clipboard.read', { kind: 'none' });
    if (!/(^| )-[a-zA-Z]*o|--output/.test(a)) inv.emit('clipboard.write', { kind: 'none' });
  },
  ...Object.fromEntries(['pbpaste', 'wl-paste', 'termux-clipboard-get'].map((n) => [n, bySubcommand([], 'clipboard.read')])),
  ...Object.fromEntries(['pbcopy', 'wl-copy', 'clip', 'termux-clipboard-set'].map((n) => [n, bySubcommand([], 'clipboard.write')])),
  ...Object.fromEntries(
    names('import scrot gnome-screenshot xwd grim maim spectacle screencapture flameshot shutter ksnip').map((n) => [
      n,
      (inv: Invocation) => {
        inv.emit('screen.capture', { kind: 'none' });
        const out = inv.args.filter((w) => !w.text.startsWith('-')).at(-1);
        if (out) inv.touch('write', out);
      },
    ]),
  ),
  xdotool: bySubcommand(
    [
      [/^(type|key|keydown|keyup)$/, 'input.keyboard'],
      [
        /^(mousemove|mousemove_relative|click|mousedown|mouseup|windowactivate|windowfocus|windowraise|windowmove|windowsize|windowclose|windowkill|set_desktop)$/,
        'input.mouse',
      ],
      [
        /^(getmouselocation|search|getactivewindow|getwindowfocus|getwindowname|getwindowpid|getwindowgeometry|get_desktop|get_num_desktops|version|help)$/,
        'inert',
      ],
    ],
    'fail',
  ),
  ydotool: bySubcommand(
    [
      [/^(type|key)$/, 'input.keyboard'],
      [/^(mousemove|click|mousedown|mouseup)$/, 'input.mouse'],
    ],
    'fail',
  ),
  wtype: bySubcommand([], 'input.keyboard'),
  xinput: bySubcommand(
    [
      [/^(test|test-xi2|--test-xi2|--test|query-state|--query-state)$/, 'input.capture'],
      [/^(list|--list|list-props|--list-props|--version|-v)$/, 'inert'],
      [/^(set-prop|--set-prop|disable|enable|float|reattach|map-to-output|set-button-map)$/, SETTINGS],
    ],
    'inert',
  ),
  libinput: bySubcommand(
    [
      [/^(debug-events|record)$/, 'input.capture'],
      [/^(list-devices|--version)$/, 'inert'],
    ],
    'fail',
  ),
  ...Object.fromEntries(names('xev showkey logkeys evtest arecord parecord pw-record').map((n) => [n, bySubcommand([], 'input.capture')])),
  ...Object.fromEntries(
    names('whereami where-am-i gpspipe gpsmon cgps termux-location corelocationcli').map((n) => [n, bySubcommand([], 'location.read')]),
  ),
};

/** Browsers and openers: a URL is navigation, a file is opened with the app registered for it. */
function opener(inv: Invocation): void {
  for (const w of inv.args) {
    if (w.dynamic) return inv.fail(`\`${inv.name}\` opens something only known at run time`);
    if (w.text.startsWith('-')) {
      if (/^--?(new-window|new-tab|private-window|incognito|kiosk|new-instance)$/.test(w.text)) continue;
      return inv.fail(`\`${inv.name}\` is given an option this analysis does not model (${w.text})`);
    }
    const url = urlOf(w);
    if (url && !/^file:/i.test(w.text)) inv.emit('web.navigate', url);
    else inv.emit('app.launch', { kind: 'command', command: inv.ev });
  }
}

/** Built-ins and utilities with no effect beyond their output and the shell's own state. */
const INERT_NAMES = [
  ...names('echo printf true false : pwd sleep basename dirname seq id whoami groups uname tty arch'),
  ...names('nproc logname users uptime cal yes tput clear factor numfmt expr test [ tr getconf locale'),
  ...names('hostid ls dir vdir du df free ps pgrep pidof which whereis realpath readlink lsblk lscpu'),
  ...names('lsusb lspci lsmod w who last lastlog wait jobs cd pushd popd dirs exit return shift set'),
  ...names('unset shopt alias unalias umask ulimit getopts times caller help read local declare typeset'),
  ...names('export readonly disown suspend logout history notify-send zenity kdialog xmessage espeak spd-say'),
  ...names('xprop xwininfo xdpyinfo netstat ss lsof dmesg journalctl sensors nvidia-smi iwconfig arp stty'),
  ...names('resize reset fc-list xdg-user-dir sync tasklist systeminfo ipconfig ver vol'),
];

const BASH_BUILTINS: Record<string, ProgramModel> = {
  eval: (inv) => inv.runCode({ text: inv.args.map((w) => w.text).join(' '), dynamic: inv.args.some((w) => w.dynamic) }, 'bash'),
  source: sourceModel,
  '.': sourceModel,
  trap: (inv) => {
    const a = inv.args.filter((w, k) => !(k === 0 && w.text === '--'));
    if (a.length < 2 || /^-[lp]$/.test(a[0]!.text) || a[0]!.text === '-' || a[0]!.text === '') return;
    inv.runCode(a[0]!, 'bash');
  },
  hash: (inv) =>
    inv.args.some((w) => /^-[a-z]*p/.test(w.text) || w.dynamic) ? inv.fail('`hash -p` maps a command name to another program') : undefined,
  enable: (inv) =>
    inv.args.some((w) => /^-[a-z]*f/.test(w.text) || w.dynamic) ? inv.fail('`enable -f` loads a shared library') : undefined,
  compgen: (inv) =>
    inv.args.some((w) => /^-[a-zA-Z]*[CF]/.test(w.text) || w.dynamic) ? inv.fail(`\`${inv.name} -C\` runs a command`) : undefined,
  complete: (inv) =>
    inv.args.some((w) => /^-[a-zA-Z]*C/.test(w.text) || w.dynamic) ? inv.fail('`complete -C` runs a command') : undefined,
  mapfile: (inv) => (inv.args.some((w) => /^-[a-zA-Z]*C/.test(w.text) || w.dynamic) ? inv.fail('`mapfile -C` runs a callback') : undefined),
  readarray: (inv) =>
    inv.args.some((w) => /^-[a-zA-Z]*C/.test(w.text) || w.dynamic) ? inv.fail('`readarray -C` runs a callback') : undefined,
  bind: (inv) => (inv.args.some((w) => /^-[a-zA-Z]*x/.test(w.text) || w.dynamic) ? inv.fail('`bind -x` runs a command') : undefined),
  fc: (inv) => inv.fail('`fc` re-runs commands from history'),
  kill: (inv) =>
    inv.args.some((w) => w.text === '-l' || w.text === '-L') ? undefined : inv.emit('process.kill', { kind: 'command', command: inv.ev }),
  mktemp: (inv) => {
    const dir = inv.args.find((w, k) => /^(-p|--tmpdir)$/.test(inv.args[k - 1]?.text ?? ''));
    inv.touch('write', { text: `${dir?.text ?? '/tmp'}/\u0000`, dynamic: true });
  },
};

function sourceModel(inv: Invocation): void {
  const [file, ...args] = inv.args;
  if (!file || file.dynamic) return inv.fail('sources a script whose path is only known at run time');
  // Without arguments, the sourced script sees the caller's positional parameters.
  inv.sink.follow(file.text, 'bash', inv.line, args.length ? args : inv.sink.args);
}

export const SYSTEM_PROGRAMS: Record<string, ProgramModel> = {
  ...Object.fromEntries(INERT_NAMES.map((n) => [n, inert])),
  ...ADMIN_PROGRAMS,
  ...SECRET_TOOLS,
  ...DEVICES,
  ...BASH_BUILTINS,
  ...Object.fromEntries(['killall', 'pkill', 'xkill', 'taskkill'].map((n) => [n, bySubcommand([], 'process.kill')])),
  ...Object.fromEntries(
    names(
      'xdg-open open sensible-browser x-www-browser firefox chromium chromium-browser google-chrome brave-browser microsoft-edge gnome-open kde-open',
    ).map((n) => [n, opener]),
  ),
};
