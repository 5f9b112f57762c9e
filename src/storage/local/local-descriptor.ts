/** @module Local folders as a backend: no secrets, no client options, clones and exclusive creates of their own. */
import type { BackendDescriptor } from "../storage-backend.js";

export const localDescriptor: BackendDescriptor = {
  scheme: "file",
  secretKeys: [],
  quiverKeys: [],
  capabilities: {
    // Lance opens a local source by path, which needs no storage options.
    shallowClone: true,
    // `LocalStorage.putIfAbsent` hard-links into place, which the file system refuses twice.
    conditionalCreate: "native",
    // Clients open a local table by its path alone.
    vendingModes: [],
  },
};
