/**
 * @module The question a view's refresh asks of authorization: may the view's owner still read
 * its source? Declared here, below both the catalog that asks it and auth that answers it.
 */

/** Whether the owner of the view `view` of `database` may still read its source table `source`. */
export type OwnerMayRead = (database: string, view: readonly string[], source: readonly string[]) => Promise<boolean>;
