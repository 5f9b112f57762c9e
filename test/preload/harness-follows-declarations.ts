/**
 * Loaded into every test process by `npm test` (`--import`). The test runner's harness creates an
 * async hook that follows every promise and resource of the process: a `test()` or `it()` call
 * finds the suite or test it belongs to by the resource it runs in, and an uncaught error the test
 * it came from. Following every promise of a test's in-process servers cost a fifth of a server
 * test's CPU. The harness's hook is narrowed here to what declaring tests needs: the tests and
 * suites themselves, and what a suite's body starts while it declares its tests (a body may await,
 * as a batch's file awaits the import of each file it runs). What a test or hook runs is not
 * followed: a test's body names its subtests through its context (`t.test`), as ours do, and an
 * uncaught error after its first await fails the file instead of the test. Every other async hook
 * is created as asked.
 */
import asyncHooks from "node:async_hooks";

const createHook = asyncHooks.createHook;

/** Whether createHook's caller is the harness itself, not code a test runs (whose stack passes through the harness too). */
function calledByHarness(stack: string | undefined): boolean {
  // [0] the message, [1] the replacement below, [2] its caller.
  return stack?.split("\n")[2]?.includes("(node:internal/test_runner/harness:") ?? false;
}

/**
 * The harness's hook told only of test resources and of what descends from a suite's body. It has
 * no `destroy`: with one, every promise of the process is tracked until collected, the cost this
 * avoids; the few resources it is told of live as long as the file's tests.
 */
function declarationHook({ init }: asyncHooks.HookCallbacks): asyncHooks.AsyncHook {
  const declaring = new Set<number>();
  return createHook({
    init(asyncId, type, triggerAsyncId, resource) {
      if (type === "Test") {
        if ((resource as object).constructor.name === "Suite") declaring.add(asyncId);
      } else if (declaring.has(triggerAsyncId)) {
        declaring.add(asyncId);
      } else {
        return;
      }
      init?.(asyncId, type, triggerAsyncId, resource);
    },
  });
}

asyncHooks.createHook = (callbacks) => (calledByHarness(new Error().stack) ? declarationHook(callbacks) : createHook(callbacks));
