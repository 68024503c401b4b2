import { AsyncLocalStorage } from 'node:async_hooks';
import { CALLER_PRESENCE, CallerPresence } from '@app/kernel';
import { Global, Module } from '@nestjs/common';

/** What a raw HTTP response says about its client: destroyed once it hung up, finished once answered. */
interface RawResponse {
  readonly destroyed: boolean;
  readonly writableFinished: boolean;
}

const responses = new AsyncLocalStorage<RawResponse>();

/** Runs the rest of one request's handling (`next`) with its response as the caller. */
export function withCaller(response: RawResponse, next: () => void): void {
  responses.run(response, next);
}

/** The client of the request being handled hung up before its answer (outside a request: never). */
const httpCallerPresence: CallerPresence = {
  hungUp() {
    const response = responses.getStore();
    return response !== undefined && response.destroyed && !response.writableFinished;
  },
};

@Global()
@Module({
  providers: [{ provide: CALLER_PRESENCE, useValue: httpCallerPresence }],
  exports: [CALLER_PRESENCE],
})
export class CallerPresenceModule {}
