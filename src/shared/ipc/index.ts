/** The IPC contract: channels, schemas, views, the bridge type and errors-as-data. */
export * from './contract';
export * from './views';
export * from './result';
export * from './bridge';
export type { CoreApi } from './core-api';
export * from './hostHandshake';
export * from './learnViews';
