/**
 * @module The ordered migration set shared by every dialect. Add a file, then list it here;
 * never edit a migration that has shipped. A text column a later migration adds on PostgreSQL
 * must say `collate "C"` (see 0007).
 */
import type { Migration, MigrationProvider } from "kysely";
import * as m0001 from "./0001-catalog.js";
import * as m0002 from "./0002-versions.js";
import * as m0003 from "./0003-auth.js";
import * as m0004 from "./0004-jobs.js";
import * as m0005 from "./0005-signing-keys.js";
import * as m0006 from "./0006-database-storage-options.js";
import * as m0007 from "./0007-byte-order-text.js";
import * as m0008 from "./0008-shared-table-data.js";
import * as m0009 from "./0009-databases-follow-data-location.js";
import * as m0010 from "./0010-idempotency-keys.js";
import * as m0011 from "./0011-rate-limits.js";
import * as m0012 from "./0012-dropped-tables.js";
import * as m0013 from "./0013-change-events.js";
import * as m0014 from "./0014-multipart-writes.js";
import * as m0015 from "./0015-table-heads.js";
import * as m0016 from "./0016-change-event-database-numbers.js";
import * as m0017 from "./0017-authz.js";
import * as m0018 from "./0018-database-auto-maintenance.js";
import * as m0019 from "./0019-outside-writers.js";

const migrations: Record<string, Migration> = {
  "0001-catalog": m0001,
  "0002-versions": m0002,
  "0003-auth": m0003,
  "0004-jobs": m0004,
  "0005-signing-keys": m0005,
  "0006-database-storage-options": m0006,
  "0007-byte-order-text": m0007,
  "0008-shared-table-data": m0008,
  "0009-databases-follow-data-location": m0009,
  "0010-idempotency-keys": m0010,
  "0011-rate-limits": m0011,
  "0012-dropped-tables": m0012,
  "0013-change-events": m0013,
  "0014-multipart-writes": m0014,
  "0015-table-heads": m0015,
  "0016-change-event-database-numbers": m0016,
  "0017-authz": m0017,
  "0018-database-auto-maintenance": m0018,
  "0019-outside-writers": m0019,
};

/** Every migration this build knows, in order. */
export const knownMigrations: readonly string[] = Object.keys(migrations);

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
