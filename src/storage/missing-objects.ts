/**
 * @module Reads of an object that may not exist: every backend answers a missing object with
 * `undefined` rather than its SDK's error, and says itself which errors mean "missing".
 */

/** `operation`'s result, or undefined when it failed because the object is missing. */
export async function undefinedWhenMissing<T>(operation: Promise<T>, isMissing: (error: unknown) => boolean): Promise<T | undefined> {
  try {
    return await operation;
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}
