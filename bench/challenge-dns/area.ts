import { Area } from '../lib/types';

export const CHALLENGE_DNS_AREA: Area = { order: 31, title: 'DNS-01 challenge zone' };
