/** Typed client of the custom-domains API, generated from its OpenAPI document (see README, "SDK"). */
export * from './client';
export type { components, operations, paths } from './generated/openapi';
// The verifier the README documents for webhook receivers, the same code the service's tests use.
export {
  VerifiedEvent,
  VerifyOptions,
  WebhookVerificationError,
  verifyWebhook,
} from '../../webhooks/src/model/verify-signature';
