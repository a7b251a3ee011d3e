export * from './domains';
export * from './interpreters';
export * from './primitives';
export * from './graph';
export * from './documents';
export * from './template';
export * from './library';
export * from './tasks';
