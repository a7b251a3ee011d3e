import type { SkillLibrary } from '../../library';
import { BROWSER_MODELS } from './browser';
import { CALCULATOR_MODELS } from './calculator';
import { FILE_MODELS } from './files';
import { IMAGE_MODELS } from './image';
import { MEDIA_MODELS } from './media';
import { SHELL_MODELS } from './shell';
import { SHEET_MODELS } from './sheet';
import { TEXT_MODELS } from './text';
import type { MethodModel } from './types';

export type { MethodModel, ModelContext, Pick } from './types';

/** Whether the app's documents are plain text (a text editor that is no rich-text one). */
export function isTextual(library: SkillLibrary, app: string): boolean {
  return library.appImplements(app, 'TextEditor') && !library.appImplements(app, 'RichText');
}

/** Models by the kind of app they describe: a Document method means one thing in an editor, another in a spreadsheet. */
const FAMILIES: { applies: (library: SkillLibrary, app: string) => boolean; models: Record<string, MethodModel> }[] = [
  { applies: isTextual, models: TEXT_MODELS },
  { applies: (l, app) => l.appImplements(app, 'Spreadsheet'), models: SHEET_MODELS },
  { applies: (l, app) => l.appImplements(app, 'ImageEditor'), models: IMAGE_MODELS },
  { applies: () => true, models: { ...FILE_MODELS, ...SHELL_MODELS, ...CALCULATOR_MODELS, ...BROWSER_MODELS, ...MEDIA_MODELS } },
];

/** The model of interface method `method` (canonical `Interface.method`) on `app`, if there is one. */
export function modelFor(library: SkillLibrary, method: string | undefined, app: string): MethodModel | undefined {
  if (!method) return undefined;
  for (const f of FAMILIES) if (f.models[method] && f.applies(library, app)) return f.models[method];
  return undefined;
}
