import { newId, randomBase62 } from '@app/persistence';

export const newEndpointId = () => newId('whe');
export const newDeliveryId = () => newId('whd');
/** 32 random bytes: `whsec_` and 43 base62 characters. */
export const newWebhookSecret = () => `whsec_${randomBase62(32)}`;
