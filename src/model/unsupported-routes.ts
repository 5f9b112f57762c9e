/**
 * @module Routes that clients call and Quiver does not serve, each with the feature it belongs
 * to, so such a call is answered 406 (code 0) naming that feature rather than a bare "no
 * operation". The LanceDB 0.39 client sends every one of these (spec/clients.md §2.3). A route
 * here that some operation later serves is never consulted: served routes answer first.
 */

export interface UnsupportedRoute {
  method: "GET" | "POST";
  /** Path template in OpenAPI form; a `{param}` is one path segment. */
  path: string;
  /** What the caller is told, a sentence naming the feature. */
  feature: string;
}

const lsm = "LSM tables (setting and removing write specs, flushes, compactions) are a LanceDB Enterprise feature this server does not serve";
const functions = "functions are a LanceDB Enterprise feature this server does not serve";

export const unsupportedRoutes: readonly UnsupportedRoute[] = [
  { method: "POST", path: "/v1/table/{id}/set_lsm_write_spec", feature: lsm },
  { method: "POST", path: "/v1/table/{id}/unset_lsm_write_spec", feature: lsm },
  { method: "POST", path: "/v1/table/{id}/flush_lsm", feature: lsm },
  { method: "POST", path: "/v1/table/{id}/compact_lsm", feature: lsm },
  { method: "POST", path: "/v1/functions/create", feature: functions },
  { method: "POST", path: "/v1/functions/get", feature: functions },
  // The 0.39 client's function registry: per function, and listed per namespace.
  { method: "POST", path: "/v1/function/{name}/create", feature: functions },
  { method: "POST", path: "/v1/function/{name}/describe", feature: functions },
  { method: "POST", path: "/v1/function/{name}/drop", feature: functions },
  { method: "GET", path: "/v1/namespace/{id}/function/list", feature: functions },
];

const matchers = unsupportedRoutes.map((route) => ({
  route,
  pattern: new RegExp(`^${route.path.split("/").map((part) => (/^\{\w+\}$/.test(part) ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("/")}$`),
}));

/** The unsupported route at `path` (any method: the feature is the answer either way), if any. */
export function unsupportedRouteAt(path: string): UnsupportedRoute | undefined {
  const normalized = path.replace(/\/{2,}/g, "/").replace(/(.)\/+$/, "$1");
  return matchers.find(({ pattern }) => pattern.test(normalized))?.route;
}
