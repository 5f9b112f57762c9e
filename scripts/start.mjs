// `npm start`: rebuilds when a source changed (build-if-stale.mjs), then runs `quiver serve` with
// the arguments given after `--`, in this same process: a separate prestart step would cost one
// more shell and Node start before the server's own process is even spawned.
import "./build-if-stale.mjs";

process.argv.splice(2, 0, "serve");
// Imported only now: the build above may just have written it.
await import("../dist/src/bin/main.js");
