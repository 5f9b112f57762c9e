// Change events pushed to webhooks (`--event-webhook`): signed as Standard Webhooks, retried with
// backoff while the receiver fails, delivered at least once and in commit order through a
// delivering replica killed with SIGKILL mid-delivery (on PostgreSQL the other replica takes
// over; on SQLite the restarted process resumes from the position it saved).
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { type IncomingMessage, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { rmSync } from "node:fs";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { Webhook } from "standardwebhooks";
import { arrowStream } from "../helpers/arrow.js";
import { parsePrometheusText, sumOf } from "../helpers/prometheus-text.js";
import { type ServeProcess, spawnServe } from "../helpers/cli-process.js";
import { expectJson, tempRoot } from "../helpers/test-server.js";
import { testStoreDialect, testStoreUrl } from "../helpers/test-store.js";

interface Received {
  id: string;
  type: string;
  at: number;
  acked: boolean;
}

/** A webhook receiver that refuses its first `failures` requests and holds the request of the `holdAt`-th distinct event open until told. */
async function receiver(secret: string, failures: number, holdAt: number) {
  const webhook = new Webhook(secret);
  const received: Received[] = [];
  const distinct = new Set<string>();
  let refused = 0;
  let releaseHeld: () => void = () => undefined;
  let onHeld: (id: string) => void = () => undefined;
  const held = new Promise<string>((resolve) => (onHeld = resolve));
  let holding = true;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      // Throws on a bad or missing signature: the request is then refused and counted nowhere.
      const event = webhook.verify(body, request.headers as Record<string, string>) as { id: string; type: string };
      assert.equal(request.headers["webhook-id"], event.id, "webhook-id is the event's id");
      assert.equal(request.headers["content-type"], "application/cloudevents+json");
      const entry: Received = { id: event.id, type: event.type, at: Date.now(), acked: false };
      received.push(entry);
      if (refused < failures) {
        refused += 1;
        response.writeHead(503).end();
        return;
      }
      distinct.add(event.id);
      if (holding && distinct.size === holdAt) {
        holding = false;
        releaseHeld = () => response.destroy();
        onHeld(event.id);
        return;
      }
      entry.acked = true;
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    refusedCount: () => refused,
    held,
    release: () => releaseHeld(),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function eventually(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting until ${what}`);
    await sleep(50);
  }
}

test("--event-webhook: a receiver failing its first tries and a delivering replica killed mid-delivery still get every event, signed, at least once and in commit order", async (t) => {
  const secret = `whsec_${randomBytes(24).toString("base64")}`;
  const hook = await receiver(secret, 3, 3);
  const data = tempRoot("quiver-shared-data-");
  const rootA = tempRoot();
  const rootB = testStoreDialect === "postgres" ? tempRoot() : rootA;
  const store = await testStoreUrl(rootA);
  const processes: ServeProcess[] = [];
  t.after(async () => {
    await Promise.all(processes.map((process) => process.stop("SIGKILL")));
    hook.release();
    await hook.close();
    for (const dir of new Set([data, rootA, rootB])) rmSync(dir, { recursive: true, force: true });
  });
  const serve = async (root: string) => {
    const started = await spawnServe(["--port", "0", "--root", root, "--data", data, ...(store ? ["--store", store] : []), "--event-webhook", hook.url, "--event-webhook-secret", secret]);
    processes.push(started);
    return started;
  };

  const first = await serve(rootA);
  // On PostgreSQL a second replica runs from the start, waiting for the delivery lock.
  const second = testStoreDialect === "postgres" ? await serve(rootB) : undefined;
  const upload = (url: string, route: string, ids: number[]) =>
    fetch(url + route, { method: "POST", headers: { "content-type": "application/vnd.apache.arrow.stream" }, body: arrowStream({ id: Int32Array.from(ids) }) });
  await expectJson(await fetch(`${first.url}/v1/namespace/hooks/create`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }));
  await expectJson(await upload(first.url, "/v1/table/hooks$t/create", [1]));
  await expectJson(await upload(first.url, "/v1/table/hooks$t/insert", [2]));

  // The third distinct event reaches the receiver, which holds its request open: the process
  // delivering dies before any acknowledgement of it.
  const heldId = await hook.held;
  assert.equal(hook.refusedCount(), 3, "the first tries were refused and retried");
  const { samples } = parsePrometheusText(await (await fetch(`${first.url}/metrics`)).text());
  assert.equal(sumOf(samples, "quiver_event_deliveries_total", { outcome: "failed" }), 3, "each refusal is counted");
  assert.equal(sumOf(samples, "quiver_event_deliveries_total", { outcome: "ok" }), 2);
  assert.ok(samples.some((sample) => sample.name === "quiver_event_delivery_lag_seconds"), "the delivery lag is exported");
  await first.stop("SIGKILL");
  const killedAt = Date.now();
  hook.release();

  const survivor = second ?? (await serve(rootA));
  await expectJson(await upload(survivor.url, "/v1/table/hooks$t/insert", [3]));
  const all = (await expectJson(await fetch(`${survivor.url}/v1/events?limit=1000`))).events as { id: string }[];
  await eventually(() => all.every((event) => hook.received.some((got) => got.id === event.id && got.acked)), 30_000, "every event is acknowledged");

  const afterKill = hook.received.filter((got) => got.at >= killedAt);
  assert.equal(afterKill[0]?.id, heldId, "delivery resumes with the event in flight at the kill, not from the start");
  const firstAcks: string[] = [];
  for (const got of hook.received) if (got.acked && !firstAcks.includes(got.id)) firstAcks.push(got.id);
  assert.deepEqual(firstAcks, all.map((event) => event.id), "each event acknowledged first in commit order");
  assert.ok(hook.received.filter((got) => got.id === heldId).length >= 2, "the event in flight was sent again");
});
