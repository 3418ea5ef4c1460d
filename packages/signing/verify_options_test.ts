// The verifiers refuse bad options when they are made and bad inputs when called, with the option
// message naming what is wrong; `revocation` must be given (null to skip step 9).
import { ok } from "node:assert/strict";
import {
  ED,
  makeVerifier,
  message,
  PROFILES,
  rejectsOption,
  throwsOption,
} from "./_test_verify.ts";
import { RequestVerifier, type VerifyRequestOptions } from "./verify_request.ts";
import { WebhookVerifier } from "./verify_webhook.ts";

Deno.test("verify() refuses inputs that are not a Request or message parts", async () => {
  for (const profile of PROFILES) {
    const action = profile === "webhook" ? "verify the webhook" : "verify the request";
    const v = makeVerifier(profile);
    await rejectsOption(
      v.verify("https://x.example" as unknown as Request),
      TypeError,
      `Cannot ${action} as 'input' must be a Request or message parts: current value is ` +
        `"https://x.example"`,
    );
    await rejectsOption(
      v.verify(null as unknown as Request),
      TypeError,
      `Cannot ${action} as 'input' must be a Request or message parts: current value is null`,
    );
    await rejectsOption(
      v.verify({ method: "POST" } as unknown as Request),
      TypeError,
      `Cannot ${action} as 'input' must be an object with method and url strings: current ` +
        "value is an object",
    );
    await rejectsOption(
      v.verify({ method: "POST", url: "https://x.example", body: 5 } as unknown as Request),
      TypeError,
      `Cannot ${action} as 'input.body' must be a Uint8Array or a string: current value is 5`,
    );
    await rejectsOption(
      v.verify({ method: "POST", url: "https://x.example", headers: { "a b": "c" } }),
      TypeError,
      `Cannot ${action} as 'input.headers' must be valid header fields: current value is an object`,
    );
    await rejectsOption(
      v.verify(message(profile), null as unknown as VerifyRequestOptions),
      TypeError,
      `Cannot ${action} as 'options' must be an object: current value is null`,
    );
  }
});

Deno.test("RequestVerifier refuses bad options with the option message", () => {
  const a = "Cannot create the request verifier as";
  const keys = [ED.jwk];
  const cases: [() => unknown, ErrorConstructor, string][] = [
    [
      () => new RequestVerifier(null as never),
      TypeError,
      `${a} 'options' must be an object: current value is null`,
    ],
    [
      () => new RequestVerifier({ revocation: null, keys: "jwks" as never }),
      TypeError,
      `${a} 'keys' must be a KeyResolver, a JWKS or an array of JWKs: current value is "jwks"`,
    ],
    [
      () => new RequestVerifier({ revocation: null, keys: {} as never }),
      TypeError,
      `${a} 'keys' must be a KeyResolver, a JWKS or an array of JWKs: current value is an object`,
    ],
    [
      () => new RequestVerifier({ revocation: null, keys, profile: "3.0" as never }),
      RangeError,
      `${a} 'profile' must be "3.2" or "3.1": current value is "3.0"`,
    ],
    [
      () => new RequestVerifier({ revocation: null, keys, now: 5 as never }),
      TypeError,
      `${a} 'now' must be a function: current value is 5`,
    ],
    [
      () => new RequestVerifier({ revocation: null, keys, maxBodyBytes: 0 }),
      RangeError,
      `${a} 'maxBodyBytes' must be a positive safe integer: current value is 0`,
    ],
    [
      () => new RequestVerifier({ revocation: null, keys, maxBodyBytes: "1" as never }),
      TypeError,
      `${a} 'maxBodyBytes' must be a positive safe integer: current value is "1"`,
    ],
    [
      // (null is read as "no capability", like undefined.)
      () => new RequestVerifier({ revocation: null, keys, capability: "all" as never }),
      TypeError,
      `${a} 'capability' must be an object: current value is "all"`,
    ],
    [
      () =>
        new RequestVerifier({
          revocation: null,
          keys,
          capability: { covers_content_digest: "either" },
        }),
      RangeError,
      `${a} 'capability.covers_content_digest' must be "required" on a 3.2 endpoint (legacy ` +
      `postures need profile "3.1"): current value is "either"`,
    ],
    [
      () =>
        new RequestVerifier({
          revocation: null,
          keys,
          capability: { covers_content_digest: "forbidden" },
        }),
      RangeError,
      `${a} 'capability.covers_content_digest' must be "required" on a 3.2 endpoint (legacy ` +
      `postures need profile "3.1"): current value is "forbidden"`,
    ],
    [
      () =>
        new RequestVerifier({
          revocation: null,
          keys,
          profile: "3.1",
          capability: { covers_content_digest: "sometimes" as never },
        }),
      RangeError,
      `${a} 'capability.covers_content_digest' must be "required", "forbidden" or "either": ` +
      `current value is "sometimes"`,
    ],
    [
      () =>
        new RequestVerifier({
          revocation: null,
          keys,
          capability: { required_for: ["tasks/cancel"] },
        }),
      RangeError,
      `${a} 'capability.required_for' must be AdCP operation names (no '/'), not JSON-RPC ` +
      `methods: current value is an array`,
    ],
    [
      () =>
        new RequestVerifier({
          revocation: null,
          keys,
          capability: { warn_for: ["a", "tasks/get"] },
        }),
      RangeError,
      `${a} 'capability.warn_for' must be AdCP operation names (no '/'), not JSON-RPC ` +
      `methods: current value is an array`,
    ],
    [
      () =>
        new RequestVerifier({
          revocation: null,
          keys,
          capability: { supported_for: "create_media_buy" as never },
        }),
      TypeError,
      `${a} 'capability.supported_for' must be an array of strings: current value is ` +
      `"create_media_buy"`,
    ],
    [
      () =>
        new RequestVerifier({ revocation: null, keys, capability: { required_for: [1] as never } }),
      TypeError,
      `${a} 'capability.required_for' must be an array of strings: current value is an array`,
    ],
    [
      () =>
        new RequestVerifier({
          revocation: null,
          keys,
          capability: { protocol_methods_required_for: ["create_media_buy"] },
        }),
      RangeError,
      `${a} 'capability.protocol_methods_required_for' must be JSON-RPC method names (with a ` +
      `'/'), not AdCP operations: current value is an array`,
    ],
    [
      () =>
        new RequestVerifier({
          revocation: null,
          keys,
          capability: { protocol_methods_warn_for: ["get"] },
        }),
      RangeError,
      `${a} 'capability.protocol_methods_warn_for' must be JSON-RPC method names (with a '/'), ` +
      `not AdCP operations: current value is an array`,
    ],
    [
      () =>
        new RequestVerifier({
          revocation: null,
          keys,
          capability: { protocol_methods_supported_for: [null] as never },
        }),
      TypeError,
      `${a} 'capability.protocol_methods_supported_for' must be an array of strings: current ` +
      `value is an array`,
    ],
  ];
  for (const [fn, kind, text] of cases) throwsOption(fn, kind, text);
  // The valid shapes of `keys`.
  new RequestVerifier({ revocation: null, keys: { keys } });
  new RequestVerifier({ revocation: null, keys: { resolve: () => Promise.resolve(undefined) } });
  new RequestVerifier({
    revocation: null,
    keys,
    profile: "3.1",
    capability: { covers_content_digest: "forbidden" },
  });
});

Deno.test("WebhookVerifier refuses bad options with the option message", () => {
  const a = "Cannot create the webhook verifier as";
  const keys = [ED.jwk];
  throwsOption(
    () => new WebhookVerifier(undefined as never),
    TypeError,
    `${a} 'options' must be an object: current value is undefined`,
  );
  throwsOption(
    () => new WebhookVerifier({ revocation: null, keys: null as never }),
    TypeError,
    `${a} 'keys' must be a KeyResolver, a JWKS or an array of JWKs: current value is null`,
  );
  throwsOption(
    () => new WebhookVerifier({ revocation: null, keys, now: "now" as never }),
    TypeError,
    `${a} 'now' must be a function: current value is "now"`,
  );
  throwsOption(
    () => new WebhookVerifier({ revocation: null, keys, maxBodyBytes: 1.5 }),
    RangeError,
    `${a} 'maxBodyBytes' must be a positive safe integer: current value is 1.5`,
  );
});

Deno.test("verifiers require `revocation`: null skips step 9 only when said", () => {
  for (
    const make of [
      () => new RequestVerifier({ keys: [] } as never),
      () => new WebhookVerifier({ keys: [] } as never),
      () => new RequestVerifier({ keys: [], revocation: {} as never }),
    ]
  ) {
    let message = "";
    try {
      make();
    } catch (error) {
      ok(error instanceof TypeError);
      message = (error as Error).message;
    }
    ok(message.includes("'revocation' must be a RevocationSource, or null"), message);
  }
});
