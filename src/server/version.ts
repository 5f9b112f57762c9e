/** @module The running Quiver's version, from its package.json. */
export { quiverVersion } from "../catalog/quiver-version.js";
