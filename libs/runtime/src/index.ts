export { type FeatureModule, type ResolvedDatabase, RuntimeModule } from './runtime.module';
export { runMain } from './bootstrap';
