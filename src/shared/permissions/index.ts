/** Permissions (SkillGuard): taxonomy, manifest DSL, the pure policy engine, session state, simulation. */
export * from './taxonomy';
export * from './manifest';
export * from './scopes';
export * from './hosts';
export * from './canonical';
export * from './policy';
export * from './constraints';
export * from './PolicyEngine';
export * from './session';
export * from './coverage';
export * from './simulate';
export * from './audit';
