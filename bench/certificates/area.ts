import { Area } from '../lib/types';

export const CERTIFICATES_AREA: Area = {
  order: 29,
  title: 'Certificates: renewal load and the issuance budget',
};
