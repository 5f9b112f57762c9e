/**
 * @module The audit log: one record per mutating call (who, database, operation, target,
 * outcome, request id, time, call context), listed newest first by admins.
 */
import { randomUUID } from "node:crypto";
import type { AuditRecord } from "../model/admin.js";
import { invalidInput } from "../model/catalog-error.js";
import type { AuditCursor, AuthStore } from "./auth-store.js";

export interface AuditEntry {
  database: string | null;
  principal: string;
  operation: string;
  target: string;
  /** `ok`, `denied` (401/403) or `failed` (any other error). */
  outcome: "ok" | "denied" | "failed";
  status: number;
  errorCode: number | null;
  requestId: string;
  context: Record<string, string>;
}

export async function recordAudit(store: AuthStore, entry: AuditEntry, at = Date.now()): Promise<void> {
  await store.insertAuditRecord({
    id: randomUUID(),
    at,
    database: entry.database,
    principal: entry.principal,
    operation: entry.operation,
    target: entry.target,
    outcome: entry.outcome,
    status: entry.status,
    error_code: entry.errorCode,
    request_id: entry.requestId,
    context: entry.context,
  });
}

/**
 * Audit records of one database (all with undefined), newest first. Default limit 100, at most
 * 1000. The page token is opaque; a malformed one is 13.
 */
export async function listAudit(
  store: AuthStore,
  database: string | undefined,
  pageToken?: string | null,
  limit?: number | null,
): Promise<{ records: AuditRecord[]; page_token?: string }> {
  const size = Math.min(Math.max(limit ?? 100, 1), 1000);
  let before: AuditCursor | undefined;
  if (pageToken) {
    const [at, id] = Buffer.from(pageToken, "base64url").toString("utf8").split("|");
    if (!at || !id || !Number.isSafeInteger(Number(at))) throw invalidInput("page_token is not valid");
    before = { at: Number(at), id };
  }
  const records = await store.listAuditRecords(database, before, size);
  const last = records[records.length - 1];
  if (records.length < size || !last) return { records };
  return { records, page_token: Buffer.from(`${last.at}|${last.id}`, "utf8").toString("base64url") };
}
