import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { Bus, NoRespondersError, RequestTimeoutError } from '@app/bus';
import { CallerPresence, DomainError, ErrorCode } from '@app/kernel';
import { ActorProtocol, CommandOf, ProtocolMap, ReplyOf } from './actor-protocol';
import { ActorProbe, ActorProbeAnswer, ActorRequest, ActorResponse } from './actor.types';
import { ActorMetrics } from './actors.metrics';
import { actorSubject, shardOf } from './shard';

export interface AskOptions {
  /** Same id on a retry by the caller: applied once. Default: a new UUID. */
  commandId?: string;
  /** One attempt's wait for a reply. */
  attemptTimeoutMs?: number;
  /** Total wait across retries before answering 503. */
  deadlineMs?: number;
  /** `id` was minted for this command just now (not derived from anything): its first attempt reads no snapshot. */
  freshId?: boolean;
}

const DEFAULTS = { attemptTimeoutMs: 5_000, deadlineMs: 30_000 };

/**
 * A command unanswered this long is probed for, and again as often: its node may have been killed
 * with it (a killed node's subscriptions go at once, a paused node's stay). Costs one small request
 * per second per slow command.
 */
const PROBE_EVERY_MS = 1_000;
/** A probe unanswered this long says nothing (the owner may be paused): keep waiting. */
const PROBE_TIMEOUT_MS = 500;

const NO_RESPONDERS_BACKOFF_CAP_MS = 250;

/** The node that took the command is gone: send it again now, not at the end of the attempt. */
class CommandLostError extends Error {}

/**
 * Sends commands to actors wherever they live. Retries with jittered exponential backoff while a
 * shard has no owner (handoff, crash) and gives up with 503 after a bounded wait; every attempt
 * carries the same command id so the actor applies it once.
 */
export class ActorClient {
  private readonly logger = new Logger(ActorClient.name);

  constructor(
    private readonly bus: Bus,
    private readonly metrics: ActorMetrics = ActorMetrics.get(),
    /** The HTTP request a command is sent for, if any: no attempt goes out once its client hung up. */
    private readonly caller?: CallerPresence,
  ) {}

  /** A command of a declared protocol: its reply type follows from the command's `type`. */
  ask<M extends ProtocolMap<M>, C extends CommandOf<M>>(
    protocol: ActorProtocol<M>,
    id: string,
    command: C,
    options?: AskOptions,
  ): Promise<ReplyOf<M, Extract<C['type'], keyof M>>>;
  /** A kind named only by its string: test fixtures and benchmarks (lint keeps it out of libs and apps). */
  ask<R>(kind: string, id: string, command: unknown, options?: AskOptions): Promise<R>;
  async ask(
    target: string | { kind: string },
    id: string,
    command: unknown,
    options: AskOptions = {},
  ): Promise<unknown> {
    const kind = typeof target === 'string' ? target : target.kind;
    // `?? DEFAULTS`: an option passed as undefined (a caller forwarding its own optional) is the
    // default, not NaN (which NATS took for a 1 s attempt and the deadline check for never).
    const attemptTimeoutMs = options.attemptTimeoutMs ?? DEFAULTS.attemptTimeoutMs;
    const deadlineMs = options.deadlineMs ?? DEFAULTS.deadlineMs;
    const commandId = options.commandId ?? randomUUID();
    const subject = actorSubject(kind, shardOf(id));
    const giveUpAt = Date.now() + deadlineMs;
    for (let attempt = 1; ; attempt++) {
      if (this.caller?.hungUp()) {
        // Sent again after its HTTP client gave up, the command could land after that client's next one.
        this.logger.warn({ kind, id, commandId, attempt }, 'Actor command not sent: its HTTP caller hung up');
        throw new DomainError('service_unavailable', `The ${kind} command was dropped: the caller hung up`, {
          reason: 'caller_hung_up',
        });
      }
      const request: ActorRequest = {
        kind,
        id,
        command,
        commandId,
        attempt,
        sentAt: Date.now(),
        ...(options.freshId && attempt === 1 && { fresh: true as const }),
      };
      let reason: string;
      try {
        const remaining = Math.max(1, giveUpAt - Date.now());
        const response = await this.attempt(subject, request, Math.min(attemptTimeoutMs, remaining));
        if ('ok' in response) {
          if (response.ok) return response.reply;
          throw new DomainError(response.error.code as ErrorCode, response.error.message, response.error.details);
        }
        reason = response.retry;
      } catch (error) {
        if (error instanceof NoRespondersError) reason = 'no_responders';
        else if (error instanceof CommandLostError) {
          reason = 'node_gone';
          this.logger.warn({ kind, id, commandId, attempt }, "Actor command's node is gone; sending it again");
        } else if (error instanceof RequestTimeoutError) {
          reason = 'timeout';
          // A whole attempt waited out is rare and telling: the node answered late (it logs 'Actor
          // command answered late') or the request or its reply was lost. After a NATS outage the
          // reconnect already says why.
          if (!error.afterReconnect)
            this.logger.warn({ kind, id, commandId, attempt }, 'Actor command attempt timed out; retrying');
        } else throw error;
      }
      // Nobody serves the shard (a killed owner's shards are taken over within about a second): a
      // no-responders answer costs one round trip, so look again sooner than after other failures.
      const cap = reason === 'no_responders' ? NO_RESPONDERS_BACKOFF_CAP_MS : 1_000;
      const backoff = Math.random() * Math.min(cap, 25 * 2 ** attempt);
      if (Date.now() + backoff >= giveUpAt) {
        this.logger.warn({ kind, id, commandId, attempts: attempt, reason }, 'Actor command gave up: 503');
        throw new DomainError(
          'service_unavailable',
          `The ${kind} is moving between nodes or unreachable; try again shortly`,
          {
            reason,
          },
        );
      }
      this.metrics.clientRetries.inc({ reason });
      await new Promise((resolve) => setTimeout(resolve, backoff));
    }
  }

  /** One attempt; while it waits, probes whether the shard's owner still works on it. */
  private async attempt(subject: string, request: ActorRequest, timeoutMs: number): Promise<ActorResponse> {
    const answer = this.bus.request(subject, request, timeoutMs) as Promise<ActorResponse>;
    if (timeoutMs <= PROBE_EVERY_MS) return answer;
    let timer: NodeJS.Timeout | undefined;
    let done = false;
    const lost = new Promise<never>((_, reject) => {
      const probe = async () => {
        if (await this.isLost(subject, request.commandId)) return reject(new CommandLostError());
        if (!done) timer = setTimeout(() => void probe(), PROBE_EVERY_MS);
      };
      timer = setTimeout(() => void probe(), PROBE_EVERY_MS);
    });
    lost.catch(() => undefined);
    try {
      return await Promise.race([answer, lost]);
    } catch (error) {
      if (error instanceof CommandLostError) answer.catch(() => undefined); // abandoned
      throw error;
    } finally {
      done = true;
      clearTimeout(timer);
    }
  }

  /** Nobody serves the shard, or its owner does not have the command: the node that took it is gone. */
  private async isLost(subject: string, commandId: string): Promise<boolean> {
    const probe: ActorProbe = { probe: commandId };
    try {
      const answer = (await this.bus.request(subject, probe, PROBE_TIMEOUT_MS)) as Partial<ActorProbeAnswer>;
      return answer.running === false;
    } catch (error) {
      return error instanceof NoRespondersError;
    }
  }
}
