import { DOMAIN_OPERATIONS } from './operations/domains.operations';
import { OAUTH_OPERATIONS } from './operations/oauth.operations';
import type { OperationDoc } from './operations/operation-doc';
import { PLATFORM_OPERATIONS } from './operations/platform.operations';
import { PURCHASE_OPERATIONS } from './operations/purchases.operations';
import { TOOL_OPERATIONS } from './operations/tools.operations';
import { WEBHOOK_OPERATIONS } from './operations/webhooks.operations';

export type { OperationDoc };

/**
 * One entry per route of the API, keyed `METHOD /path`. The OpenAPI test fails when a route has no
 * entry here, so a new endpoint cannot ship undocumented.
 */
export const OPERATIONS: Record<string, OperationDoc> = {
  ...PLATFORM_OPERATIONS,
  ...DOMAIN_OPERATIONS,
  ...PURCHASE_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
  ...OAUTH_OPERATIONS,
  ...TOOL_OPERATIONS,
};
