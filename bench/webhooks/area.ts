import { Area } from '../lib/types';

export const WEBHOOKS_AREA: Area = { order: 6, title: 'Webhooks' };
