/**
 * Told each time a purchase saga passes a point: right after a step was persisted (`charging`,
 * `registering`, `renewal:charging`, ...) or right after an external effect returned and before its
 * outcome was persisted (`after:charge`, `after:renewal:renew`, ...). Production runs without one;
 * the crash tests install one that kills the node there (test/fixtures/crash-node.main.ts).
 */
export interface SagaStepListener {
  reached(point: string): void;
}

/** Injection token of an optional `SagaStepListener` (provided globally by whoever wants one). */
export const SAGA_STEP_LISTENER = 'SAGA_STEP_LISTENER';

/** The default: nobody listens. */
export const noSagaStepListener: SagaStepListener = { reached: () => undefined };
