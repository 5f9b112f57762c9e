// The authorization model (docs/auth.md, "Authorization"): objects, subjects and
// privileges in the grammar of LanceDB's authorization API, where each object sits, the grants
// standing for today's roles, and which privileges a set of grants holds.
import assert from "node:assert/strict";
import { test } from "node:test";
import { CatalogError } from "../../src/model/catalog-error.js";
import { containment } from "../../src/model/authz/containment.js";
import { EffectiveGrants } from "../../src/model/authz/effective-grants.js";
import { type AuthzObject, formatObject, parseObject } from "../../src/model/authz/objects.js";
import { grantableOn, type Privilege, parseGrantablePrivilege, parsePrivilege, privileges, validOn } from "../../src/model/authz/privileges.js";
import { type Grant, roleGrants } from "../../src/model/authz/role-grants.js";
import { describeSubject, formatSubject, parseCanonicalSubject, parseSubject, type SubjectKind } from "../../src/model/authz/subjects.js";
import { checkOperation } from "../../src/model/authz/operation-check.js";
import { type Access, operations } from "../../src/model/operations/index.js";

/** Asserts that `run` refuses with 400 code 13 and a message matching `reason`; returns the message. */
function refuses(run: () => unknown, reason: RegExp): string {
  let message = "";
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof CatalogError, `not a CatalogError: ${String(error)}`);
    assert.equal(error.code, 13);
    assert.match(error.message, reason);
    message = error.message;
    return true;
  });
  return message;
}

const o = parseObject;
const grants = (...pairs: [Privilege, string][]): EffectiveGrants => new EffectiveGrants(pairs.map(([privilege, object]) => ({ privilege, object: o(object) })));

// ── objects ───────────────────────────────────────────────────────────────────────────────────

test("parseObject then formatObject gives back every well-formed object text, root tables written under public", () => {
  const texts = [
    "system",
    "database:sales",
    "namespace:sales:public",
    "namespace:sales:a",
    "namespace:sales:a$b.c$d-e_f",
    "table:sales:public$events",
    "table:sales:a$b$events",
    "view:sales:public$daily",
    "view:sales:a$daily.v2",
  ];
  for (const text of texts) {
    const parsed = parseObject(text);
    assert.equal(formatObject(parsed), text);
    assert.deepEqual(parseObject(formatObject(parsed)), parsed, text);
  }
  assert.deepEqual(parseObject("table:sales:public$events"), { kind: "table", database: "sales", namespace: [], name: "events" });
  assert.deepEqual(parseObject("namespace:sales:public"), { kind: "namespace", database: "sales", namespace: [] });
  assert.deepEqual(parseObject("view:sales:a$b$v"), { kind: "view", database: "sales", namespace: ["a", "b"], name: "v" });
});

test("formatObject writes Quiver ids as LanceDB does: the root namespace as public, parts joined with $", () => {
  const cases: [AuthzObject, string][] = [
    [{ kind: "table", database: "db", namespace: [], name: "events" }, "table:db:public$events"],
    [{ kind: "table", database: "db", namespace: ["a", "b"], name: "events" }, "table:db:a$b$events"],
    [{ kind: "namespace", database: "db", namespace: [] }, "namespace:db:public"],
    [{ kind: "view", database: "db", namespace: ["x"], name: "v" }, "view:db:x$v"],
  ];
  for (const [object, text] of cases) assert.equal(formatObject(object), text);
});

test("parseObject refuses malformed objects → 400, code 13, saying why", () => {
  const cases: [string, RegExp][] = [
    ["", /is not known/],
    ["system:x", /is not known/],
    ["garbage", /is not known/],
    ["future:db:resource", /is not known/],
    ["Table:db:public$t", /is not known/],
    ["database", /names no database/],
    ["table", /names no table/],
    ["database:", /database name must not be empty/],
    ["database:db/child", /database name 'db\/child' may contain only/],
    ["database:db name", /may contain only/],
    ["database:..", /database name '\.\.' is reserved/],
    ["namespace:db", /names no namespace/],
    ["namespace:db:", /empty namespace part/],
    ["namespace:db:a$$b", /empty namespace part/],
    ["view:db:$v", /empty namespace part/],
    ["table:db:public$", /table name must not be empty/],
    ["table:db:events", /names no namespace.*public for the root/],
    ["namespace:db/ns", /names no namespace/],
    ["namespace:db:a:b", /namespace name 'a:b' may contain only/],
    ["table:db:public$x$t", /'public' is the root's and has no children/],
    ["namespace:db:public$x", /'public' is the root's and has no children/],
    ["view:db:public$café", /view name 'café' may contain only/],
    ["table:db:public$..", /table name '\.\.' is reserved/],
    [`table:db:public$${"t".repeat(257)}`, /table name is longer than 256 characters/],
  ];
  for (const [text, reason] of cases) refuses(() => parseObject(text), reason);
});

test("formatObject refuses names Quiver would refuse, and a top-level namespace named public → 400, code 13", () => {
  refuses(() => formatObject({ kind: "database", database: "a:b" }), /database name 'a:b' may contain only/);
  refuses(() => formatObject({ kind: "table", database: "db", namespace: ["ns"], name: "a$b" }), /table name 'a\$b' may contain only/);
  refuses(() => formatObject({ kind: "namespace", database: "db", namespace: ["a", ""] }), /namespace name must not be empty/);
  refuses(() => formatObject({ kind: "namespace", database: "db", namespace: ["public"] }), /stands for the root namespace/);
  refuses(() => formatObject({ kind: "table", database: "db", namespace: ["public", "x"], name: "t" }), /stands for the root namespace/);
});

// ── containment ───────────────────────────────────────────────────────────────────────────────

test("containment lists an object's containers innermost first, ending with system", () => {
  const chain = (text: string) => containment(parseObject(text)).map(formatObject);
  assert.deepEqual(chain("table:db:a$b$events"), ["namespace:db:a$b", "namespace:db:a", "database:db", "system"]);
  assert.deepEqual(chain("view:db:a$v"), ["namespace:db:a", "database:db", "system"]);
  assert.deepEqual(chain("table:db:public$events"), ["namespace:db:public", "database:db", "system"]);
  assert.deepEqual(chain("namespace:db:a$b$c"), ["namespace:db:a$b", "namespace:db:a", "database:db", "system"]);
  assert.deepEqual(chain("namespace:db:a"), ["database:db", "system"]);
  assert.deepEqual(chain("namespace:db:public"), ["database:db", "system"]);
  assert.deepEqual(chain("database:db"), ["system"]);
  assert.deepEqual(chain("system"), []);
});

// ── privileges ────────────────────────────────────────────────────────────────────────────────

test("the twelve privileges are valid on the object kinds LanceDB names", () => {
  assert.deepEqual(
    [...privileges],
    ["OWNERSHIP", "USAGE", "SELECT", "INSERT", "UPDATE", "DELETE", "CREATE_DATABASE", "CREATE_NAMESPACE", "CREATE_TABLE", "CREATE_MATERIALIZED_VIEW", "CREATE_VIEW", "OPERATE"],
  );
  const sorted = (list: readonly string[]) => [...list].sort();
  assert.deepEqual(sorted(validOn.system), sorted(["OPERATE", "CREATE_DATABASE", "USAGE"]));
  assert.deepEqual(sorted(validOn.database), sorted(["OWNERSHIP", "USAGE", "CREATE_NAMESPACE"]));
  assert.deepEqual(sorted(validOn.namespace), sorted(["OWNERSHIP", "USAGE", "CREATE_NAMESPACE", "CREATE_TABLE", "CREATE_MATERIALIZED_VIEW", "CREATE_VIEW"]));
  assert.deepEqual(sorted(validOn.table), sorted(["OWNERSHIP", "SELECT", "INSERT", "UPDATE", "DELETE"]));
  assert.deepEqual(sorted(validOn.view), sorted(["OWNERSHIP", "SELECT"]));
});

test("parsePrivilege takes the exact upper-case names and refuses anything else → 400, code 13", () => {
  for (const privilege of privileges) assert.equal(parsePrivilege(privilege), privilege);
  for (const text of ["select", " SELECT", "SELECT ", "Select", "PRIVILEGE20", "PRIVILEGE", "UNKNOWN", "CREATE-TABLE", ""]) {
    refuses(() => parsePrivilege(text), /is not known: it must be one of OWNERSHIP, USAGE, .*OPERATE/);
  }
});

test("parseGrantablePrivilege takes a container's own privileges and those of what it holds, and refuses the rest → 400, code 13", () => {
  for (const kind of ["system", "database", "namespace", "table", "view"] as const) {
    for (const privilege of validOn[kind]) assert.equal(parseGrantablePrivilege(privilege, kind), privilege, `${privilege} on ${kind}`);
  }
  // Table privileges on a namespace or database cover the tables below (Polaris's rule).
  for (const privilege of ["SELECT", "INSERT", "UPDATE", "DELETE", "CREATE_TABLE", "CREATE_VIEW"] as const) {
    assert.equal(parseGrantablePrivilege(privilege, "database"), privilege);
  }
  assert.equal(parseGrantablePrivilege("SELECT", "namespace"), "SELECT");
  assert.equal(parseGrantablePrivilege("SELECT", "system"), "SELECT");
  const cases: [string, (typeof grantableOn extends Record<infer K, unknown> ? K : never), RegExp][] = [
    ["OWNERSHIP", "system", /cannot be granted on the system: system has no owner to grant/],
    ["OPERATE", "database", /OPERATE cannot be granted on a database: it may be granted on database objects: OWNERSHIP, USAGE/],
    ["CREATE_DATABASE", "namespace", /CREATE_DATABASE cannot be granted on a namespace/],
    ["USAGE", "table", /USAGE cannot be granted on a table: it may be granted on table objects: OWNERSHIP, SELECT, INSERT, UPDATE, DELETE$/],
    ["INSERT", "view", /INSERT cannot be granted on a view: it may be granted on view objects: OWNERSHIP, SELECT$/],
    ["CREATE_TABLE", "table", /CREATE_TABLE cannot be granted on a table/],
    ["select", "table", /is not known/],
  ];
  for (const [text, kind, reason] of cases) refuses(() => parseGrantablePrivilege(text, kind), reason);
});

// ── subjects ──────────────────────────────────────────────────────────────────────────────────

test("parseSubject then formatSubject gives back each kind, its value verbatim", () => {
  const cases: [string, SubjectKind, string][] = [
    ["p:alice-id", "principal_id", "alice-id"],
    ["p:p:id", "principal_id", "p:id"],
    ["P:Alice Smith", "principal_name", "Alice Smith"],
    ["g:team/42", "group_id", "team/42"],
    ["G:Ingénierie", "group_name", "Ingénierie"],
    ["r:reader", "role", "reader"],
    ["a:qk_abc_secret", "principal_api_key", "qk_abc_secret"],
  ];
  for (const [text, kind, value] of cases) {
    assert.deepEqual(parseSubject(text), { kind, value });
    assert.equal(formatSubject(parseSubject(text)), text);
  }
});

test("parseSubject refuses unknown prefixes, empty values, bad role names and control characters → 400, code 13", () => {
  const cases: [string, RegExp][] = [
    ["", /must start with one of p: P: g: G: r: a:/],
    ["no-prefix", /must start with one of/],
    [":value", /must start with one of/],
    ["x:future-subject", /must start with one of/],
    ["R:reader", /must start with one of/],
    ["p:", /a principal_id subject \(p:\) needs a value/],
    ["G:", /a group_name subject \(G:\) needs a value/],
    ["r:", /a role subject \(r:\) needs a value/],
    ["r:read er", /role name 'read er' may contain only/],
    ["g:team\nid", /contains a control character/],
    [`P:${"n".repeat(1025)}`, /longer than 1024 characters/],
  ];
  for (const [text, reason] of cases) refuses(() => parseSubject(text), reason);
});

test("a refused subject never repeats an API key, whatever the refusal → 400, code 13", () => {
  const secret = "qk_1f2e3d_s3cr3tS3cr3tS3cr3t";
  const attempts: [() => unknown, RegExp][] = [
    [() => parseSubject("a:"), /an API key subject needs a value/],
    [() => parseSubject(`a:${secret}\u0000`), /an API key subject contains a control character/],
    [() => parseSubject(`a:${secret}${"x".repeat(1024)}`), /an API key subject is longer than 1024/],
    [() => parseCanonicalSubject(`a:${secret}`), /an API key subject is not accepted here: use p: g: r:/],
    [() => parseSubject(`a:${secret}`, ["principal_id", "group_id"]), /an API key subject is not accepted here/],
    [() => parseSubject(`A:${secret}`), /must start with one of/],
    [() => parseSubject(secret), /must start with one of/],
  ];
  for (const [attempt, reason] of attempts) {
    const message = refuses(attempt, reason);
    assert.ok(!message.includes("s3cr3t"), message);
  }
  assert.equal(describeSubject(parseSubject(`a:${secret}`)), "an API key subject");
  assert.equal(describeSubject(parseSubject("p:alice-id")), "p:alice-id");
});

test("parseCanonicalSubject takes p:, g: and r: only, as listings answer → 400, code 13 for names", () => {
  assert.deepEqual(parseCanonicalSubject("p:alice-id"), { kind: "principal_id", value: "alice-id" });
  assert.deepEqual(parseCanonicalSubject("g:team-id"), { kind: "group_id", value: "team-id" });
  assert.deepEqual(parseCanonicalSubject("r:reader"), { kind: "role", value: "reader" });
  refuses(() => parseCanonicalSubject("P:Alice"), /a principal_name subject \(P:\) is not accepted here: use p: g: r:/);
  refuses(() => parseCanonicalSubject("G:Engineering"), /a group_name subject \(G:\) is not accepted here/);
});

// ── the evaluator ─────────────────────────────────────────────────────────────────────────────

test("a privilege granted on an object holds on it alone, not on its siblings or containers", () => {
  const held = grants(["SELECT", "table:db:a$t"]);
  assert.ok(held.holds("SELECT", o("table:db:a$t")));
  assert.ok(!held.holds("INSERT", o("table:db:a$t")));
  assert.ok(!held.holds("SELECT", o("table:db:a$u")));
  assert.ok(!held.holds("SELECT", o("table:db:public$t")));
  assert.ok(!held.holds("SELECT", o("table:other:a$t")));
  assert.ok(!held.holds("USAGE", o("namespace:db:a")));
});

test("a table privilege granted on a namespace holds on every table and view below it, and nowhere else", () => {
  const held = grants(["SELECT", "namespace:db:a"]);
  for (const text of ["table:db:a$t", "table:db:a$b$c$t", "view:db:a$b$v"]) assert.ok(held.holds("SELECT", o(text)), text);
  for (const text of ["table:db:ab$t", "table:db:b$a$t", "table:db:public$t", "table:other:a$t"]) assert.ok(!held.holds("SELECT", o(text)), text);
  assert.ok(!held.holds("INSERT", o("table:db:a$t")));
});

test("a table privilege granted on a database holds on every table of that database, root tables included", () => {
  const held = grants(["INSERT", "database:db"]);
  assert.ok(held.holds("INSERT", o("table:db:public$t")));
  assert.ok(held.holds("INSERT", o("table:db:a$b$t")));
  assert.ok(!held.holds("INSERT", o("table:db2:public$t")));
  assert.ok(!held.holds("DELETE", o("table:db:public$t")));
});

test("OWNERSHIP holds every privilege on the object owned and on everything below it, not above or beside it", () => {
  const table = grants(["OWNERSHIP", "table:db:a$t"]);
  for (const privilege of validOn.table) assert.ok(table.holds(privilege, o("table:db:a$t")), privilege);
  assert.ok(!table.holds("USAGE", o("namespace:db:a")));
  assert.ok(!table.holds("SELECT", o("table:db:a$u")));
  const namespace = grants(["OWNERSHIP", "namespace:db:a"]);
  assert.ok(namespace.holds("DELETE", o("table:db:a$b$t")));
  assert.ok(namespace.holds("CREATE_TABLE", o("namespace:db:a$b")));
  assert.ok(namespace.holds("USAGE", o("namespace:db:a")));
  assert.ok(!namespace.holds("USAGE", o("database:db")));
  assert.ok(!namespace.holds("OWNERSHIP", o("namespace:db:c")));
});

test("an object is reachable only with USAGE on each namespace and database containing it", () => {
  const table = o("table:db:a$b$t");
  assert.ok(!grants(["SELECT", "table:db:a$b$t"]).allows("SELECT", table), "no USAGE at all");
  assert.ok(!grants(["SELECT", "table:db:a$b$t"], ["USAGE", "namespace:db:a$b"], ["USAGE", "namespace:db:a"]).reachable(table), "no USAGE on the database");
  assert.ok(!grants(["SELECT", "table:db:a$b$t"], ["USAGE", "database:db"], ["USAGE", "namespace:db:a$b"]).reachable(o("table:other:a$b$t")), "USAGE on another database");
  const full = grants(["SELECT", "table:db:a$b$t"], ["USAGE", "database:db"], ["USAGE", "namespace:db:a"], ["USAGE", "namespace:db:a$b"]);
  assert.ok(full.allows("SELECT", table));
  assert.ok(!full.allows("INSERT", table));
  // USAGE granted on a container holds on the namespaces below it too.
  assert.ok(grants(["SELECT", "table:db:a$b$t"], ["USAGE", "database:db"]).allows("SELECT", table));
  // A root table sits in the root namespace, public.
  assert.ok(!grants(["SELECT", "table:db:public$t"], ["USAGE", "namespace:db:a"]).allows("SELECT", o("table:db:public$t")));
  assert.ok(grants(["SELECT", "table:db:public$t"], ["USAGE", "database:db"]).allows("SELECT", o("table:db:public$t")));
});

test("OWNERSHIP of a container reaches everything inside it, but not the container itself from outside", () => {
  const held = grants(["OWNERSHIP", "database:db"]);
  assert.ok(held.allows("DELETE", o("table:db:a$b$t")));
  assert.ok(held.allows("CREATE_NAMESPACE", o("database:db")));
  const namespace = grants(["OWNERSHIP", "namespace:db:a"]);
  assert.ok(!namespace.reachable(o("table:db:a$t")), "the database still needs USAGE");
  assert.ok(grants(["OWNERSHIP", "namespace:db:a"], ["USAGE", "database:db"]).allows("UPDATE", o("table:db:a$b$t")));
});

// ── today's roles as grants ───────────────────────────────────────────────────────────────────

test("roleGrants gives read, write and admin of a database, and deployment-wide, as grants", () => {
  const text = (list: Grant[]) => list.map(({ privilege, object }) => `${privilege} ${formatObject(object)}`).sort();
  assert.deepEqual(text(roleGrants("sales", "read")), ["SELECT database:sales", "USAGE database:sales"]);
  assert.deepEqual(
    text(roleGrants("sales", "write")),
    ["CREATE_MATERIALIZED_VIEW", "CREATE_NAMESPACE", "CREATE_TABLE", "CREATE_VIEW", "DELETE", "INSERT", "SELECT", "UPDATE", "USAGE"].map((p) => `${p} database:sales`),
  );
  assert.deepEqual(text(roleGrants("sales", "admin")), ["OWNERSHIP database:sales"]);
  assert.deepEqual(text(roleGrants(null, "admin")), ["OPERATE system", "OWNERSHIP system"]);
  assert.deepEqual(text(roleGrants(null, "read")), ["SELECT system", "USAGE system"]);
});

const db = "sales";
const table = `table:${db}:a$b$events`;

/** Whether `checkOperation` lets `held` run the operation on a table `a$b$events` or namespace `a$b` of `sales`. */
function checkAllows(held: EffectiveGrants, entry: (typeof operations)[keyof typeof operations]): boolean {
  const id = entry.target === "table" ? ["a", "b", "events"] : entry.target === "namespace" ? ["a", "b"] : [];
  try {
    checkOperation(held, entry.privilege, entry.target, db, id);
    return true;
  } catch (error) {
    assert.ok(error instanceof CatalogError && [1, 4, 15].includes(error.code), String(error));
    return false;
  }
}

const rank: Record<Access, number> = { read: 1, write: 2, admin: 3 };

test("every operation of the table declares its privilege, and each role's grants allow exactly what the role may call (the write role's table restructuring aside)", () => {
  const entries = Object.entries(operations);
  assert.ok(entries.length > 70, "the operation table is read whole");
  const structural: string[] = [];
  for (const [name, entry] of entries) {
    const { needs, on } = entry.privilege;
    assert.ok(needs === "visible" || (typeof needs === "string" ? [needs] : needs).every((privilege) => (privileges as readonly string[]).includes(privilege)), `${name}: needs ${String(needs)}`);
    assert.ok(["object", "parent", "database"].includes(on), `${name}: on ${on}`);
    if (entry.target === "none") assert.equal(on, "database", `${name}: names no object in its path, so its need is on the database`);
    if (entry.access === "read") assert.ok(needs === "visible" || needs === "SELECT" || needs === "USAGE", `${name}: a read needs SELECT or USAGE, not ${String(needs)}`);
    for (const role of ["read", "write", "admin"] as const) {
      for (const database of [db, null]) {
        const allowed = checkAllows(new EffectiveGrants(roleGrants(database, role)), entry);
        const where = database === null ? "deployment-wide" : `on ${database}`;
        const expected = rank[role] >= rank[entry.access];
        if (role === "write" && expected && !allowed && needs === "OWNERSHIP") {
          if (database === db) structural.push(name);
          continue;
        }
        assert.equal(allowed, expected, `${name} (${entry.access}) with ${role} ${where}`);
      }
    }
  }
  // The write role keeps these by its role (auth-gate.ts); through grants they take OWNERSHIP.
  assert.deepEqual(structural.sort(), entries.filter(([, entry]) => entry.access === "write" && entry.privilege.needs === "OWNERSHIP").map(([name]) => name).sort());
  assert.ok(structural.includes("dropTable") && !structural.includes("insertIntoTable"));
});

test("a grant-only caller: a table it holds nothing on is missing (4), a namespace of a database it cannot reach missing (1), a table it sees without the privilege 403 (15)", () => {
  const held = grants(["USAGE", `database:${db}`], ["USAGE", `namespace:${db}:a`], ["INSERT", table.replace("a$b$", "a$")]);
  const code = (run: () => void) => {
    try {
      run();
      return 0;
    } catch (error) {
      return (error as CatalogError).code;
    }
  };
  const need = (needs: Privilege | "visible") => ({ needs, on: "object" as const });
  assert.equal(code(() => checkOperation(held, need("INSERT"), "table", db, ["a", "events"])), 0);
  assert.equal(code(() => checkOperation(held, need("visible"), "table", db, ["a", "events"])), 0);
  assert.equal(code(() => checkOperation(held, need("SELECT"), "table", db, ["a", "events"])), 15);
  assert.equal(code(() => checkOperation(held, need("SELECT"), "table", db, ["a", "other"])), 4);
  // USAGE on the database reaches every namespace in it; their tables still need their own privileges.
  assert.equal(code(() => checkOperation(held, need("visible"), "table", db, ["z", "other"])), 4);
  assert.equal(code(() => checkOperation(held, need("SELECT"), "table", db, ["a", "b", "t"])), 4);
  assert.equal(code(() => checkOperation(held, { needs: "CREATE_TABLE", on: "parent" }, "table", db, ["a", "new"])), 15);
  assert.equal(code(() => checkOperation(grants(["USAGE", "database:other"]), need("SELECT"), "table", db, ["a", "events"])), 1);
});

test("a role on one database allows nothing on another, and only the deployment-wide admin operates the deployment", () => {
  for (const role of ["read", "write", "admin"] as const) {
    const held = new EffectiveGrants(roleGrants(db, role));
    assert.ok(!held.allows("SELECT", o("table:other:public$t")), role);
    assert.ok(!held.reachable(o("table:other:public$t")), role);
    assert.ok(!held.holds("CREATE_DATABASE", o("system")), role);
    assert.ok(!held.holds("OPERATE", o("system")), role);
    assert.ok(!held.holds("USAGE", o("system")), role);
  }
  const databaseAdmin = new EffectiveGrants(roleGrants(db, "admin"));
  assert.ok(databaseAdmin.allows("OWNERSHIP", o(`database:${db}`)), "a database admin owns its database");
  assert.ok(!new EffectiveGrants(roleGrants(db, "write")).holds("OWNERSHIP", o(`database:${db}`)), "write does not own the database");
  assert.ok(!new EffectiveGrants(roleGrants(db, "write")).holds("OWNERSHIP", o(table)), "write grants nothing on tables to others");
  const deploymentAdmin = new EffectiveGrants(roleGrants(null, "admin"));
  for (const privilege of ["OPERATE", "CREATE_DATABASE", "USAGE"] as const) assert.ok(deploymentAdmin.holds(privilege, o("system")), privilege);
  assert.ok(deploymentAdmin.allows("OWNERSHIP", o("database:other")));
  for (const role of ["read", "write"] as const) {
    const deploymentWide = new EffectiveGrants(roleGrants(null, role));
    assert.ok(deploymentWide.allows("SELECT", o("table:other:x$t")), role);
    assert.ok(!deploymentWide.holds("OWNERSHIP", o("database:other")), role);
    assert.ok(!deploymentWide.holds("CREATE_DATABASE", o("system")), role);
    assert.ok(!deploymentWide.holds("OPERATE", o("system")), role);
  }
});
