/** The HTTP transport shared by every app: the Fastify app, error envelope, validation and paging. */
// App and module
export { configureHttpApp, createFastifyAdapter, createHttpApp } from './http-app';
export { HttpCoreModule } from './http-core.module';
export { onHttpResponse } from './http-observer';
export { logsArePretty } from './log-output';
export { registerLogSecret } from './secret-redaction';
// Errors: DomainError code -> status and the {error, message, details} envelope
export { statusOf } from './error-status';
export { type ErrorEnvelope, mapError } from './error-envelope';
export { replyWithError } from './all-exceptions.filter';
export { ReplayedResponse } from './replayed-response';
// Follow-up of a change answered outside Nest's pipeline
export { API_CHANGES, type ApiChanges } from './api-changes';
// Validation
export { createValidationPipe } from './validation.pipe';
export { IsMetadata } from './is-metadata.validator';
export { IsNullable, IsOmittable, nullableProperties } from './optional.validators';
// Keyset paging
export { afterCursor, encodeCursor, microsKey, page } from './keyset-cursor';
export { PageQueryDto } from './page-query.dto';
