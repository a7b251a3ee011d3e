import { expect } from 'vitest';
import { parse } from 'yaml';
import { GraphExecutor, type Clock, type ExecutorDeps } from '../../src/main/services/executor';
import type { ActionMediator } from '../../src/shared/ports/mediation';
import { LibraryDocSchema, SkillLibrary } from '../../src/shared/skill';

/** A mediator that allows every action: for tests about running skills, not about permissions. */
export const allowAll: ActionMediator = { check: async () => ({ effect: 'allow' }) };

/** A clock on real time whose sleeps return at once, so waits poll without slowing the test. */
export const noSleep: Clock = { now: () => Date.now(), sleep: async () => {} };

/** A library of the given YAML documents (`doc0.yaml`, `doc1.yaml`... built-in); fails the test if any is rejected. */
export function libraryOf(...yamls: string[]): SkillLibrary {
  const library = new SkillLibrary(
    yamls.map((y, i) => ({ doc: LibraryDocSchema.parse(parse(y)), source: { file: `doc${i}.yaml`, origin: 'builtin' as const } })),
  );
  expect(library.errors).toEqual([]);
  return library;
}

/** An executor that allows everything, never sleeps and polls every millisecond, unless `deps` says otherwise. */
export function testExecutor(deps: Pick<ExecutorDeps, 'library' | 'desktop'> & Partial<ExecutorDeps>): GraphExecutor {
  return new GraphExecutor({ mediator: allowAll, clock: noSleep, pollMs: 1, ...deps });
}
