/**
 * @module Change notices on PostgreSQL: NOTIFY on a shared channel, heard by one LISTENing
 * connection per process. The listener reconnects when its connection drops and then reports
 * `*` (anything may have changed), because notices sent meanwhile are lost.
 */
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { LocalEvents, type StoreChange, type StoreEvents } from "../store-events.js";
import { StoreUnavailable } from "../store-errors.js";
import { isUnavailable } from "./postgres-adapter.js";

const channel = "quiver_changes";
const maxReconnectDelayMs = 5_000;

export class NotifyEvents implements StoreEvents {
  private readonly local = new LocalEvents();
  private listener: pg.Client | undefined;
  private closed = false;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly pool: pg.Pool,
  ) {}

  /** Whether notices are heard now: false while the listening connection is being replaced. */
  get listening(): boolean {
    return this.listener !== undefined;
  }

  /** Starts listening; resolves once notices are heard. */
  async start(): Promise<void> {
    const client = new pg.Client(this.config);
    client.on("notification", (message) => {
      if (message.channel !== channel || !message.payload) return;
      try {
        const change = JSON.parse(message.payload) as StoreChange;
        if (typeof change.topic === "string" && typeof change.key === "string") this.local.emit(change);
      } catch {
        // Not ours: ignore.
      }
    });
    client.on("error", () => this.lost(client));
    client.on("end", () => this.lost(client));
    try {
      await client.connect();
      await client.query(`listen ${channel}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    this.listener = client;
  }

  async publish(change: StoreChange): Promise<void> {
    // This process hears it at once; the others (and this one again) through the channel.
    this.local.emit(change);
    try {
      await this.pool.query("select pg_notify($1, $2)", [channel, JSON.stringify(change)]);
    } catch (error) {
      throw isUnavailable(error) ? new StoreUnavailable("change notices cannot be sent now; retry", { cause: error }) : error;
    }
  }

  subscribe(listener: (change: StoreChange) => void): () => void {
    return this.local.subscribe(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.listener;
    this.listener = undefined;
    await client?.end().catch(() => undefined);
  }

  private lost(client: pg.Client): void {
    if (this.closed || this.listener !== client) return;
    this.listener = undefined;
    void client.end().catch(() => undefined);
    void this.reconnect();
  }

  private async reconnect(): Promise<void> {
    for (let delay = 100; !this.closed; delay = Math.min(maxReconnectDelayMs, delay * 2)) {
      await sleep(delay, undefined, { ref: false });
      if (this.closed) return;
      try {
        await this.start();
        this.local.emit({ topic: "*", key: "" });
        return;
      } catch {
        // Still unreachable: wait longer.
      }
    }
  }
}
