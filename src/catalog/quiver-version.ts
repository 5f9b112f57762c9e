/** @module The running Quiver's version, from its package.json: the server and the `dir` client report the same. */
import { readFileSync } from "node:fs";

export const quiverVersion: string = (
  JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version: string }
).version;
