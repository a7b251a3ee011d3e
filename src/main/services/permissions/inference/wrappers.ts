import type { Invocation, ProgramModel } from './commands';
import { DYNAMIC_MANY, joinWords, lit, names } from './effects';
import { parseOptions, optionValues, hasOption, type OptionSpec } from './options';
import type { Word } from './types';

/**
 * Programs that run another program: the wrapped command is analysed in turn. Each wrapper's
 * options are parsed exactly (`sudo -u bob curl ...` runs curl, not `bob`); an option a wrapper
 * does not know fails closed, since it could change what runs.
 */

/** Environment variables that make a program load code: setting one is running unanalysed code. */
const CODE_LOADING_ENV =
  /^(BASH_ENV|ENV|PATH|PATHEXT|COMSPEC|SHELLOPTS|BASHOPTS|PS4|PROMPT_COMMAND|LD_\w+|DYLD_\w+|PYTHON(PATH|STARTUP|HOME|USERBASE|BREAKPOINT|INSPECT|EXECUTABLE)|NODE_(OPTIONS|PATH|REPL_EXTERNAL_MODULE)|PERL5(LIB|OPT|DB)|PERLLIB|RUBY(OPT|LIB)|GIT_\w+|PAGER|EDITOR|VISUAL|BROWSER|LESSOPEN|LESSCLOSE|MANPAGER|SYSTEMD_PAGER|PSModulePath|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|LUA_INIT\w*|TERMINFO|GCONV_PATH|MALLOC_\w+|OPENSSL_(CONF|ENGINES|MODULES))$/i;

/** Whether assigning the variable (for the script, or as a `VAR=x cmd` prefix) loads code. */
export function isCodeLoadingEnv(name: string): boolean {
  return CODE_LOADING_ENV.test(name);
}

/** A wrapper: its options, how many operands precede the command, and what else running it means. */
function wrapper(
  spec: OptionSpec,
  lead = 0,
  extra?: (inv: Invocation, opts: ReturnType<typeof parseOptions>) => boolean | void,
): ProgramModel {
  return (inv) => {
    const p = parseOptions(inv.args, { ...spec, stopAtOperand: true });
    if (p.unknown.length)
      return inv.fail(`\`${inv.name}\` is given options this analysis does not model (${p.unknown.map((w) => w.text).join(' ')})`);
    if (extra?.(inv, p) === true) return;
    const rest = inv.args.slice(p.rest);
    if (rest.some((w) => w.many) && rest.findIndex((w) => w.many) < lead + 1)
      return inv.fail(`\`${inv.name}\` runs a command only known at run time`);
    if (rest.length <= lead) return;
    inv.run(rest.slice(lead), inv.ctx.stdin);
  };
}

const escalate = (inv: Invocation) => inv.sink.finding('privilege_escalation', `runs as another user: ${inv.ev}`);

export const WRAPPERS: Record<string, ProgramModel> = {
  sudo: wrapper(
    {
      value: names('u g C D h p r t T U user group close-from chdir host prompt role type command-timeout other-user'),
      flag: names(
        'A b E H n P S k K l v V N preserve-env set-home non-interactive askpass background stdin reset-timestamp remove-timestamp list validate version login shell i s e edit',
      ),
    },
    0,
    (inv, p) => {
      escalate(inv);
      if (hasOption(p, 'e', 'edit')) {
        inv.args.slice(p.rest).forEach((w) => inv.touch('write', w));
        return true;
      }
      if (hasOption(p, 'i', 's', 'login', 'shell')) {
        // `sudo -s CMD ARGS` runs `$SHELL -c 'CMD ARGS'`; without a command, a shell reading standard input.
        const rest = inv.args.slice(p.rest);
        if (rest.length === 0) return (inv.fail('`sudo -s`/`-i` starts a shell that reads commands from standard input'), true);
        inv.runCode(joinWords(rest), 'bash');
        return true;
      }
      return undefined;
    },
  ),
  doas: wrapper({ value: ['u', 'C'], flag: ['n', 's', 'L'] }, 0, (inv, p) => {
    escalate(inv);
    if (hasOption(p, 's', 'C')) return (inv.fail('`doas -s`/`-C` runs a shell or checks a configuration'), true);
    return undefined;
  }),
  pkexec: wrapper({ value: ['user'], flag: ['disable-internal-agent', 'keep-cwd'] }, 0, (inv) => escalate(inv)),
  nohup: wrapper({}),
  nice: (inv) => WRAPPER_NICE(stripNumericOption(inv)),
  ionice: wrapper({ value: names('c n p P u class classdata pid pgid uid'), flag: ['t', 'ignore'] }),
  time: wrapper({ value: ['f', 'o', 'format', 'output'], flag: names('p v a q portability verbose append quiet') }, 0, (inv, p) => {
    optionValues(p, 'o', 'output').forEach((w) => inv.touch('write', w));
  }),
  stdbuf: wrapper({ value: names('i o e input output error') }),
  setsid: wrapper({ flag: names('c f w ctty fork wait') }),
  chronic: wrapper({ flag: ['e', 'v'] }),
  unbuffer: wrapper({ flag: ['p'] }),
  caffeinate: wrapper({ value: ['t', 'w'], flag: ['d', 'i', 'm', 's', 'u'] }),
  timeout: wrapper({ value: ['s', 'k', 'signal', 'kill-after'], flag: ['v', 'preserve-status', 'foreground', 'verbose'] }, 1),
  taskset: wrapper({ flag: ['a', 'c', 'all-tasks', 'cpu-list'] }, 1, (inv, p) => (hasOption(p, 'p', 'pid') ? true : undefined)),
  chroot: wrapper({ value: ['userspec', 'groups'], flag: ['skip-chdir'] }, 1, (inv, p) => {
    escalate(inv);
    if (inv.args.length - p.rest <= 1) return (inv.fail('`chroot` without a command starts an interactive shell'), true);
    return undefined;
  }),
  flock: wrapper(
    {
      value: ['w', 'E', 'timeout', 'conflict-exit-code'],
      flag: names('s x e u n o F shared exclusive unlock nonblock close no-fork verbose'),
    },
    1,
    (inv, p) => {
      const rest = inv.args.slice(p.rest);
      if (rest[0]) inv.touch('write', rest[0]);
      if (rest[1]?.text === '-c' || rest[1]?.text === '--command') {
        inv.runCode(rest[2] ?? lit(''), 'bash');
        return true;
      }
      return undefined;
    },
  ),
  'dbus-launch': wrapper({
    value: ['config-file', 'autolaunch'],
    flag: names('exit-with-session exit-with-x11 sh-syntax csh-syntax binary-syntax close-stderr'),
  }),
  'dbus-run-session': wrapper({ value: ['config-file', 'dbus-daemon'] }),
  command: (inv) => {
    const p = parseOptions(inv.args, { flag: ['p', 'v', 'V'], stopAtOperand: true });
    if (hasOption(p, 'v', 'V')) return; // only says what a name is
    if (p.unknown.length) return inv.fail('`command` is given options this analysis does not model');
    inv.run(inv.args.slice(p.rest), inv.ctx.stdin);
  },
  builtin: (inv) => inv.run(inv.args, inv.ctx.stdin),
  exec: wrapper({ value: ['a'], flag: ['c', 'l'] }),
  busybox: (inv) => inv.run(inv.args, inv.ctx.stdin),
  toybox: (inv) => inv.run(inv.args, inv.ctx.stdin),
  runuser: suRunner(true),
  su: suRunner(false),
  watch: (inv) => {
    const p = parseOptions(inv.args, {
      value: ['n', 'interval', 'q', 'equexit'],
      flag: names('b beep e errexit g chgexit t no-title x exec c color C no-color p precise w no-wrap d differences'),
      stopAtOperand: true,
    });
    if (p.unknown.length) return inv.fail('`watch` is given options this analysis does not model');
    const rest = inv.args.slice(p.rest);
    if (hasOption(p, 'x', 'exec')) return inv.run(rest);
    // Without --exec, watch joins its arguments and runs them with `sh -c`.
    if (rest.length) inv.runCode(joinWords(rest), 'sh');
  },
  xargs: (inv) => {
    const p = parseOptions(inv.args, {
      value: names('d E I L n P s a delimiter eof replace max-lines max-args max-procs max-chars arg-file process-slot-var'),
      flag: names('0 o p r t x e i l null open-tty interactive no-run-if-empty verbose exit show-limits'),
      stopAtOperand: true,
    });
    if (p.unknown.length || p.dynamicOptions.length) return inv.fail('`xargs` is given options this analysis does not read');
    optionValues(p, 'a', 'arg-file').forEach((w) => inv.touch('read', w));
    const replace = optionValues(p, 'I', 'replace')[0]?.text ?? (hasOption(p, 'i') ? '{}' : undefined);
    const rest = inv.args.slice(p.rest);
    const cmd = rest.length ? rest : [lit('echo')];
    // Each input item becomes an argument: text only known at run time.
    if (replace) inv.run(cmd.map((w) => (w.text.includes(replace) ? { text: w.text.replaceAll(replace, '\u0000'), dynamic: true } : w)));
    else inv.run([...cmd, DYNAMIC_MANY]);
  },
  env: (inv) => {
    const p = parseOptions(inv.args, {
      value: names('u C S unset chdir split-string block-signal default-signal ignore-signal'),
      flag: names('i 0 v ignore-environment null debug list-signal-handling'),
      stopAtOperand: true,
    });
    if (p.unknown.length || p.dynamicOptions.length) return inv.fail('`env` is given options this analysis does not read');
    const rest = inv.args.slice(p.rest);
    let i = 0;
    for (; i < rest.length && /^[^=]+=/.test(rest[i]!.text); i++) {
      const name = rest[i]!.text.split('=')[0]!;
      if (isCodeLoadingEnv(name)) return inv.fail(`sets \`${name}\`, which makes the program load code this analysis does not see`);
    }
    const split = optionValues(p, 'S', 'split-string')[0];
    if (split) return inv.runCode({ text: [split.text, ...rest.slice(i).map((w) => w.text)].join(' '), dynamic: split.dynamic }, 'bash');
    if (i >= rest.length) return inv.emit('secrets.read', { kind: 'none' }); // prints the environment
    inv.run(rest.slice(i), inv.ctx.stdin);
  },
};

const WRAPPER_NICE = wrapper({ value: ['n', 'adjustment'] });

/** `nice -10 cmd`: the old numeric form is an option with its value glued on. */
function stripNumericOption(inv: Invocation): Invocation {
  return { ...inv, args: inv.args.filter((w, i) => !(i === 0 && /^-\d+$/.test(w.text))) };
}

/** `su [-] [user] -c CMD`, `runuser -u user CMD`, `runuser -l user -c CMD`: a command string runs in a shell. */
function suRunner(isRunuser: boolean): ProgramModel {
  return (inv) => {
    escalate(inv);
    const p = parseOptions(inv.args, {
      value: [
        'c',
        'g',
        'G',
        's',
        'u',
        'w',
        'command',
        'group',
        'supp-group',
        'shell',
        'user',
        'whitelist-environment',
        'session-command',
        ...(isRunuser ? [] : ['l']),
      ],
      flag: ['m', 'p', 'f', 'P', 'preserve-environment', 'pty', 'login', ...(isRunuser ? ['l'] : [])],
      stopAtOperand: !isRunuser || !inv.args.some((w) => w.text === '-u' || w.text === '--user'),
    });
    if (p.unknown.filter((w) => w.text !== '-').length) return inv.fail(`\`${inv.name}\` is given options this analysis does not model`);
    const code = optionValues(p, 'c', 'command', 'session-command')[0];
    if (code) return inv.runCode(code, 'bash');
    if (isRunuser && hasOption(p, 'u', 'user')) return inv.run(inv.args.slice(p.rest), inv.ctx.stdin);
    inv.fail(`\`${inv.name}\` without a command starts a shell that reads commands from standard input`);
  };
}

/** Words that make up an assignment prefix (`A=1 B=2 cmd`), for callers splitting argv. */
export function isAssignmentWord(w: Word): boolean {
  return !w.dynamic && /^[A-Za-z_][A-Za-z0-9_]*=/.test(w.text);
}
