import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import fc from "fast-check";
import { copy, hostile, upstreamProfileVectors } from "./_test_profile.ts";
import { ADCP_A2A_PROFILE, checkAdcpProfileAdvertisement } from "./mod.ts";

const CARD = {
  capabilities: { extensions: [{ uri: ADCP_A2A_PROFILE, required: true }] },
  skills: [{ id: "get_adcp_capabilities", name: "Discover" }],
};

function codeOf(card: unknown, requireTaskStatus = false): string | undefined {
  const result = checkAdcpProfileAdvertisement(card, { requireTaskStatus });
  return result.valid ? undefined : result.code;
}

Deno.test("checkAdcpProfileAdvertisement() meets every upstream advertisement vector", async () => {
  const { advertisement_vectors: vectors } = await upstreamProfileVectors();
  strictEqual(vectors.length, 4);
  for (const vector of vectors) {
    const result = checkAdcpProfileAdvertisement(vector.agent_card);
    strictEqual(result.valid, vector.valid, String(vector.id));
    if (!result.valid) strictEqual(result.code, vector.expected_error, String(vector.id));
  }
});

Deno.test(
  "checkAdcpProfileAdvertisement() reads required, the skill ids and get_task_status",
  () => {
    const full = copy(CARD);
    full.skills.push({ id: "get_task_status", name: "Poll" });
    deepStrictEqual(checkAdcpProfileAdvertisement(full, { requireTaskStatus: true }), {
      valid: true,
      required: true,
      skillIds: ["get_adcp_capabilities", "get_task_status"],
      getTaskStatus: true,
    });
    // required absent or false: advertised, but optional on this interface.
    for (const required of [undefined, false, null]) {
      const card = copy(CARD) as Record<string, unknown>;
      (card.capabilities as { extensions: Record<string, unknown>[] }).extensions = [
        required === undefined ? { uri: ADCP_A2A_PROFILE } : { uri: ADCP_A2A_PROFILE, required },
      ];
      const result = checkAdcpProfileAdvertisement(card);
      ok(result.valid && result.required === false, String(required));
    }
  },
);

Deno.test("checkAdcpProfileAdvertisement() refuses a top-level extensions array", () => {
  const card = { capabilities: {}, extensions: CARD.capabilities.extensions, skills: CARD.skills };
  strictEqual(codeOf(card), "extension_not_under_capabilities");
  strictEqual(codeOf({ skills: CARD.skills }), "extension_not_advertised");
  // Both places: the capabilities entry counts, the top-level array is ignored.
  strictEqual(codeOf({ ...card, capabilities: CARD.capabilities }), undefined);
});

Deno.test("checkAdcpProfileAdvertisement() compares the URI exactly, without normalizing", () => {
  for (
    const uri of [
      "https://adcontextprotocol.org/extensions/adcp/v3/",
      "HTTPS://adcontextprotocol.org/extensions/adcp/v3",
      "https://adcontextprotocol.org/extensions/adcp/V3",
      "https://adcontextprotocol.org/extensions/adcp",
      ` ${ADCP_A2A_PROFILE}`,
    ]
  ) {
    const card = { ...CARD, capabilities: { extensions: [{ uri, required: true }] } };
    strictEqual(codeOf(card), "extension_not_advertised", uri);
  }
});

Deno.test("checkAdcpProfileAdvertisement() refuses params unless omitted, null or {}", () => {
  for (const params of [undefined, null, {}]) {
    const card = { ...CARD, capabilities: { extensions: [{ uri: ADCP_A2A_PROFILE, params }] } };
    strictEqual(codeOf(card), undefined, String(params));
  }
  for (const params of [{ adcp_version: "3.2" }, [], "", 0, false, { __proto__: null, x: 1 }]) {
    const card = { ...CARD, capabilities: { extensions: [{ uri: ADCP_A2A_PROFILE, params }] } };
    strictEqual(codeOf(card), "extension_params_not_empty", JSON.stringify(params));
  }
  const own = JSON.parse(`{"uri":"${ADCP_A2A_PROFILE}","params":{"__proto__":{}}}`);
  strictEqual(
    codeOf({ ...CARD, capabilities: { extensions: [own] } }),
    "extension_params_not_empty",
  );
});

Deno.test("checkAdcpProfileAdvertisement() refuses a duplicate or malformed declaration", () => {
  const twice = {
    ...CARD,
    capabilities: {
      extensions: [CARD.capabilities.extensions[0], {
        uri: ADCP_A2A_PROFILE,
        params: { adcp_version: "3.2" },
      }],
    },
  };
  strictEqual(codeOf(twice), "duplicate_extension_declaration");
  for (const entry of [{ required: "true" }, { required: 1 }, { description: 3 }]) {
    const card = { ...CARD, capabilities: { extensions: [{ uri: ADCP_A2A_PROFILE, ...entry }] } };
    strictEqual(codeOf(card), "invalid_extension_declaration", JSON.stringify(entry));
  }
});

Deno.test(
  "checkAdcpProfileAdvertisement() requires skill ids, unique, get_adcp_capabilities",
  () => {
    strictEqual(codeOf({ ...CARD, skills: undefined }), "missing_get_adcp_capabilities_skill_id");
    strictEqual(codeOf({ ...CARD, skills: [] }), "missing_get_adcp_capabilities_skill_id");
    strictEqual(
      codeOf({ ...CARD, skills: [{ name: "get_adcp_capabilities" }] }),
      "invalid_skill_id",
    );
    strictEqual(codeOf({ ...CARD, skills: [{ id: "" }] }), "invalid_skill_id");
    strictEqual(codeOf({ ...CARD, skills: ["get_adcp_capabilities"] }), "invalid_skill_id");
    strictEqual(
      codeOf({ ...CARD, skills: [...CARD.skills, ...CARD.skills] }),
      "duplicate_skill_id",
    );
    strictEqual(codeOf(CARD, true), "missing_get_task_status_skill_id");
    strictEqual(
      codeOf({ ...CARD, skills: [...CARD.skills, { id: "x", name: "get_task_status" }] }, true),
      "missing_get_task_status_skill_id",
    );
  },
);

Deno.test("checkAdcpProfileAdvertisement() refuses wrong types and lists over 256 entries", () => {
  for (const card of [null, [], "card", 1]) strictEqual(codeOf(card), "invalid_agent_card");
  strictEqual(codeOf({ ...CARD, capabilities: [] }), "invalid_agent_card");
  strictEqual(codeOf({ ...CARD, capabilities: { extensions: {} } }), "invalid_agent_card");
  strictEqual(codeOf({ ...CARD, skills: {} }), "invalid_agent_card");
  const many = Array.from({ length: 257 }, (_, index) => ({ id: `task_${index}` }));
  strictEqual(codeOf({ ...CARD, skills: [...CARD.skills, ...many] }), "limit_exceeded");
  const extensions = Array.from({ length: 257 }, () => ({ uri: "https://x.example/e" }));
  strictEqual(codeOf({ ...CARD, capabilities: { extensions } }), "limit_exceeded");
  // 256 entries are read.
  strictEqual(codeOf({ ...CARD, skills: [...CARD.skills, ...many.slice(0, 255)] }), undefined);
});

Deno.test("checkAdcpProfileAdvertisement() never shows seller text in its message", () => {
  const secret = "sk_live_SECRET_value";
  const cards = [
    secret,
    { capabilities: secret },
    { ...CARD, skills: [{ id: secret }, { id: secret }] },
    { ...CARD, capabilities: { extensions: [{ uri: ADCP_A2A_PROFILE, params: secret }] } },
    { ...CARD, capabilities: { extensions: [{ uri: ADCP_A2A_PROFILE, required: secret }] } },
  ];
  for (const card of cards) {
    const result = checkAdcpProfileAdvertisement(card);
    ok(!result.valid && !result.message.includes("SECRET"), JSON.stringify(result));
    ok(/^Expected .+, saw .+$/.test(result.message) && !result.message.endsWith("."));
  }
});

Deno.test("checkAdcpProfileAdvertisement() throws only for bad options", () => {
  throws(() => checkAdcpProfileAdvertisement(CARD, { requireTaskStatus: "yes" as never }), {
    name: "TypeError",
    message: "Cannot check the AdCP profile advertisement as 'options.requireTaskStatus' must be " +
      'a boolean: current value is "yes"',
  });
  throws(() => checkAdcpProfileAdvertisement(CARD, null as never), TypeError);
});

Deno.test("checkAdcpProfileAdvertisement() never throws on any value", () => {
  fc.assert(
    fc.property(hostile, fc.boolean(), (card, requireTaskStatus) => {
      const result = checkAdcpProfileAdvertisement(card, { requireTaskStatus });
      ok(typeof result.valid === "boolean");
    }),
    { numRuns: 2000 },
  );
  // Cards that are mostly right, with any declaration and skills.
  fc.assert(
    fc.property(fc.jsonValue(), fc.jsonValue(), (entry, skills) => {
      const card = {
        capabilities: {
          extensions: [
            typeof entry === "object" && entry !== null && !Array.isArray(entry)
              ? { ...entry, uri: ADCP_A2A_PROFILE }
              : entry,
          ],
        },
        skills,
      };
      ok(typeof checkAdcpProfileAdvertisement(card).valid === "boolean");
    }),
    { numRuns: 1000 },
  );
});
