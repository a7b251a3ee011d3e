import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

async function lint(file: string, code: string): Promise<string[]> {
  const eslint = new ESLint();
  const [result] = await eslint.lintText(code, { filePath: file });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('eslint.config.mjs', () => {
  it('rejects Node built-ins and electron in src/shared', async () => {
    expect(await lint('src/shared/x.ts', "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;\n")).toEqual([
      expect.stringContaining('src/shared is pure TypeScript: no Node built-ins.'),
    ]);
    expect(await lint('src/shared/x.ts', "import { app } from 'electron';\nexport const a = app;\n")).toHaveLength(1);
  });

  it('rejects main-process code and native modules in the renderer', async () => {
    expect(await lint('src/renderer/src/x.ts', "import { Core } from '../../main/core/Core';\nexport const a = Core;\n")).toEqual([
      expect.stringContaining('The renderer talks to main only through the typed bridge.'),
    ]);
    expect(await lint('src/renderer/src/x.ts', "import Database from 'better-sqlite3';\nexport const a = Database;\n")).toHaveLength(1);
  });

  it('allows electron only under src/main/platform', async () => {
    expect(await lint('src/main/services/x.ts', "import { app } from 'electron';\nexport const a = app;\n")).toHaveLength(1);
    expect(await lint('src/main/platform/x.ts', "import { app } from 'electron';\nexport const a = app;\n")).toEqual([]);
  });

  it('rejects services importing the application layer or the shells', async () => {
    for (const from of ['../../core/Core', '../../bridge/CoreApiAdapter', '../../cli/context', '../../../core/skills']) {
      expect(await lint('src/main/services/agent/x.ts', `import { a } from '${from}';\nexport const b = a;\n`)).toEqual([
        expect.stringContaining('Services are the domains below the application layer'),
      ]);
    }
    expect(await lint('src/main/services/agent/x.ts', "import { app } from 'electron';\nexport const a = app;\n")).toHaveLength(1);
    expect(await lint('src/main/services/agent/x.ts', "import { a } from '../store';\nexport const b = a;\n")).toEqual([]);
  });

  it('rejects the core importing the shells, and lets the shells import the core', async () => {
    expect(await lint('src/main/core/x.ts', "import { a } from '../bridge/GoalRunner';\nexport const b = a;\n")).toEqual([
      expect.stringContaining('src/main/core is the application layer'),
    ]);
    expect(await lint('src/main/core/x.ts', "import { a } from '../cli/output';\nexport const b = a;\n")).toHaveLength(1);
    expect(await lint('src/main/core/x.ts', "import { a } from '../services/agent';\nexport const b = a;\n")).toEqual([]);
    expect(await lint('src/main/bridge/x.ts', "import { a } from '../core/agent';\nexport const b = a;\n")).toEqual([]);
    expect(await lint('src/main/cli/x.ts', "import { a } from '../core/agent';\nexport const b = a;\n")).toEqual([]);
  });
});
