// Stopping the server while clients still hold connections: browsers open spare connections
// ahead of need and keep them, which must not keep the server from stopping.
import assert from "node:assert/strict";
import net from "node:net";
import { test } from "node:test";
import { expectJson, startTestServer } from "../helpers/test-server.js";

/** Resolves with how `promise` ended, or "still waiting" after `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | "still waiting"> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<"still waiting">((resolve) => (timer = setTimeout(() => resolve("still waiting"), ms)));
  return Promise.race([promise, waited]).finally(() => clearTimeout(timer));
}

test("Closing the server while a client holds a connection it never sent a request on → close finishes and drops it", async (t) => {
  const server = await startTestServer();
  const { port } = new URL(server.url);
  const spare = net.connect(Number(port), "127.0.0.1");
  t.after(() => spare.destroy());
  await new Promise((resolve) => spare.once("connect", resolve));
  // The spare connection is accepted: a request on another one is answered meanwhile.
  await expectJson(await server.get("/health"));
  const ended = new Promise((resolve) => spare.once("close", resolve));
  assert.equal(await within(server.close().then(() => "closed"), 5000), "closed");
  await ended;
});
