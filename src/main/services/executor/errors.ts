import { SkillDeskError } from '../../../shared/errors';

/** A primitive or path failed; the walker may try the next alternative. */
export class StepFailure extends SkillDeskError {
  constructor(code: string, message: string) {
    super(code, message);
    this.name = 'StepFailure';
  }
}

/** A mediator denied an action: the run stops at once, no alternative is tried. */
export class PermissionDenied extends SkillDeskError {
  constructor(code: string, message: string) {
    super(code, message);
    this.name = 'PermissionDenied';
  }
}

/** The run was stopped by its AbortSignal (emergency stop, Ctrl+C, UI stop button). */
export class RunAborted extends SkillDeskError {
  constructor(message = 'The run was stopped before its next step') {
    super('run.aborted', message);
    this.name = 'RunAborted';
  }
}

/** Errors that end the whole run instead of triggering backtracking. */
export function isFatal(err: unknown): boolean {
  return err instanceof PermissionDenied || err instanceof RunAborted;
}
