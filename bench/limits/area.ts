import { Area } from '../lib/types';

export const LIMITS_AREA: Area = { order: 8, title: 'API platform: rate limits' };
