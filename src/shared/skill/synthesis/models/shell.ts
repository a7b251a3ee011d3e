import type { SymbolicWorld } from '../world';
import { taskDir } from '../fixtures';
import { setFile, type MethodModel, type Pick } from './types';

/** The terminal's current folder, once a task has set it. */
const cwd = (w: SymbolicWorld, app: string) => w.model<{ cwd?: string }>(`${app}@shell`, () => ({}));

/** A command whose output (and effect) the model knows, with what it prints. */
interface Command {
  line: string;
  prints: string;
  /** What it makes in the task's folder (plain data: worlds are cloned). */
  makes?: { file: string; text: string } | { folder: string };
}

/** A shell word in single quotes. */
const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/** Commands a careful test would run: output known exactly, effects inside the task's folder only. */
function commands(w: SymbolicWorld, app: string, pick: Pick): Command[] {
  const word = pick(['hello', 'ready', 'done', 'alpha', 'beta', 'gamma']);
  const a = pick([2, 3, 6, 7, 12]);
  const b = pick([4, 5, 9, 11]);
  const out: Command[] = [
    { line: `echo ${word}`, prints: `${word}\n` },
    { line: `printf '%s-%s\\n' ${word} ${b}`, prints: `${word}-${b}\n` },
    { line: `expr ${a} \\* ${b}`, prints: `${a * b}\n` },
    { line: `echo $((${a} + ${b}))`, prints: `${a + b}\n` },
  ];
  const here = cwd(w, app).cwd;
  if (here) out.push({ line: 'pwd', prints: `${here}\n` });
  const texts = w.holding('file_content').filter((f) => typeof f.value === 'string' && String(f.path).startsWith(`${taskDir(w)}/`));
  if (texts.length) {
    const f = pick(texts);
    out.push({ line: `cat ${quote(String(f.path))}`, prints: String(f.value) });
    const copy = `${taskDir(w)}/copy-of-${String(f.path).split('/').pop()}`;
    if (!w.holds({ fact: 'file_exists', holds: true, path: copy }))
      out.push({ line: `cp ${quote(String(f.path))} ${quote(copy)}`, prints: '', makes: { file: copy, text: String(f.value) } });
  }
  const folder = `${taskDir(w)}/made-by-shell-${a}`;
  if (!w.holds({ fact: 'folder_exists', holds: true, path: folder }))
    out.push({ line: `mkdir ${quote(folder)}`, prints: '', makes: { folder } });
  return out;
}

/** The commands bound so far in this world, by line: what each prints and does. */
const bound = (w: SymbolicWorld) => w.model<Record<string, Command>>('@shell-commands', () => ({}));

/** CommandLine: what a command prints (returned, and written to its output file) and does. */
export const SHELL_MODELS: Record<string, MethodModel> = {
  'CommandLine.change_directory': {
    apply: (w, ctx, a) => void (cwd(w, ctx.app).cwd = String(a.path)),
  },
  'CommandLine.run_command': {
    bind: (w, ctx, pick) => {
      const command = pick(commands(w, ctx.app, pick));
      bound(w)[command.line] = command;
      return { command: command.line };
    },
    blocked: (w, _ctx, a) => (bound(w)[String(a.command)] ? undefined : 'what the command prints is not known'),
    apply: (w, _ctx, a) => {
      const command = bound(w)[String(a.command)]!;
      const made = command.makes;
      if (made && 'file' in made) setFile(w, made.file, made.text);
      else if (made) w.apply({ fact: 'folder_exists', holds: true, path: made.folder });
      if (a.output !== undefined) setFile(w, String(a.output), command.prints);
      return { result: command.prints };
    },
  },
};
