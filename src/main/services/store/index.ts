// The store's public surface: open it, then call one small query function per need, database first.
export { openStore, STORE_SCHEMA_VERSION, type OpenStoreOptions, type SqliteStore, type StoreLocation } from './SqliteStore';
export { defaultDataDir, storeFile, STORE_FILE_NAME, type DataDirContext } from './paths';
export { StoreError, type StoreErrorCode } from './errors';
export type { StoreDb } from './statements';
export { canonicalJson, sha256Hex } from './json';
export {
  MIGRATIONS,
  LATEST_SCHEMA_VERSION,
  migrate,
  schemaVersion,
  checkMigrationList,
  type Migration,
  type MigrationReport,
} from './migrations';
export {
  createRun,
  finishRun,
  setRunAccounting,
  getRun,
  findRunsByIdPrefix,
  listRuns,
  type RunRow,
  type RunRowStatus,
  type RunErrorData,
  type RunAccounting,
  type NewRun,
  type RunEnd,
  type ListRunsFilter,
} from './runs';
export { startStep, appendStep, getSteps, type StepRow, type NewStep, type NewStartedStep } from './steps';
export { recoverInterruptedRuns, ownerState, ownerIdentity, type OwnerState, type OwnerIdentity, type RecoverOptions } from './runRecovery';
export { SqliteRunJournal } from './SqliteRunJournal';
export { addMemory, listMemory, type MemoryRow, type NewMemory, type ListMemoryFilter } from './memory';
export {
  appendAudit,
  exportAuditJsonl,
  keyedAuditHash,
  legacyAuditHash,
  digestArgs,
  AUDIT_GENESIS_HASH,
  type AuditRow,
  type AuditEntry,
  type AuditDecision,
  type AuditAnswer,
} from './audit';
export {
  verifyAuditChain,
  verifyAuditRows,
  reanchorAudit,
  LEGACY_AUDIT_KEYING,
  type AuditVerification,
  type AuditChainCheck,
  type AuditProblem,
  type AuditKeying,
} from './auditVerify';
export { auditTrailOf, openAuditTrail, type AuditTrail, type AuditTrailOptions } from './auditTrail';
export { auditFilesFor } from './auditFiles';
export { queryAudit, iterateAudit, AUDIT_SCAN_BUDGET, type AuditPageQuery } from './auditQuery';
export {
  addGrant,
  getGrant,
  listGrants,
  revokeGrant,
  grantState,
  type GrantRow,
  type GrantState,
  type NewGrant,
  type ListGrantsFilter,
} from './grants';
export {
  putEmbedding,
  putEmbeddings,
  getEmbedding,
  getEmbeddings,
  deleteEmbeddingsForModel,
  embeddingTextHash,
  type EmbeddingInput,
} from './embeddings';
export {
  replaceSkillIndex,
  listSkillIndex,
  getSkillIndexEntry,
  type SkillIndexEntry,
  type SkillIndexRow,
  type SkillIndexKind,
  type ListSkillIndexFilter,
} from './skillIndex';
export { getSetting, setSetting, deleteSetting, listSettings, type SettingRow } from './settings';
export { loadCompositionGraph, storeCompositionGraph, storedGraphDigest } from './compositionGraph';
export { listTopLevelRuns, listChildRuns, tallyStepsBySkill, readMetricsRows } from './metrics';
