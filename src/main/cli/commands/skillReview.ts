import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { SkillDeskError } from '../../../shared/errors';
import { reviewSkillFile, revokeSkillReview } from '../../core/reviews';
import { deriveManifest } from '../../services/permissions';
import type { CliContext } from '../context';

const canonical = (file: string): string => {
  try {
    return realpathSync(file);
  } catch {
    return resolve(file);
  }
};

/** Asks a yes/no question on the terminal; false when there is no terminal to ask on. */
async function confirm(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) return false;
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(`${question} [y/N] `)).trim());
  } finally {
    rl.close();
  }
}

/** `skills review <file>`: the user's explicit review, which makes an unchanged user file `verified`. */
export function registerSkillReviewCommand(skills: Command, ctx: CliContext): void {
  skills
    .command('review')
    .description('Mark a skill file in your skill folder as reviewed: it runs as `verified` until it changes')
    .argument('<file>', 'a file in the user skill folder (<data-dir>/skills)')
    .option('--yes', 'do not ask (for scripts); you still take responsibility for what the file does')
    .option('--revoke', 'withdraw an earlier review (the file runs as `community` again)')
    .option('--json', 'print JSON')
    .addHelpText(
      'after',
      `
Trust comes from where a skill was installed, never from what its file says: files shipped with
SkillDesk are built-in, files in your skill folder are \`community\` (dangerous steps ask first).
Reviewing records the file's SHA-256 in the store: the file then runs as \`verified\`. Any change
to the file, by you or anything else, drops it back to \`community\` until you review it again.
Before asking, this prints every capability the file's skills can use.

Examples:
  $ skilldesk skills review ~/.local/share/skilldesk/skills/mousepad.greet.yaml
  $ skilldesk skills review ~/.local/share/skilldesk/skills/mousepad.greet.yaml --revoke`,
    )
    .action(async (file: string, o: { yes?: boolean; revoke?: boolean; json?: boolean }) => {
      const core = await ctx.core();
      const db = core.db;
      if (!db) throw new SkillDeskError('cli.no_store', 'Reviews are kept in the store, and this core has none');
      if (o.revoke) {
        const had = await revokeSkillReview(db, core.userSkillsDir, file);
        await core.reloadLibrary();
        return ctx.out(o.json ? JSON.stringify({ revoked: had }) : had ? `review of ${file} withdrawn` : `${file} had no review`);
      }
      const { library } = await core.loadLibrary();
      const path = canonical(file);
      const skills = [...library.skills.values()].filter((s) => s.source.origin === 'user' && canonical(s.source.file) === path);
      if (!o.json) {
        ctx.err(
          `${file}: ${skills.length ? skills.map((s) => s.id).join(', ') : 'no skill of this file is loaded (fix it first: skilldesk skills validate)'}`,
        );
        for (const s of skills) {
          for (const n of deriveManifest(s, library).needs)
            ctx.err(`  ${s.id} can use ${n.capability}${n.scopes.length ? ` on ${n.scopes.join(', ')}` : ''}`);
        }
      }
      if (!o.yes && !(await confirm('Trust this file as verified (dangerous steps will no longer ask)?'))) {
        throw new SkillDeskError('cli.not_confirmed', 'Not reviewed: answer yes at the prompt, or pass --yes');
      }
      const reviewed = await reviewSkillFile(db, core.userSkillsDir, file);
      await core.reloadLibrary();
      ctx.out(
        o.json
          ? JSON.stringify(reviewed)
          : `reviewed ${reviewed.file} (sha256 ${reviewed.sha256.slice(0, 16)}…): it runs as verified until it changes`,
      );
    });
}
