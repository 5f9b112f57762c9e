/**
 * @module Push delivery of change events to webhook targets (`--event-webhook`), signed as the
 * Standard Webhooks convention says (`webhook-id`, `webhook-timestamp`, `webhook-signature`).
 *
 * One process delivers for the whole store at a time: it holds a store lock (a PostgreSQL
 * advisory lock across replicas) for as long as it delivers; the others try to take it every
 * interval, so when the deliverer dies its lock goes with its connection and another replica
 * takes over within an interval. Each target receives every event, one request per event, in
 * commit order: an event is retried with backoff until the target acknowledges it (any 2xx), and
 * only then is the target's position saved in the store and the next event sent. A crash between
 * an acknowledgement and the save sends that event again: delivery is at least once, and
 * `webhook-id` (the event's id) lets the receiver drop the repeat.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { Webhook } from "standardwebhooks";
import { changeEventsTopic } from "../../store/rows/change-event-rows.js";
import type { Store } from "../../store/store.js";
import { eventDeliveries, eventDeliveryLag } from "../../metrics/metrics.js";
import { type PeriodicTask, startPeriodicTask } from "../periodic-task.js";
import { retrying } from "../../model/retry.js";

/** The store lock the delivering process holds. */
export const eventDeliveryLock = "change-event-delivery";

export interface WebhookSettings {
  /** Where events are POSTed; each gets every event. */
  targets: readonly string[];
  /** The Standard Webhooks secret (`whsec_` and base64) the requests are signed with. */
  secret: string;
  /** How often a process not delivering tries to take over (default 1 s). */
  takeoverIntervalMs?: number;
  /** The first retry's wait; each further one doubles, up to `maxBackoffMs` (defaults 250 ms, 60 s). */
  firstBackoffMs?: number;
  maxBackoffMs?: number;
  /** How long one request may take before it counts as failed (default 10 s). */
  requestTimeoutMs?: number;
}

export interface DeliveryLog {
  failed(target: string, eventId: string, reason: string, attempt: number): void;
  /** Delivery stopped on a store failure; it resumes at the next interval. */
  stalled(error: unknown): void;
}

/** Starts delivering (when this process gets the lock) until stopped. */
export function startWebhookDelivery(store: Store, settings: WebhookSettings, log: DeliveryLog): PeriodicTask {
  const stopping = new AbortController();
  const attempt = async () => {
    if (stopping.signal.aborted) return;
    await store.tryWithLock(eventDeliveryLock, (fence) => deliverWhileHeld(store, settings, log, AbortSignal.any([fence, stopping.signal])));
  };
  // The first attempt at once, so a process started alone delivers without waiting an interval.
  const firstAttempt = attempt().catch((error: unknown) => log.stalled(error));
  const task = startPeriodicTask(settings.takeoverIntervalMs ?? 1000, attempt, (error) => log.stalled(error));
  return {
    async stop() {
      stopping.abort();
      await task.stop();
      await firstAttempt;
    },
  };
}

/** Delivers to every target until `stop` aborts (the process stops, or the lock was lost). */
async function deliverWhileHeld(store: Store, settings: WebhookSettings, log: DeliveryLog, held: AbortSignal): Promise<void> {
  const webhook = new Webhook(settings.secret);
  // One target's failure (the store answering no more) stops the others too: the lock is given
  // up only once none of them delivers any more.
  const failed = new AbortController();
  const stop = AbortSignal.any([held, failed.signal]);
  let wake = new AbortController();
  const unsubscribe = store.events.subscribe((change) => {
    if (change.topic === changeEventsTopic || change.topic === "*") wake.abort();
  });
  const positions = new Map<string, number>();
  const loops = settings.targets.map(async (target) => {
    positions.set(target, (await store.rows.findDeliveryPosition(target)) ?? 0);
    while (!stop.aborted) {
      const position = positions.get(target) as number;
      // Every event, in commit order across databases: the targets are the operator's.
      const [next] = await store.rows.listChangeEvents({ after: position }, 1);
      if (!next) {
        await updateLag(store, positions);
        await sleep(1000, undefined, { signal: AbortSignal.any([wake.signal, stop]) }).catch(() => undefined);
        if (wake.signal.aborted) wake = new AbortController();
        continue;
      }
      if (!(await deliverOne(webhook, target, next, settings, log, stop))) return;
      // Saved even when stopping: the target has it. Should the lock have been lost meanwhile,
      // this at worst moves the position back, and events are sent again, never skipped.
      await store.rows.saveDeliveryPosition(target, next.seq);
      positions.set(target, next.seq);
      await updateLag(store, positions);
    }
  });
  try {
    const stopOthers = (error: unknown) => {
      failed.abort();
      throw error;
    };
    const outcomes = await Promise.allSettled(loops.map((loop) => loop.catch(stopOthers)));
    const failure = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
    if (failure) throw failure.reason;
  } finally {
    unsubscribe();
  }
}

/** A request the target did not acknowledge; why, for the log. */
class Unacknowledged extends Error {}

/** Sends one event until the target acknowledges it; false when stopped first. */
async function deliverOne(
  webhook: Webhook,
  target: string,
  event: { id: string; event: string },
  settings: WebhookSettings,
  log: DeliveryLog,
  stop: AbortSignal,
): Promise<boolean> {
  // Jitter between half and the whole wait: targets that failed together are not retried in step.
  const backoff = { firstMs: settings.firstBackoffMs ?? 250, capMs: settings.maxBackoffMs ?? 60_000, jitter: [0.5, 1] } as const;
  if (stop.aborted) return false;
  try {
    return await retrying(
      async (attempt) => {
        const reason = await post(webhook, target, event, settings.requestTimeoutMs ?? 10_000, stop);
        if (reason === undefined) {
          eventDeliveries.inc({ outcome: "ok" });
          return true;
        }
        if (stop.aborted) return false;
        eventDeliveries.inc({ outcome: "failed" });
        log.failed(target, event.id, reason, attempt);
        throw new Unacknowledged(reason);
      },
      { backoff, retryable: () => true, signal: stop },
    );
  } catch (error) {
    if (error instanceof Unacknowledged && stop.aborted) return false;
    throw error;
  }
}

/** POSTs one event in CloudEvents' structured JSON; answers why it failed, or undefined. */
async function post(webhook: Webhook, target: string, event: { id: string; event: string }, timeoutMs: number, stop: AbortSignal): Promise<string | undefined> {
  const sentAt = new Date();
  try {
    const response = await fetch(target, {
      method: "POST",
      headers: {
        "content-type": "application/cloudevents+json",
        "webhook-id": event.id,
        "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
        "webhook-signature": webhook.sign(event.id, sentAt, event.event),
      },
      body: event.event,
      signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), stop]),
    });
    await response.body?.cancel().catch(() => undefined);
    return response.ok ? undefined : `HTTP ${response.status}`;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** The age of the oldest event some target has yet to acknowledge. */
async function updateLag(store: Store, positions: ReadonlyMap<string, number>): Promise<void> {
  const behind = Math.min(...positions.values());
  const oldest = await store.rows.firstChangeEventTimeAfter(behind).catch(() => undefined);
  eventDeliveryLag.set(oldest === undefined ? 0 : Math.max(0, (Date.now() - oldest) / 1000));
}
