import type { Invocation, ProgramModel } from './commands';
import { lit, names, unknown, urlOf } from './effects';
import type { Word } from './types';

/**
 * git. Configuration can make git run programs (`alias.x=!cmd`, `core.pager`, `core.sshCommand`,
 * `core.fsmonitor`, filters, credential helpers...): such values given with `-c` or written with
 * `git config` are analysed as shell code, and a key that is neither known to be inert nor known
 * to run code fails closed. Pushing, and changing where a repository pushes, is `vcs.push`.
 */

/** Keys whose value git runs as a shell command (aliases starting with `!` too). */
const EXEC_KEY =
  /^(core\.(pager|editor|sshcommand|fsmonitor|askpass|gitproxy)|sequence\.editor|diff\.external|pager\.[\w-]+|(diff|filter|merge|credential|gpg|mergetool|difftool|man|web|browser|uploadpack|receive|sendemail|instaweb|interactive)\.([\w.-]+\.)?(command|cmd|textconv|clean|smudge|process|driver|helper|program|path|packobjectshook|smtpserver|browser|difffilter|tool|sshcommand)|remote\.[\w.-]+\.(uploadpack|receivepack|vcs|proxy))$/i;
/** Keys with no effect beyond git's own behaviour and output. */
const INERT_KEY =
  /^(user\.(name|email|signingkey)|author\.\w+|committer\.\w+|color\.[\w.-]+|core\.(autocrlf|quotepath|filemode|ignorecase|eol|safecrlf|whitespace|abbrev|compression|symlinks|longpaths|precomposeunicode)|advice\.\w+|init\.defaultbranch|commit\.(gpgsign|verbose|cleanup)|tag\.gpgsign|pull\.(rebase|ff)|push\.(default|autosetupremote|followtags)|fetch\.prune|log\.[\w.-]+|format\.[\w.-]+|merge\.(ff|conflictstyle|log)|rebase\.(autosquash|autostash)|diff\.(renames|algorithm|colormoved|mnemonicprefix|noprefix)|status\.[\w.-]+|help\.autocorrect|column\.\w+|i18n\.\w+|gc\.auto\w*|http\.(sslverify|postbuffer|version|lowspeedlimit|lowspeedtime)|protocol\.version|branch\.[\w./-]+\.(remote|merge|rebase)|safe\.directory|feature\.\w+|index\.\w+|pack\.\w+|transfer\.\w+)$/i;

/** Judges one `key=value` git setting; returns false when it fails closed. */
function setting(inv: Invocation, key: string, value: Word, persistent: boolean): boolean {
  const k = key.toLowerCase();
  if (/^alias\./.test(k)) {
    if (value.dynamic) return (inv.fail(`git alias \`${key}\` is only known at run time`), false);
    if (value.text.startsWith('!')) inv.runCode(lit(value.text.slice(1)), 'sh');
    return true;
  }
  if (EXEC_KEY.test(k)) {
    if (persistent) inv.sink.finding('persistence', `makes git run a command later: ${inv.ev}`);
    inv.runCode(value, 'sh');
    return true;
  }
  if (/^(remote\.[\w.-]+\.(url|pushurl)|url\..*\.(insteadof|pushinsteadof))$/i.test(k)) {
    inv.emit('vcs.push', urlOf(value) ?? unknown(`git ${key}`));
    return true;
  }
  if (INERT_KEY.test(k)) return true;
  inv.fail(`git setting \`${key}\` is not one this analysis knows to be inert`);
  return false;
}

const GLOBAL_VALUE = /^(-C|-c|--git-dir|--work-tree|--namespace|--config-env|--super-prefix|--list-cmds|--attr-source)$/;
const READ_ONLY = new Set(
  names(
    'status log diff show rev-parse ls-files describe blame grep shortlog reflog cat-file show-ref symbolic-ref for-each-ref version help whatchanged count-objects fsck rev-list name-rev merge-base ls-tree diff-tree diff-index diff-files var check-ignore check-attr verify-commit verify-tag range-diff',
  ),
);
const WORKTREE_WRITE = new Set(
  names(
    'add commit checkout switch merge reset restore stash init am apply cherry-pick revert gc tag branch notes mv prune repack maintenance sparse-checkout update-index commit-tree write-tree read-tree update-ref pack-refs worktree',
  ),
);

const git: ProgramModel = (inv) => {
  const a = inv.args;
  let i = 0;
  let dir: Word = lit('.');
  for (; i < a.length; i++) {
    const w = a[i]!;
    if (w.dynamic) return inv.fail('`git` is given global options or a subcommand only known at run time');
    if (GLOBAL_VALUE.test(w.text)) {
      const v = a[++i];
      if (!v) return;
      if (w.text === '-C') dir = v;
      if (
        w.text === '-c' &&
        !setting(inv, v.text.split('=')[0]!, { text: v.text.split('=').slice(1).join('=') || 'true', dynamic: v.dynamic }, false)
      )
        return;
      if (w.text === '--config-env') return inv.fail('`git --config-env` takes a setting from the environment');
      continue;
    }
    if (/^--exec-path=/.test(w.text)) return inv.fail('`git --exec-path` runs git commands from another folder');
    if (
      /^--(git-dir|work-tree|namespace)=/.test(w.text) ||
      /^-(p|P)$|^--(no-pager|paginate|bare|literal-pathspecs|no-replace-objects|no-optional-locks|no-lazy-fetch|exec-path|html-path|man-path|info-path|version|help)$/.test(
        w.text,
      )
    )
      continue;
    if (w.text.startsWith('-')) return inv.fail(`\`git\` is given a global option this analysis does not model (${w.text})`);
    break;
  }
  const sub = a[i]?.text;
  const rest = a.slice(i + 1);
  if (!sub) return;
  const aliases = a
    .slice(0, i)
    .flatMap((w, k) => (a[k - 1]?.text === '-c' && /^alias\./i.test(w.text) ? [w.text.split('=')[0]!.slice(6).toLowerCase()] : []));
  if (aliases.includes(sub.toLowerCase())) return; // its `!command` was analysed with -c
  const urls = rest.flatMap((w) => (urlOf(w) ? [urlOf(w)!] : []));
  const transferProgram = /^ext::|^--(upload-pack|template)(=|$)/;
  if (rest.some((w) => transferProgram.test(w.text) || ((sub === 'clone' || sub === 'ls-remote') && w.text === '-u')))
    return inv.fail('`git` is told to run a program for the transfer or to use hook templates');
  switch (sub) {
    case 'push':
    case 'send-pack':
      return inv.emit('vcs.push', urls[0] ?? unknown(`git remote ${rest.find((w) => !w.text.startsWith('-'))?.text ?? 'origin'}`));
    case 'send-email':
    case 'request-pull':
      return inv.emit('web.post', unknown('git send-email'));
    case 'remote': {
      const op = rest.find((w) => !w.text.startsWith('-'))?.text;
      if (!op || /^(show|get-url|-v)$/.test(op)) return;
      if (/^(add|set-url|rename|remove|rm|set-head|set-branches)$/.test(op))
        return inv.emit('vcs.push', urls[0] ?? unknown(`git remote ${op}`));
      if (/^(update|prune)$/.test(op)) return inv.emit('web.fetch', unknown('git remote'));
      return inv.fail(`\`git remote ${op}\` is not modelled`);
    }
    case 'config': {
      if (rest.some((w) => /^(--get|--get-all|--get-regexp|-l|--list|--show-origin|--get-urlmatch|get|list)$/.test(w.text))) return;
      const file = rest.findIndex((w) => /^(-f|--file|--blob)$/.test(w.text));
      if (file >= 0 && rest[file + 1]) inv.touch('write', rest[file + 1]!);
      const global = rest.some((w) => /^--(global|system)$/.test(w.text));
      const ops = rest.filter((w, k) => !w.text.startsWith('-') && !(file >= 0 && k === file + 1) && !/^(set|unset)$/.test(w.text));
      if (ops.length === 0) return;
      if (rest.some((w) => /^--(unset|unset-all|remove-section|rename-section)$|^unset$/.test(w.text)))
        return inv.touch('write', global ? lit('~/.gitconfig') : lit(`${dir.text}/.git/config`));
      inv.touch('write', global ? lit('~/.gitconfig') : { text: `${dir.text}/.git/config`, dynamic: dir.dynamic });
      setting(inv, ops[0]!.text, ops[1] ?? lit(''), true);
      return;
    }
    case 'clone':
    case 'fetch':
    case 'pull':
    case 'ls-remote':
    case 'submodule': {
      if (sub === 'submodule' && rest.some((w) => w.text === 'foreach')) {
        const code = rest.slice(rest.findIndex((w) => w.text === 'foreach') + 1).filter((w) => !w.text.startsWith('-'));
        return inv.runCode({ text: code.map((w) => w.text).join(' '), dynamic: code.some((w) => w.dynamic) }, 'sh');
      }
      const cfg = rest.flatMap((w, k) => (/^(-c|--config)$/.test(rest[k - 1]?.text ?? '') ? [w] : []));
      for (const c of cfg) if (!setting(inv, c.text.split('=')[0]!, lit(c.text.split('=').slice(1).join('=')), true)) return;
      inv.emit('web.fetch', urls[0] ?? unknown('git remote'));
      if (sub !== 'ls-remote')
        inv.touch(
          'write',
          sub === 'clone' ? (rest.filter((w) => !w.text.startsWith('-') && !urlOf(w))[0] ?? { text: '\u0000', dynamic: true }) : dir,
        );
      return;
    }
    case 'rebase':
    case 'bisect': {
      if (rest.some((w) => /^(-i|--interactive)$/.test(w.text))) return inv.fail('`git rebase -i` runs an editor on the todo list');
      const x = rest.findIndex((w) => /^(-x|--exec)$/.test(w.text));
      if (x >= 0) inv.runCode(rest[x + 1] ?? lit(''), 'sh');
      if (sub === 'bisect' && rest[0]?.text === 'run') inv.run(rest.slice(1));
      return inv.touch('write', dir);
    }
    case 'clean':
      return inv.touch('delete', { text: `${dir.text}/\u0000`, dynamic: true });
    case 'rm':
      return rest.filter((w) => !w.text.startsWith('-')).forEach((w) => inv.touch('delete', w));
    case 'archive':
    case 'format-patch':
    case 'bundle': {
      const o = rest.findIndex((w) => /^(-o|--output)$/.test(w.text));
      inv.touch('write', o >= 0 && rest[o + 1] ? rest[o + 1]! : { text: '\u0000', dynamic: true });
      if (rest.some((w) => /^--remote/.test(w.text))) inv.emit('web.fetch', unknown('git remote'));
      return;
    }
    case 'credential':
    case 'credential-store':
    case 'credential-cache':
      return inv.emit('secrets.read', { kind: 'command', command: inv.ev });
    case 'daemon':
    case 'instaweb':
      return inv.emit('net.listen', unknown(`git ${sub}`));
    case 'filter-branch':
    case 'filter-repo':
      return inv.fail(`\`git ${sub}\` runs filter code`);
    default:
      if (READ_ONLY.has(sub)) return inv.touch('read', dir);
      if (WORKTREE_WRITE.has(sub)) {
        const f = rest.findIndex((w) => /^(-F|--file)$/.test(w.text));
        if (f >= 0 && rest[f + 1]) inv.touch('read', rest[f + 1]!);
        return inv.touch('write', dir);
      }
      // An alias from the user's configuration or a `git-<name>` program on PATH.
      return inv.fail(`\`git ${sub}\` is not a git command this analysis models`);
  }
};

export const GIT_PROGRAMS: Record<string, ProgramModel> = { git };
