import { SkillDeskError } from '../../../shared/errors';

/** A desktop adapter could not do what was asked; `code` says which part (`desktop.*`, `input.*`, `window.*`, `script.*`). */
export class DesktopError extends SkillDeskError {
  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(code, message, details);
    this.name = 'DesktopError';
  }
}
