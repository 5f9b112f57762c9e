/**
 * @module The backends Quiver serves, as their descriptors: the one list the shared storage code
 * asks which backend a location belongs to, which keys are secret and what a backend can do. What
 * a backend is lives in its own folder; this only lists them.
 */
import { azureDescriptor } from "./azure/azure-descriptor.js";
import { gcsDescriptor } from "./gcs/gcs-descriptor.js";
import { localDescriptor } from "./local/local-descriptor.js";
import { isUri, schemeOf } from "./locations.js";
import { s3Descriptor } from "./s3/s3-descriptor.js";
import type { BackendCapabilities, BackendDescriptor } from "./storage-backend.js";

/** Every backend: local folders first, then the object stores. */
export const backendDescriptors: readonly BackendDescriptor[] = [localDescriptor, azureDescriptor, s3Descriptor, gcsDescriptor];

/** The object-store backends, those served by URI scheme. */
export function objectStoreDescriptors(): BackendDescriptor[] {
  return backendDescriptors.filter((descriptor) => descriptor.load !== undefined);
}

/** The backend of `location`: local folders for a path, else the one of its scheme; undefined for a scheme Quiver does not serve. */
export function descriptorOf(location: string): BackendDescriptor | undefined {
  if (!isUri(location)) return localDescriptor;
  const scheme = schemeOf(location);
  return objectStoreDescriptors().find((descriptor) => descriptor.scheme === scheme);
}

/** What the backend of `location` can do; undefined for a scheme Quiver does not serve. */
export function capabilitiesOf(location: string): BackendCapabilities | undefined {
  return descriptorOf(location)?.capabilities;
}
