/**
 * A bare Fastify server with one JSON route, run as its own process: the ceiling a Fastify-based
 * catalog request can reach on this machine. `bench/catalog-requests.ts` starts it.
 */
import Fastify from "fastify";

const app = Fastify({ logger: false });
app.post("/v1/table/:id/describe", async (request) => ({ table: (request.params as { id: string }).id, namespace: [], version: 1, properties: {} }));
await app.listen({ host: "127.0.0.1", port: 0 });
const address = app.server.address();
console.log(`listening on http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`);
