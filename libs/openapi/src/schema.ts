import { arrayOf, nullable, obj, SchemaObject, str } from '@app/kernel';

// The builders are the kernel's (libs/kernel/src/schema.ts): resources declare their schemas with them
// in their own libs and take their types from them; the document's own shapes use them here too.
export { arrayOf, bool, dateTime, freeForm, int, nullable, obj, oneOfValues, ref, str } from '@app/kernel';
export type { SchemaObject } from '@app/kernel';

/** `{<key>: <schema>}`: the envelope every single-resource answer uses. */
export const envelope = (key: string, schema: SchemaObject): SchemaObject => obj({ [key]: schema });

/** `{<key>: [...], nextCursor}`: a keyset-paginated list. */
export const page = (key: string, item: SchemaObject): SchemaObject =>
  obj({ [key]: arrayOf(item), nextCursor: nullable(str('Opaque; null on the last page')) });
