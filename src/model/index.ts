/** @module Every spec model, one import for the catalog facade and the client. */
export * from "./common.js";
export * from "./namespace.js";
export * from "./table.js";
export * from "./clone.js";
export * from "./schema-json.js";
export * from "./admin.js";
export * from "./data.js";
export * from "./query.js";
export * from "./schema-evolution.js";
export * from "./indexes.js";
export * from "./versions.js";
export * from "./tags.js";
export * from "./branches.js";
export * from "./transactions.js";
export * from "./materialized-view.js";
export * from "./job.js";
export * from "./backfill.js";
