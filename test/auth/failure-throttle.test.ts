// The per-source failure table behind slowed 401s: its delays, its window and its bound.
import assert from "node:assert/strict";
import { test } from "node:test";
import { FailureThrottle, defaultThrottlePolicy } from "../../src/server/auth/failure-throttle.js";
import { sourceOfAddress } from "../../src/server/auth/request-source.js";

test("failures of one source: ten answered at once, then 100 ms doubling up to 5 s; a new window starts after a minute", () => {
  const throttle = new FailureThrottle();
  const delays = Array.from({ length: 18 }, (_, i) => throttle.count("10.0.0.1", 1000 + i));
  assert.deepEqual(delays, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 100, 200, 400, 800, 1600, 3200, 5000, 5000]);
  assert.equal(throttle.count("10.0.0.2", 2000), 0, "another source has its own count");
  assert.equal(throttle.count("10.0.0.1", 1000 + defaultThrottlePolicy.windowMs + 1), 0, "a minute after the first failure the count starts again");
});

test("100,000 failing sources → the table holds at most 10,000, forgetting the one that failed longest ago", () => {
  const throttle = new FailureThrottle();
  for (let i = 0; i < 11; i += 1) throttle.count("198.51.100.7", i);
  for (let i = 0; i < 100_000; i += 1) throttle.count(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, 100 + i);
  assert.equal(throttle.size, defaultThrottlePolicy.maxSources);
  assert.equal(throttle.count("198.51.100.7", 200_000), 0, "the oldest source was forgotten");
});

test("sources: IPv4 as is, IPv4-mapped IPv6 as IPv4, IPv6 by its /64 network", () => {
  assert.equal(sourceOfAddress("203.0.113.9"), "203.0.113.9");
  assert.equal(sourceOfAddress("::ffff:203.0.113.9"), "203.0.113.9");
  assert.equal(sourceOfAddress("2001:db8:0:1::5"), "2001:db8:0:1::/64");
  assert.equal(sourceOfAddress("2001:db8:0:1:ffff:1:2:3"), "2001:db8:0:1::/64");
  assert.equal(sourceOfAddress("::1"), "0:0:0:0::/64");
  assert.equal(sourceOfAddress("fe80::1%eth0"), "fe80:0:0:0::/64");
});
