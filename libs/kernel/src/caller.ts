/**
 * Whether the HTTP client of the request being handled still waits for its answer. A command sent
 * again after its client gave up (timed out) could land after that client's next write and undo it,
 * so the actor client asks before every attempt. Provided by the HTTP lib; absent outside requests.
 */
export interface CallerPresence {
  hungUp(): boolean;
}

export const CALLER_PRESENCE = Symbol('CallerPresence');
