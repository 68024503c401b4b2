/** Published on the bus when deliveries became due: a relay created them, or a replay. */
export const DELIVERIES_DUE_SUBJECT = 'webhooks.deliveries.due';
/** Published on the bus when an event was queued in the outbox outside an actor (test events). */
export const OUTBOX_QUEUED_SUBJECT = 'webhooks.outbox.queued';
