/** @module What the cloud object-store backends (`s3://`, `gs://`, `az://`) can do alike. */
import type { BackendCapabilities } from "./storage-backend.js";

/**
 * A cloud object store's capabilities: no shallow clones (Lance's clone would open the source
 * without the options a cloud store needs); a conditional create probed per location, because an
 * endpoint option may point the backend at an emulator, a gateway or a compatible store that
 * ignores it; and every vending mode.
 */
export const objectStoreCapabilities: BackendCapabilities = {
  shallowClone: false,
  conditionalCreate: "probed",
  vendingModes: ["scoped", "static", "none"],
};
