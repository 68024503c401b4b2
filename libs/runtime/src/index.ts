export { type ResolvedDatabase, RuntimeModule } from './runtime.module';
export { runMain } from './bootstrap';
export { apiFeatures, edgeFeatures, nodeFeatures } from './features';
