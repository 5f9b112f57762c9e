/**
 * @module Request budgets as the rate limiter and the store both speak of them: the limiter keeps
 * them in memory on one process, the store shares them between replicas.
 */

/** One budget: a request costs `intervalSeconds`; at most `toleranceSeconds` of them may be owed. */
export interface RateCell {
  key: string;
  intervalSeconds: number;
  toleranceSeconds: number;
}

/** What taking a request from budgets answered: admitted, or refused by one of them until a wait. */
export type RateTake = { admitted: true } | { admitted: false; refusedKey: string; waitSeconds: number };
