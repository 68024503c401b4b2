import { LOOKUP_TYPES } from '@app/dns';
import { JSONSchema } from 'class-validator-jsonschema';

/** The record type as the document states it: the server upper-cases it first, so either case is accepted. */
export const LookupTypeSchema = () =>
  JSONSchema({
    type: 'string',
    enum: [...LOOKUP_TYPES, ...LOOKUP_TYPES.map((type) => type.toLowerCase())],
    description: `One of ${LOOKUP_TYPES.join(', ')} (case-insensitive)`,
  });
