import type { ArgValues } from '../skill';

/** One re-execution that verified (or refuted) an induced skill. */
export interface VerificationRun {
  args: ArgValues;
  ok: boolean;
  runId?: string;
  why?: string;
}

/** What became of a trajectory: admitted as a skill (its files), or rejected with the reason kept. */
export interface InductionReport {
  id: string;
  method: string;
  app: string;
  status: 'admitted' | 'rejected';
  reason?: string;
  skillId?: string;
  /** The method was added to the interface (signature first). */
  signatureAdded: boolean;
  /** The files induction wrote: the skill file (and the method document when the interface got the method). */
  files: string[];
  steps: number;
  runs: VerificationRun[];
  at: number;
}
