import fc from "fast-check";
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { a2aResponseText, anyResponse, json, runPure } from "./_test_utils.ts";
import { extractAdcpErrorFromA2A } from "./extract_adcp_error_from_a2a.ts";
import { validateAdcpError } from "./validate_adcp_error.ts";

const rateLimited = { code: "RATE_LIMITED", retry_after: 5, recovery: "transient" };

function failed(artifacts?: unknown[], messageParts?: unknown[], state = "failed") {
  return {
    status: messageParts === undefined ? { state } : { state, message: { parts: messageParts } },
    ...(artifacts === undefined ? {} : { artifacts }),
  };
}

Deno.test(
  "extractAdcpErrorFromA2A() finds adcp_error in v0.3 and A2A 1.0 artifact DataParts",
  () => {
    const v03 = failed([{
      parts: [{ kind: "text", text: "t" }, {
        kind: "data",
        data: { adcp_error: rateLimited },
      }],
    }]);
    strictEqual(extractAdcpErrorFromA2A(v03), rateLimited);
    const v1 = failed(
      [{ parts: [{ text: "t" }, { data: { adcp_error: rateLimited } }] }],
      undefined,
      "TASK_STATE_FAILED",
    );
    strictEqual(extractAdcpErrorFromA2A(v1), rateLimited);
  },
);

Deno.test("extractAdcpErrorFromA2A() scans every artifact before the status message", () => {
  const second = { code: "SECOND" };
  const input = failed(
    [{ parts: [{ data: { products: [] } }] }, null, { parts: "x" }, {
      parts: [{ data: { adcp_error: second } }],
    }],
    [{ data: { adcp_error: { code: "MESSAGE" } } }],
  );
  strictEqual(extractAdcpErrorFromA2A(input), second);
  const messageOnly = failed([{ parts: [{ text: "t" }] }], [{ text: "t" }, {
    data: { adcp_error: rateLimited },
  }]);
  strictEqual(extractAdcpErrorFromA2A(messageOnly), rateLimited);
});

Deno.test("extractAdcpErrorFromA2A() lets the first DataPart carrying adcp_error decide", () => {
  const input = failed([{
    parts: [{ data: { adcp_error: { code: 429 } } }, {
      data: { adcp_error: rateLimited },
    }],
  }], [{ data: { adcp_error: rateLimited } }]);
  strictEqual(extractAdcpErrorFromA2A(input), null);
  const nullIsAbsent = failed([{
    parts: [{ data: { adcp_error: null } }, {
      data: { adcp_error: rateLimited },
    }],
  }]);
  strictEqual(extractAdcpErrorFromA2A(nullIsAbsent), rateLimited);
});

Deno.test("extractAdcpErrorFromA2A() ignores the task state", () => {
  for (const state of ["working", "completed", "TASK_STATE_REJECTED", "mystery", 1]) {
    const input = {
      status: { state, message: { parts: [{ data: { adcp_error: rateLimited } }] } },
    };
    strictEqual(extractAdcpErrorFromA2A(input), rateLimited, String(state));
  }
  strictEqual(
    extractAdcpErrorFromA2A({ artifacts: [{ parts: [{ data: { adcp_error: rateLimited } }] }] }),
    rateLimited,
  );
});

Deno.test("extractAdcpErrorFromA2A() unwraps one envelope and rejects nested ones", () => {
  const input = failed([{ parts: [{ data: { adcp_error: rateLimited } }] }]);
  for (const key of ["task", "message", "statusUpdate", "artifactUpdate"]) {
    strictEqual(extractAdcpErrorFromA2A({ [key]: input }), rateLimited, key);
    strictEqual(extractAdcpErrorFromA2A({ [key]: { task: input } }), null, `${key} nested`);
  }
  // artifactUpdate's singular `artifact` is not one of the detection paths.
  strictEqual(
    extractAdcpErrorFromA2A({
      artifactUpdate: { artifact: { parts: [{ data: { adcp_error: rateLimited } }] } },
    }),
    null,
  );
});

Deno.test("extractAdcpErrorFromA2A() applies the same validation as every path", () => {
  const wrap = (error: unknown) => failed([{ parts: [{ data: { adcp_error: error } }] }]);
  strictEqual(extractAdcpErrorFromA2A(wrap({ code: "C".repeat(65) })), null);
  deepStrictEqual(extractAdcpErrorFromA2A(wrap({ code: "C".repeat(64) })), {
    code: "C".repeat(64),
  });
  strictEqual(extractAdcpErrorFromA2A(wrap({ code: "X", message: "€".repeat(1357) + "a" })), null);
  strictEqual(extractAdcpErrorFromA2A(wrap("RATE_LIMITED")), null);
  strictEqual(extractAdcpErrorFromA2A(wrap([rateLimited])), null);
});

Deno.test("extractAdcpErrorFromA2A() reads only own properties and keeps __proto__ keys", () => {
  const inheritedPart = Object.create({ data: { adcp_error: rateLimited } });
  strictEqual(extractAdcpErrorFromA2A(failed([{ parts: [inheritedPart] }])), null);
  const error = extractAdcpErrorFromA2A(
    json('{"artifacts":[{"parts":[{"data":{"adcp_error":{"code":"X","__proto__":{"a":1}}}}]}]}'),
  );
  deepStrictEqual(Object.keys(error ?? {}), ["code", "__proto__"]);
});

Deno.test("extractAdcpErrorFromA2A() returns null for non-objects", () => {
  for (const value of [undefined, null, 1, "failed", [failed()]]) {
    strictEqual(extractAdcpErrorFromA2A(value), null);
  }
});

Deno.test("extractAdcpErrorFromA2A() is total and pure", () => {
  fc.assert(
    fc.property(
      fc.oneof(fc.jsonValue(), anyResponse, a2aResponseText.map((t) => JSON.parse(t))),
      (input) => {
        const error = runPure(input, extractAdcpErrorFromA2A);
        if (error === null) return;
        ok(!Array.isArray(error));
        strictEqual(validateAdcpError(error), error);
      },
    ),
    { numRuns: 300 },
  );
});
