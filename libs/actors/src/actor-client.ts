import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { Bus, NoRespondersError, RequestTimeoutError } from '@app/bus';
import { DomainError, ErrorCode } from '@app/kernel';
import { ActorProtocol, CommandOf, ProtocolMap, ReplyOf } from './actor-protocol';
import { ActorRequest, ActorResponse } from './actor.types';
import { ActorMetrics } from './actors.metrics';
import { actorSubject, shardOf } from './shard';

export interface AskOptions {
  /** Same id on a retry by the caller: applied once. Default: a new UUID. */
  commandId?: string;
  /** One attempt's wait for a reply. */
  attemptTimeoutMs?: number;
  /** Total wait across retries before answering 503. */
  deadlineMs?: number;
}

const DEFAULTS = { attemptTimeoutMs: 5_000, deadlineMs: 30_000 };

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
  ) {}

  /** A command of a declared protocol: its reply type follows from the command's `type`. */
  ask<M extends ProtocolMap<M>, C extends CommandOf<M>>(
    protocol: ActorProtocol<M>,
    id: string,
    command: C,
    options?: AskOptions,
  ): Promise<ReplyOf<M, Extract<C['type'], keyof M>>>;
  /** A kind named only by its string (libs that must not depend on the kind's lib, test fixtures). */
  ask<R>(kind: string, id: string, command: unknown, options?: AskOptions): Promise<R>;
  async ask(
    target: string | { kind: string },
    id: string,
    command: unknown,
    options: AskOptions = {},
  ): Promise<unknown> {
    const kind = typeof target === 'string' ? target : target.kind;
    const { attemptTimeoutMs, deadlineMs } = { ...DEFAULTS, ...options };
    const commandId = options.commandId ?? randomUUID();
    const subject = actorSubject(kind, shardOf(id));
    const giveUpAt = Date.now() + deadlineMs;
    for (let attempt = 1; ; attempt++) {
      const request: ActorRequest = { kind, id, command, commandId, attempt, sentAt: Date.now() };
      let reason: string;
      try {
        const remaining = Math.max(1, giveUpAt - Date.now());
        const response = (await this.bus.request(
          subject,
          request,
          Math.min(attemptTimeoutMs, remaining),
        )) as ActorResponse;
        if ('ok' in response) {
          if (response.ok) return response.reply;
          throw new DomainError(response.error.code as ErrorCode, response.error.message, response.error.details);
        }
        reason = response.retry;
      } catch (error) {
        if (error instanceof NoRespondersError) reason = 'no_responders';
        else if (error instanceof RequestTimeoutError) {
          reason = 'timeout';
          // A whole attempt waited out is rare and telling: the node answered late (it logs 'Actor
          // command answered late') or the request or its reply was lost. After a NATS outage the
          // reconnect already says why.
          if (!error.afterReconnect)
            this.logger.warn({ kind, id, commandId, attempt }, 'Actor command attempt timed out; retrying');
        } else throw error;
      }
      const backoff = Math.random() * Math.min(1_000, 25 * 2 ** attempt);
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
}
