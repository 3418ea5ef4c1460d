import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import fc from "fast-check";
import { upstreamProfileVectors } from "./_test_profile.ts";
import { ADCP_A2A_PROFILE, adcpProfileInvocation, checkAdcpProfileInvocation } from "./mod.ts";

Deno.test("adcpProfileInvocation() rebuilds every valid upstream invocation vector", async () => {
  const { invocation_vectors: vectors } = await upstreamProfileVectors();
  const valid = vectors.filter((vector) => vector.valid === true);
  strictEqual(valid.length, 4);
  for (const vector of valid) {
    const message = vector.message as Record<string, unknown>;
    const parts = message.parts as Record<string, unknown>[];
    const data = parts.find((part) => "data" in part)!.data as {
      skill: string;
      input: Record<string, unknown>;
    };
    const rebuilt = adcpProfileInvocation(data.skill, data.input, {
      messageId: message.messageId as string,
      taskId: message.taskId as string | undefined,
      contextId: message.contextId as string | undefined,
    });
    // The vector's optional TextPart is left out, as the builder omits it by default.
    deepStrictEqual(rebuilt.message, { ...message, parts: [{ data }] }, String(vector.id));
    deepStrictEqual(rebuilt.headers, { "A2A-Version": "1.0", "A2A-Extensions": ADCP_A2A_PROFILE });
  }
});

Deno.test("adcpProfileInvocation() mints a fresh messageId per call", () => {
  const first = adcpProfileInvocation("get_products", {});
  const second = adcpProfileInvocation("get_products", {});
  ok(/^[0-9a-f-]{36}$/.test(first.message.messageId));
  ok(first.message.messageId !== second.message.messageId);
  deepStrictEqual(Object.keys(first.message), ["messageId", "role", "parts"]);
});

Deno.test("adcpProfileInvocation() writes the display label itself, only when asked", () => {
  const { message } = adcpProfileInvocation("get_products", { brief: "x" }, { text: true });
  deepStrictEqual(message.parts, [
    { text: "AdCP task: get_products", mediaType: "text/plain", metadata: { generated: true } },
    { data: { skill: "get_products", input: { brief: "x" } } },
  ]);
  const checked = checkAdcpProfileInvocation(adcpProfileInvocation("x", {}, { text: true }));
  ok(checked.valid && checked.textParts === 1);
});

Deno.test("adcpProfileInvocation() refuses bad arguments with TypeErrors naming them", () => {
  const action = "Cannot build the AdCP profile invocation as";
  throws(() => adcpProfileInvocation("", {}), {
    name: "TypeError",
    message: `${action} 'skill' must be a non-empty string: current value is ""`,
  });
  throws(() => adcpProfileInvocation("x", [] as never), {
    name: "TypeError",
    message: `${action} 'input' must be an object: current value is an array`,
  });
  throws(() => adcpProfileInvocation("x", {}, { messageId: "" }), {
    message: `${action} 'options.messageId' must be a non-empty string: current value is ""`,
  });
  throws(() => adcpProfileInvocation("x", {}, { taskId: "t1" }), {
    message: `${action} 'options.contextId' must be a non-empty string when 'options.taskId' is ` +
      "set (a continuation carries both): current value is undefined",
  });
  throws(() => adcpProfileInvocation("x", {}, { contextId: 3 as never }), TypeError);
  throws(() => adcpProfileInvocation("x", {}, { text: "label" as never }), {
    message: `${action} 'options.text' must be a boolean: current value is "label"`,
  });
  throws(() => adcpProfileInvocation("x", {}, null as never), TypeError);
});

Deno.test("adcpProfileInvocation() builds what checkAdcpProfileInvocation() accepts", () => {
  fc.assert(
    fc.property(
      fc.string({ minLength: 1 }),
      fc.dictionary(fc.string(), fc.jsonValue()),
      fc.option(fc.tuple(fc.string({ minLength: 1 }), fc.string({ minLength: 1 })), {
        nil: undefined,
      }),
      fc.boolean(),
      (skill, input, ids, text) => {
        const built = adcpProfileInvocation(skill, input, {
          taskId: ids?.[0],
          contextId: ids?.[1],
          text,
        });
        const checked = checkAdcpProfileInvocation(JSON.parse(JSON.stringify(built)));
        ok(checked.valid, JSON.stringify(checked));
        strictEqual(checked.skill, skill);
        strictEqual(checked.taskId, ids?.[0]);
        strictEqual(checked.textParts, text ? 1 : 0);
      },
    ),
  );
});
