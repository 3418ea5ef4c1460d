import { deepStrictEqual, ok, rejects, strictEqual, throws } from "node:assert/strict";
import fc from "fast-check";
import { VALIDATORS_ADCP_VERSION } from "@adcp-wire/schemas/validators";
import { JsonDepthLimitError, toSafeJson } from "@adcp-wire/security";
import {
  DEFAULT_MAX_ISSUES,
  knownTasks,
  loadTaskValidator,
  validateTaskResponse,
  type ValidationIssue,
} from "./mod.ts";
import { clone, pinnedAtLeast, readFixture, readSchema, schemaExample } from "./_test_util.ts";

type Payload = Record<string, unknown>;

/**
 * One schema family (a manifest `protocol`): a valid payload and a broken copy with its exact first
 * issue.
 */
interface FamilyCase {
  family: string;
  task: string;
  /** The first AdCP version that has the task (every locked version when absent). */
  since?: string;
  valid: () => Promise<Payload>;
  break: (p: Payload) => void;
  pointer: string;
  keyword: string;
}

// deno-lint-ignore no-explicit-any
type Any = any;

const CASES: FamilyCase[] = [
  {
    family: "media-buy",
    task: "get_products",
    valid: () => readFixture("get_products_response.json"),
    break: (p: Any) => void (p.products[0].delivery_type = "sometimes"),
    pointer: "/products/0/delivery_type",
    keyword: "enum",
  },
  {
    family: "account",
    task: "list_accounts",
    valid: () => schemaExample("account/list-accounts-response.json"),
    break: (p: Any) => void delete p.accounts[1].account_id,
    pointer: "/accounts/1/account_id",
    keyword: "required",
  },
  {
    family: "creative",
    task: "list_creatives",
    valid: () => schemaExample("creative/list-creatives-response.json"),
    break: (p: Any) => void (p.creatives[0].created_date = "yesterday"),
    pointer: "/creatives/0/created_date",
    keyword: "format",
  },
  {
    family: "compliance",
    task: "comply_test_controller",
    valid: () => schemaExample("compliance/comply-test-controller-response.json"),
    break: (p: Any) => void (p.success = "yes"),
    pointer: "/success",
    keyword: "type",
  },
  {
    family: "protocol",
    task: "get_task_status",
    valid: () =>
      Promise.resolve({
        task_id: "task_42",
        task_type: "create_media_buy",
        protocol: "media-buy",
        status: "working",
        created_at: "2026-07-01T09:00:00Z",
        updated_at: "2026-07-01T09:05:00Z",
      }),
    break: (p: Any) => void (p.updated_at = "five minutes later"),
    pointer: "/updated_at",
    keyword: "format",
  },
  {
    family: "protocol",
    task: "sync_agent_notification_configs",
    since: "3.2.0-beta.5",
    valid: () => schemaExample("protocol/sync-agent-notification-configs-response.json"),
    break: (p: Any) => void (p.notification_configs[0].url = "not a url"),
    pointer: "/notification_configs/0/url",
    keyword: "format",
  },
  {
    family: "brand",
    task: "search_brands",
    valid: () =>
      Promise.resolve({
        status: "completed",
        // `house` is required in AdCP 3.1.19 and optional from 3.2.0-beta.5 on.
        brands: [
          {
            brand_id: "spark",
            house: { domain: "spark-house.example", name: "Spark House" },
            names: [{ en_US: "Spark" }, { fr_CA: "Étincelle" }],
          },
          {
            brand_id: "nova",
            house: { domain: "nova-house.example", name: "Nova House" },
            names: [{ en_US: "Nova Brands" }],
          },
        ],
      }),
    break: (p: Any) => void (p.brands[1].names = "Nova Brands"),
    pointer: "/brands/1/names",
    keyword: "type",
  },
  {
    family: "content-standards",
    task: "list_content_standards",
    valid: () =>
      Promise.resolve({
        status: "completed",
        standards: [{ standards_id: "cs_brand_safety_v2" }, { standards_id: "cs_news_adjacency" }],
      }),
    break: (p: Any) => void (p.standards[0].standards_id = 7),
    pointer: "/standards/0/standards_id",
    keyword: "type",
  },
  {
    family: "property",
    task: "list_property_lists",
    valid: () =>
      Promise.resolve({
        status: "completed",
        lists: [{ list_id: "pl_premium_news", name: "Premium news sites" }],
      }),
    break: (p: Any) => void delete p.lists[0].name,
    pointer: "/lists/0/name",
    keyword: "required",
  },
  {
    family: "governance",
    task: "check_governance",
    valid: () =>
      Promise.resolve({
        status: "completed",
        plan_id: "plan_q3_ctv",
        check_id: "chk_0001",
        verdict: "approved",
        explanation: "Spend is within the approved plan budget.",
        expires_at: "2026-07-01T00:00:00Z",
      }),
    break: (p: Any) => void (p.verdict = "maybe"),
    pointer: "/verdict",
    keyword: "enum",
  },
  {
    family: "collection",
    task: "list_collection_lists",
    valid: () =>
      Promise.resolve({
        status: "completed",
        lists: [{ list_id: "cl_cooking_shows", name: "Cooking shows" }],
      }),
    break: (p: Any) => void (p.lists = { list_id: "cl_cooking_shows" }),
    pointer: "/lists",
    keyword: "type",
  },
  {
    family: "sponsored-intelligence",
    task: "si_terminate_session",
    valid: () =>
      Promise.resolve({ status: "completed", session_id: "si_sess_42", terminated: true }),
    break: (p: Any) => void (p.terminated = "true"),
    pointer: "/terminated",
    keyword: "type",
  },
  {
    family: "signals",
    task: "get_signals",
    valid: () =>
      Promise.resolve({
        status: "completed",
        cache_scope: "public",
        signals: [{
          signal_agent_segment_id: "seg_auto_intenders",
          signal_ref: {
            scope: "data_provider",
            data_provider_domain: "pinnacle-data.example",
            signal_id: "auto_intenders",
          },
          name: "Auto intenders",
          description: "Households researching a new car in the last 30 days.",
          signal_type: "marketplace",
          deployments: [{ type: "platform", platform: "the-trade-desk", is_live: false }],
        }],
      }),
    break: (p: Any) => void delete p.signals[0].deployments[0].is_live,
    pointer: "/signals/0/deployments/0/is_live",
    keyword: "required",
  },
];

/** The cases of the tasks the pinned AdCP version has. */
const PINNED_CASES = CASES.filter((c) => c.since === undefined || pinnedAtLeast(c.since));

Deno.test("the family cases cover every protocol of the manifest", async () => {
  const manifest = await readSchema("manifest.json") as {
    tools: Record<string, { protocol: string }>;
  };
  const families = new Set(Object.values(manifest.tools).map((t) => t.protocol));
  deepStrictEqual(new Set(PINNED_CASES.map((c) => c.family)), families);
  for (const c of CASES) {
    // A case's task is in the manifest exactly from its `since` version on.
    const has = c.since === undefined || pinnedAtLeast(c.since);
    strictEqual(manifest.tools[c.task]?.protocol, has ? c.family : undefined, c.task);
    strictEqual(knownTasks().includes(c.task), has, c.task);
  }
});

for (const c of PINNED_CASES) {
  Deno.test(`validateTaskResponse() accepts a valid ${c.task} response (${c.family})`, async () => {
    const payload = await c.valid();
    const result = await validateTaskResponse(c.task, payload);
    ok(result.valid, JSON.stringify(!result.valid && result.issues));
    deepStrictEqual(result.value, payload);
    ok(result.value !== payload);
    strictEqual(result.schemas.length, 1);
  });

  Deno.test(
    `validateTaskResponse() rejects a broken ${c.task} response at ${c.pointer} ` +
      `(${c.family})`,
    async () => {
      const payload = clone(await c.valid());
      c.break(payload);
      const result = await validateTaskResponse(c.task, payload);
      ok(!result.valid);
      const first = result.issues[0]!;
      strictEqual(first.pointer, c.pointer);
      strictEqual(first.keyword, c.keyword);
      ok(first.message.length > 0);
    },
  );
}

Deno.test(
  "validateTaskResponse() reports a oneOf failure with its branches, inner first",
  async () => {
    const result = await validateTaskResponse("search_brands", { status: "completed" });
    ok(!result.valid);
    deepStrictEqual(result.issues, [
      { pointer: "/brands", message: 'Missing required property "brands"', keyword: "required" },
      { pointer: "/errors", message: 'Missing required property "errors"', keyword: "required" },
      {
        pointer: "",
        message: "Expected a value matching exactly one of the allowed shapes",
        keyword: "oneOf",
      },
    ]);
  },
);

Deno.test("validateTaskResponse() chooses the schema by status, not by the payload", async () => {
  const working = { status: "completed", percentage: 30 };
  const asWorking = await validateTaskResponse("get_products", working, { status: "working" });
  ok(asWorking.valid);
  deepStrictEqual(asWorking.schemas, ["media-buy/get-products-async-response-working.json"]);

  const asCompleted = await validateTaskResponse("get_products", working);
  ok(!asCompleted.valid);
  deepStrictEqual(asCompleted.schemas, ["media-buy/get-products-response.json"]);

  for (const status of ["failed", "canceled", "rejected"] as const) {
    const r = await validateTaskResponse("get_products", working, { status });
    deepStrictEqual(r.schemas, ["media-buy/get-products-response.json"], status);
  }
});

Deno.test(
  "validateTaskResponse() checks interim payloads when their status has a schema",
  async () => {
    const submitted = await validateTaskResponse(
      "get_products",
      { status: "submitted", task_id: 7 },
      { status: "submitted" },
    );
    ok(!submitted.valid);
    strictEqual(submitted.issues[0]?.pointer, "/task_id");
    strictEqual(submitted.issues[0]?.keyword, "type");
    deepStrictEqual(submitted.schemas, ["media-buy/get-products-async-response-submitted.json"]);

    const input = await validateTaskResponse(
      "get_products",
      { reason: "BUDGET_REQUIRED", suggestions: ["50000 USD"] },
      { status: "input-required" },
    );
    ok(input.valid);
  },
);

Deno.test("validateTaskResponse() passes interim payloads whose status has no schema", async () => {
  // activate_signal has no async schemas; get_products has no auth-required schema; unknown has
  // none anywhere.
  for (
    const [task, status] of [
      ["activate_signal", "working"],
      ["get_products", "auth-required"],
      ["get_products", "unknown"],
    ] as const
  ) {
    const data = { anything: [1, "two"], percentage: "not a number" };
    const result = await validateTaskResponse(task, data, { status });
    ok(result.valid, `${task} ${status}`);
    deepStrictEqual(result.value, data);
    deepStrictEqual(result.schemas, []);
  }
});

Deno.test(
  "validateTaskResponse() validates terminal_schema_overrides task types (from AdCP " +
    "3.2.0-beta.5; 3.1.19's manifest has none)",
  async () => {
    const manifest = await readSchema("manifest.json");
    if (!pinnedAtLeast("3.2.0-beta.5")) {
      strictEqual(manifest.task_result_resolution, undefined);
      ok(!knownTasks().includes("media_buy_delivery"));
      await rejects(validateTaskResponse("media_buy_delivery", {}), TypeError);
      return;
    }
    ok(knownTasks().includes("media_buy_delivery"));
    const result = await validateTaskResponse("media_buy_delivery", { notification_type: 3 });
    ok(!result.valid);
    deepStrictEqual(result.schemas, ["media-buy/media-buy-delivery-webhook-result.json"]);
  },
);

Deno.test(
  "validateTaskResponse() validates and returns the copy without dangerous keys",
  async () => {
    const raw = JSON.parse(
      '{"__proto__":{"polluted":true},"percentage":10,' +
        '"nested":{"constructor":{"prototype":{"x":1}},"ok":1}}',
    );
    const result = await validateTaskResponse("get_products", raw, { status: "working" });
    ok(result.valid);
    deepStrictEqual(result.value, { percentage: 10, nested: { ok: 1 } });
    strictEqual(Object.getPrototypeOf(result.value), Object.prototype);
    strictEqual(({} as Record<string, unknown>).polluted, undefined);
  },
);

Deno.test(
  "validateTaskResponse() throws a TypeError listing the known tasks for an unknown one",
  async () => {
    await rejects(
      validateTaskResponse("get_prodcuts", {}),
      (e: unknown) => {
        ok(e instanceof TypeError);
        ok(
          e.message.startsWith(
            "Cannot validate a task response as 'task' must be a task of AdCP " +
              `${VALIDATORS_ADCP_VERSION} (`,
          ),
        );
        ok(e.message.includes("get_products, get_property_list"));
        ok(e.message.endsWith('): current value is "get_prodcuts"'));
        return true;
      },
    );
    for (const name of ["__proto__", "constructor", "toString", ""]) {
      await rejects(validateTaskResponse(name, {}), TypeError, name);
    }
    await rejects(
      validateTaskResponse(42 as unknown as string, {}),
      (e: unknown) =>
        e instanceof TypeError &&
        e.message ===
          "Cannot validate a task response as 'task' must be a string: current value is 42",
    );
    await rejects(
      loadTaskValidator("nope"),
      /^TypeError: Cannot load a task validator as 'task' must be a task of AdCP/,
    );
  },
);

Deno.test("validateTaskResponse() checks its options", async () => {
  await rejects(
    validateTaskResponse("get_products", {}, { status: "done" as never }),
    /'options\.status' must be a task status \(submitted, .*\): current value is "done"$/,
  );
  await rejects(
    validateTaskResponse("get_products", {}, { maxIssues: 0 }),
    (e: unknown) =>
      e instanceof RangeError &&
      e.message ===
        "Cannot validate a task response as 'options.maxIssues' must be a positive safe integer: " +
          "current value is 0",
  );
  await rejects(validateTaskResponse("get_products", {}, [] as never), TypeError);
});

Deno.test(
  "validateTaskResponse() caps the issues at maxIssues, keeping the enclosing failure",
  async () => {
    const data = { status: "completed" };
    const all = await validateTaskResponse("search_brands", data);
    ok(!all.valid);
    strictEqual(all.issues.length, 3);
    const one = await validateTaskResponse("search_brands", data, { maxIssues: 1 });
    ok(!one.valid);
    deepStrictEqual(one.issues, [all.issues[2]]);
    const two = await validateTaskResponse("search_brands", data, { maxIssues: 2 });
    ok(!two.valid);
    deepStrictEqual(two.issues, [all.issues[0], all.issues[2]]);
    strictEqual(DEFAULT_MAX_ISSUES, 20);
  },
);

Deno.test("validateTaskResponse() enforces the copy limits before validating", async () => {
  let deep: unknown = 1;
  for (let i = 0; i < 100; i++) deep = [deep];
  await rejects(
    validateTaskResponse("get_products", { percentage: 1, deep }, { status: "working" }),
    JsonDepthLimitError,
  );
  await rejects(
    validateTaskResponse("get_products", { when: new Date(0) }, { status: "working" }),
    TypeError,
  );
  const shallow = { limits: { maxJsonDepth: 1 }, status: "working" } as const;
  await rejects(validateTaskResponse("get_products", { a: [1] }, shallow), JsonDepthLimitError);
  ok((await validateTaskResponse("get_products", { percentage: 1 }, shallow)).valid);
  await rejects(
    validateTaskResponse("get_products", {}, { limits: { maxDepth: 1 } as never }),
    // The 0.1 name is refused as an unknown key of `options.limits`, with the new name.
    {
      name: "TypeError",
      message: "Cannot validate a task response as 'options.limits.maxDepth' must be a known " +
        "option (the nearest is 'options.limits.maxJsonDepth'): current value is 1",
    },
  );
});

Deno.test("loadTaskValidator() gives a synchronous validator with the task's schemas", async () => {
  const v = await loadTaskValidator("get_products");
  strictEqual(v.task, "get_products");
  strictEqual(v.responseSchema, "media-buy/get-products-response.json");
  deepStrictEqual(v.interimSchemas, {
    submitted: "media-buy/get-products-async-response-submitted.json",
    working: "media-buy/get-products-async-response-working.json",
    "input-required": "media-buy/get-products-async-response-input-required.json",
  });
  const fixture = await readFixture("get_products_response.json");
  const result = v.validate(fixture);
  ok(result.valid);
  throws(
    () => v.validate({}, { status: "nope" as never }),
    /^TypeError: Cannot validate with a loaded task validator as 'options\.status'/,
  );
  ok(Object.isFrozen(v));
});

Deno.test("knownTasks() lists the manifest's tools and override task types, sorted", async () => {
  const manifest = await readSchema("manifest.json") as {
    tools: Record<string, unknown>;
    task_result_resolution?: { terminal_schema_overrides?: Record<string, string> };
  };
  const expected = [
    ...Object.keys(manifest.tools),
    ...Object.keys(manifest.task_result_resolution?.terminal_schema_overrides ?? {}),
  ].sort();
  deepStrictEqual(knownTasks(), expected);
});

/** RFC 6901: tokens separated by "/", with "~" only in "~0" and "~1". */
function isPointer(p: string): boolean {
  return p === "" ||
    (p.startsWith("/") && p.split("/").slice(1).every((t) => !/~(?![01])/.test(t)));
}

function checkIssues(issues: readonly ValidationIssue[]): void {
  ok(issues.length >= 1 && issues.length <= DEFAULT_MAX_ISSUES);
  for (const i of issues) {
    ok(isPointer(i.pointer), i.pointer);
    ok(i.message.length > 0 && i.message.length <= 300);
    ok(/^[A-Za-z$ ]+$/.test(i.keyword), i.keyword);
  }
}

Deno.test(
  "validateTaskResponse() returns a safe copy or well-formed issues for any JSON (property)",
  async () => {
    const validator = await loadTaskValidator("get_products");
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 6 }),
        fc.constantFrom("completed", "working", "submitted", "input-required", "unknown" as const),
        (data, status) => {
          const result = validator.validate(data, { status });
          if (result.valid) deepStrictEqual(result.value, toSafeJson(data));
          else checkIssues(result.issues);
        },
      ),
      { numRuns: 300 },
    );
  },
);

Deno.test(
  "validateTaskResponse() never quotes seller keys or values in messages (property)",
  async () => {
    const validator = await loadTaskValidator("get_products");
    const marker = "SELLER_MARKER_";
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string({ maxLength: 20 }).map((s) => marker + s),
          fc.string({ maxLength: 20 }).map((s) => marker + s),
        ),
        (extra) => {
          const product = { product_id: marker, delivery_type: marker, ...extra };
          const result = validator.validate({
            status: "completed",
            cache_scope: marker,
            products: [product],
          });
          ok(!result.valid);
          for (const i of result.issues) ok(!i.message.includes(marker), i.message);
        },
      ),
      { numRuns: 100 },
    );
  },
);

Deno.test("every validator runs where code generation from strings is forbidden", async () => {
  const worker = new Worker(new URL("./testdata/no_codegen_worker.ts", import.meta.url), {
    type: "module",
  });
  try {
    const { blocked, results } = await new Promise<
      { blocked: boolean; results: Record<string, boolean> }
    >((resolve, reject) => {
      worker.onmessage = (e) => resolve(e.data);
      worker.onerror = (e) => {
        e.preventDefault();
        reject(new Error(e.message));
      };
    });
    strictEqual(blocked, true);
    deepStrictEqual(Object.keys(results).length, knownTasks().length + 3);
    strictEqual(results["core/error.json"], true);
    strictEqual(results["core/mcp-webhook-payload.json"], false);
    strictEqual(results["error-details/rate-limited.json"], true);
    strictEqual(results["get_products"], false);
  } finally {
    worker.terminate();
  }
});

Deno.test(
  "validateTaskResponse() refuses a null status or maxIssues instead of using the default",
  async () => {
    await rejects(
      validateTaskResponse("get_products", { products: [] }, {
        status: null as unknown as "completed",
      }),
      TypeError,
    );
    await rejects(
      validateTaskResponse("get_products", { products: [] }, {
        maxIssues: null as unknown as number,
      }),
      TypeError,
    );
  },
);
