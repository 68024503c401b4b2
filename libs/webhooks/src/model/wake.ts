/** Published on the bus when deliveries became due outside a node's own relay (replays). */
export const DELIVERIES_DUE_SUBJECT = 'webhooks.deliveries.due';
