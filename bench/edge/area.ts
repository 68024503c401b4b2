import { Area } from '../lib/types';

export const EDGE_AREA: Area = { order: 9, title: 'Edge data plane' };
