import type { Capability } from '../../../../shared/permissions/taxonomy';
import type { Invocation, ProgramModel } from './commands';
import { names } from './effects';
import { defaultTarget } from './modelTable';

/**
 * Programs judged by their subcommand: package managers, schedulers (cron, at, systemd,
 * launchd, Windows tasks) and settings tools. A subcommand a model does not list fails closed.
 */

const inert: ProgramModel = () => undefined;

/** The first operand that is not an option (a subcommand). */
const subcommand = (inv: Invocation) => inv.args.find((w) => !w.text.startsWith('-') || w.dynamic);

type Outcome = Capability | 'inert' | 'fail';

/**
 * A program whose subcommand (or, with `matchAll`, any argument) decides what it does: the first
 * rule whose pattern matches wins; with none, `fallback`.
 */
export function bySubcommand(rules: [RegExp, Outcome][], fallback: Outcome, matchAll = false): ProgramModel {
  return (inv) => {
    const words = matchAll ? inv.args : [subcommand(inv)].filter((w) => w !== undefined);
    if (words.some((w) => w!.dynamic)) return inv.fail(`\`${inv.name}\` is given a subcommand only known at run time`);
    const rule = rules.find(([re]) => words.some((w) => re.test(w!.text)));
    const outcome = rule ? rule[1] : fallback;
    if (outcome === 'inert') return;
    if (outcome === 'fail') return inv.fail(`\`${inv.name} ${words[0]?.text ?? ''}\` is not modelled`);
    if (outcome === 'scheduled_job.create') inv.sink.finding('persistence', `schedules a job: ${inv.ev}`);
    inv.emit(outcome, defaultTarget(outcome, inv.name, inv.ev));
  };
}

const INSTALL = 'package.install' as const;
const pm = (install: RegExp, inertSubs: RegExp) =>
  bySubcommand(
    [
      [install, INSTALL],
      [inertSubs, 'inert'],
    ],
    'fail',
  );
const INFO =
  /^(list|ls|show|info|view|search|help|version|--version|-v|-V|--help|-h|outdated|audit|why|config|freeze|check|env|doc|query|policy|depends|rdepends|madison)$/;

const PACKAGE_MANAGERS: Record<string, ProgramModel> = {
  apt: pm(/^(install|remove|purge|upgrade|full-upgrade|dist-upgrade|autoremove|reinstall|update|build-dep)$/, INFO),
  'apt-get': pm(/^(install|remove|purge|upgrade|dist-upgrade|autoremove|reinstall|update|build-dep)$/, INFO),
  'apt-cache': inert,
  'dpkg-query': inert,
  dpkg: bySubcommand(
    [
      [/^(-i|--install|-r|--remove|-P|--purge|--configure|--unpack)$/, INSTALL],
      [
        /^(-l|-L|-s|-S|-c|-I|--list|--listfiles|--status|--search|--contents|--info|--get-selections|--print-architecture|--version)$/,
        'inert',
      ],
    ],
    'fail',
    true,
  ),
  rpm: bySubcommand(
    [
      [/^(-i|-U|-e|-F|--install|--upgrade|--erase|--freshen)/, INSTALL],
      [/^(-q|--query|-V|--verify|--version)/, 'inert'],
    ],
    'fail',
    true,
  ),
  pip: pm(/^(install|uninstall)$/, INFO),
  pip3: pm(/^(install|uninstall)$/, INFO),
  pipx: pm(/^(install|uninstall|upgrade|reinstall|inject)$/, INFO),
  npm: pm(/^(i|install|add|ci|uninstall|remove|rm|un|update|up|upgrade|link)$/, INFO),
  pnpm: pm(/^(i|install|add|remove|rm|update|up)$/, INFO),
  yarn: pm(/^(add|remove|install|global|upgrade)$/, INFO),
  gem: pm(/^(install|uninstall|update)$/, INFO),
  brew: pm(/^(install|uninstall|reinstall|upgrade|update|tap|untap|link)$/, INFO),
  snap: pm(/^(install|remove|refresh|revert)$/, INFO),
  flatpak: pm(/^(install|uninstall|update)$/, INFO),
  yum: pm(/^(install|remove|update|erase|upgrade|downgrade|reinstall)$/, INFO),
  dnf: pm(/^(install|remove|update|erase|upgrade|downgrade|reinstall|autoremove)$/, INFO),
  zypper: pm(/^(in|install|rm|remove|up|update|dup|dist-upgrade|patch)$/, INFO),
  pacman: bySubcommand(
    [
      [/^-(S|R|U)/, INSTALL],
      [/^-(Q|h|V)/, 'inert'],
    ],
    'fail',
    true,
  ),
  apk: pm(/^(add|del|upgrade|update|fix)$/, INFO),
  cargo: pm(/^install$/, /^(search|--version|version|help|tree|metadata)$/),
  go: pm(/^(install|get)$/, /^(version|env|list|doc|help)$/),
  choco: pm(/^(install|uninstall|upgrade)$/, INFO),
  winget: pm(/^(install|uninstall|upgrade|import)$/, INFO),
  scoop: pm(/^(install|uninstall|update)$/, INFO),
  conda: pm(/^(install|remove|update|create)$/, INFO),
  msiexec: bySubcommand([[/^\/[ixfaIXFA]/, INSTALL]], 'fail', true),
};

const SCHEDULE = 'scheduled_job.create' as const;
const SETTINGS = 'settings.write' as const;

const SCHEDULERS: Record<string, ProgramModel> = {
  crontab: (inv) => {
    if (inv.args.some((w) => w.text === '-e')) return inv.fail('`crontab -e` edits the table in an editor');
    if (inv.args.some((w) => w.text === '-l') && !inv.args.some((w) => /^-[a-z]*r/.test(w.text))) return;
    inv.sink.finding('persistence', `installs a cron table: ${inv.ev}`);
    inv.emit(SCHEDULE, { kind: 'command', command: inv.ev });
    inv.args.filter((w) => !w.text.startsWith('-')).forEach((w) => inv.touch('read', w));
  },
  at: bySubcommand([[/^-(l|r|d)$/, 'inert']], SCHEDULE, true),
  batch: bySubcommand([], SCHEDULE),
  atq: inert,
  atrm: bySubcommand([], SCHEDULE),
  systemctl: bySubcommand(
    [
      [/^(enable|link|add-wants|add-requires|preset|preset-all|reenable|edit|set-property|revert)$/, SCHEDULE],
      [
        /^(start|stop|restart|reload|try-restart|reload-or-restart|kill|isolate|mask|unmask|disable|reset-failed|set-default|set-environment|import-environment|daemon-reload|suspend|hibernate|poweroff|reboot|halt)$/,
        SETTINGS,
      ],
      [
        /^(status|is-active|is-enabled|is-failed|list-units|list-unit-files|list-timers|list-sockets|list-dependencies|list-jobs|show|cat|help|get-default|show-environment|--version)$/,
        'inert',
      ],
    ],
    'fail',
  ),
  launchctl: bySubcommand(
    [
      [/^(load|bootstrap|submit|enable)$/, SCHEDULE],
      [/^(unload|bootout|remove|stop|start|kickstart|disable|setenv)$/, SETTINGS],
      [/^(list|print|print-disabled|version|help)$/, 'inert'],
    ],
    'fail',
  ),
  schtasks: bySubcommand(
    [
      [/^\/create$/i, SCHEDULE],
      [/^\/(delete|change|run|end)$/i, SETTINGS],
      [/^\/query$/i, 'inert'],
    ],
    'fail',
    true,
  ),
  'systemd-run': (inv) => {
    inv.sink.finding('persistence', `runs a command as a system unit: ${inv.ev}`);
    inv.emit(SCHEDULE, { kind: 'command', command: inv.ev });
    const i = inv.args.findIndex(
      (w, k) =>
        !w.text.startsWith('-') &&
        !/^(-p|--property|-E|--setenv|-u|--unit|--description|--slice|--uid|--gid|--on-\w+|--working-directory|-M|--machine|-H|--host)$/.test(
          inv.args[k - 1]?.text ?? '',
        ),
    );
    if (inv.args.some((w) => /^(-E|--setenv)/.test(w.text))) return inv.fail('`systemd-run --setenv` sets the environment of what it runs');
    if (i >= 0) inv.run(inv.args.slice(i));
  },
};

const SETTINGS_TOOLS: Record<string, ProgramModel> = {
  gsettings: bySubcommand(
    [
      [/^(set|reset|reset-recursively)$/, SETTINGS],
      [/^(get|list-\w+|range|describe|writable|help|monitor)$/, 'inert'],
    ],
    'fail',
  ),
  dconf: bySubcommand(
    [
      [/^(write|load|reset|update|compile)$/, SETTINGS],
      [/^(read|list|dump|watch|help)$/, 'inert'],
    ],
    'fail',
  ),
  defaults: bySubcommand(
    [
      [/^(write|delete|import|rename)$/, SETTINGS],
      [/^(read|read-type|domains|find|export|help)$/, 'inert'],
    ],
    'fail',
  ),
  'xdg-settings': bySubcommand(
    [
      [/^set$/, SETTINGS],
      [/^(get|check|--help|--version)$/, 'inert'],
    ],
    'fail',
  ),
  'xdg-mime': bySubcommand(
    [
      [/^(default|install|uninstall)$/, SETTINGS],
      [/^query$/, 'inert'],
    ],
    'fail',
  ),
  'update-alternatives': bySubcommand(
    [
      [/^--(set|install|config|remove|remove-all|auto|all)$/, SETTINGS],
      [/^--(display|list|query|get-selections)$/, 'inert'],
    ],
    'fail',
    true,
  ),
  sysctl: (inv) =>
    inv.args.some((w) => /^-w$|=/.test(w.text) || w.dynamic) ? inv.emit(SETTINGS, { kind: 'command', command: inv.ev }) : undefined,
  timedatectl: bySubcommand([[/^set-/, SETTINGS]], 'inert'),
  hostnamectl: bySubcommand([[/^set-/, SETTINGS]], 'inert'),
  localectl: bySubcommand([[/^set-/, SETTINGS]], 'inert'),
  hostname: (inv) =>
    inv.args.some((w) => !w.text.startsWith('-') || w.dynamic) ? inv.emit(SETTINGS, { kind: 'command', command: inv.ev }) : undefined,
  date: (inv) => {
    if (inv.args.some((w) => /^(-s|--set)/.test(w.text))) inv.emit(SETTINGS, { kind: 'command', command: inv.ev });
    inv.args.forEach((w, k) => /^(-f|--file|-r|--reference)$/.test(inv.args[k - 1]?.text ?? '') && inv.touch('read', w));
  },
  ip: bySubcommand([[/^(add|del|delete|set|change|replace|flush|up|down|append|prepend)$/, SETTINGS]], 'inert', true),
  ifconfig: (inv) =>
    inv.args.filter((w) => !w.text.startsWith('-')).length > 1 ? inv.emit(SETTINGS, { kind: 'command', command: inv.ev }) : undefined,
  route: bySubcommand([[/^(add|del|delete|change|flush)$/, SETTINGS]], 'inert', true),
  nmcli: bySubcommand([[/^(up|down|add|modify|mod|delete|del|connect|disconnect|set|radio|reload|edit|import)$/, SETTINGS]], 'inert', true),
  ...Object.fromEntries(
    names(
      'chsh chfn usermod useradd userdel groupadd groupdel gpasswd passwd chpasswd visudo ufw iptables ip6tables nft firewall-cmd setxkbmap xmodmap loadkeys update-grub grub-install mount umount swapon swapoff modprobe insmod rmmod setenforce shutdown reboot poweroff',
    ).map((n) => [n, bySubcommand([], SETTINGS)]),
  ),
  xrandr: bySubcommand([[/^--(output|mode|rotate|brightness|auto|off|primary|pos|scale|dpi|fb)$/, SETTINGS]], 'inert', true),
  xset: bySubcommand([[/^q$/, 'inert']], SETTINGS),
  amixer: bySubcommand([[/^(set|sset|cset)$/, SETTINGS]], 'inert', true),
  pactl: bySubcommand([[/^(set-|load-module|unload-module|move-)/, SETTINGS]], 'inert', true),
};

export const ADMIN_PROGRAMS: Record<string, ProgramModel> = { ...PACKAGE_MANAGERS, ...SCHEDULERS, ...SETTINGS_TOOLS };
