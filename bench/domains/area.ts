import { Area } from '../lib/types';

export const DOMAINS_AREA: Area = { order: 4, title: 'Connected domains' };
