import { createValidationPipe } from '@app/http';
import type { Type } from '@nestjs/common';

const pipe = createValidationPipe();

/** Validates a form through the same DTO and pipe as the JSON API, so the rules and messages match. */
export async function validated<T extends object>(dto: Type<T>, value: Record<string, unknown>): Promise<T> {
  return (await pipe.transform(value, { type: 'body', metatype: dto, data: '' })) as T;
}

/** A checkbox: present means true. */
export const checked = (value: unknown) => value === 'on' || value === 'true';
