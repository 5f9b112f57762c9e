/** @module Every spec model, one import for the catalog facade and the client. */
export * from "./common.js";
export * from "./namespace.js";
export * from "./table.js";
export * from "./schema-json.js";
export * from "./materialized-view.js";
export * from "./job.js";
export * from "./backfill.js";
