import type { ProgramModel } from './commands';
import { FILE_PROGRAMS } from './filePrograms';
import { GIT_PROGRAMS } from './git';
import { INTERPRETERS } from './interpreters';
import { NET_PROGRAMS } from './netPrograms';
import { REMOTE_PROGRAMS } from './remotePrograms';
import { SYSTEM_PROGRAMS } from './systemPrograms';
import { jq, TEXT_PROGRAMS } from './textPrograms';
import { CMD_BUILTINS, WIN_PROGRAMS } from './winPrograms';
import { WRAPPERS } from './wrappers';

/**
 * Every program the command analysis models, by name. A program not in this table is unanalysed
 * and fails closed: the table is an allowlist, not a list of known-bad names.
 */
export const PROGRAMS: Readonly<Record<string, ProgramModel>> = {
  ...SYSTEM_PROGRAMS,
  ...FILE_PROGRAMS,
  ...TEXT_PROGRAMS,
  jq,
  yq: jq,
  ...NET_PROGRAMS,
  ...REMOTE_PROGRAMS,
  ...GIT_PROGRAMS,
  ...WIN_PROGRAMS,
  ...WRAPPERS,
  ...INTERPRETERS,
};

/** cmd.exe built-ins, which take precedence over programs of the same name in cmd scripts (`timeout`, `find`, `sort`). */
export const CMD_PROGRAMS: Readonly<Record<string, ProgramModel>> = CMD_BUILTINS;
