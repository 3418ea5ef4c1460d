/**
 * The project's own implementation behind the conformance protocol: one request in, one reply out.
 * Used in process by `test_vectors.ts` and over JSON lines by `impl_adapter.ts`, so both paths
 * answer identically.
 *
 * @module
 */
import {
  detectWebhookFormat,
  extractAdcpErrorFromA2A,
  extractAdcpErrorFromJsonRpcError,
  extractAdcpErrorFromMcp,
  extractAdcpResponseFromA2A,
  extractAdcpResponseFromMcp,
  extractAdcpResponseFromWebhook,
} from "@adcp-wire/core";
import { decideRecovery } from "@adcp-wire/recovery";
import { isReservedAddress, sanitizeSellerString, validateSellerUrl } from "@adcp-wire/security";
import { A2AClient, AgentProtocolError } from "@adcp-wire/transports";
import { field, isObject } from "./_impl/_input.ts";
import { SUITE_NAMES, type VectorReply, type VectorRequest } from "./_vectors.ts";
import { answer as a2aProfileExtension } from "./_impl/a2a_profile_extension.ts";
import { answer as adagentsDiscovery } from "./_impl/adagents_discovery.ts";
import {
  answerBodyIntegrity,
  answerCanonicalization,
  answerRequestSigning,
  answerWebhookSigning,
  signingErrorCode,
} from "./_impl/message_signing.ts";
import { answer as webhookHmac } from "./_impl/webhook_hmac.ts";
import { answer as webhookReceiverEnvelope } from "./_impl/webhook_receiver_envelope.ts";

/** The decision as the protocol spells it. */
function decisionReply(decision: ReturnType<typeof decideRecovery>): Record<string, unknown> {
  const out: Record<string, unknown> = { action: decision.action };
  if (decision.action === "retry") {
    out.delay_seconds = decision.delaySeconds;
    out.delay_source = decision.delaySource;
  }
  return out;
}

function answer(request: VectorRequest): unknown {
  const { suite, input, options } = request;
  switch (suite) {
    case "a2a-profile-extension":
      return a2aProfileExtension(input, options);
    case "webhook-receiver-envelope":
      return webhookReceiverEnvelope(input, options);
    case "webhook-hmac":
      return webhookHmac(input, options);
    case "adagents-discovery":
      return adagentsDiscovery(input, options);
    case "request-signing":
      return answerRequestSigning(input);
    case "webhook-signing":
      return answerWebhookSigning(input);
    case "target-uri-canonicalization":
      return answerCanonicalization(input);
    case "body-integrity-policy":
      return answerBodyIntegrity(input);
    case "mcp-response-extraction":
      return extractAdcpResponseFromMcp(input, options ?? undefined);
    case "a2a-response-extraction":
      return extractAdcpResponseFromA2A(input, options ?? undefined);
    case "transport-error-mapping": {
      const response = field(input, "response");
      const transport = field(input, "transport");
      const error = transport === "a2a" ? extractAdcpErrorFromA2A(response) : isObject(response) &&
          (Object.hasOwn(response, "jsonrpc") || Object.hasOwn(response, "error"))
        ? extractAdcpErrorFromJsonRpcError(response)
        : extractAdcpErrorFromMcp(response);
      return { error, ...decisionReply(decideRecovery(error)) };
    }
    case "seller-strings":
      return sanitizeSellerString(field(input, "value") as string, {
        maxBytes: field(input, "max_bytes") as number,
      });
    case "seller-urls": {
      const ports = field(input, "allowed_ports");
      const result = validateSellerUrl(field(input, "url") as string, {
        purpose: field(input, "purpose") as never,
        allowedHosts: field(input, "allowed_hosts") as string[],
        ...(ports === null || ports === undefined ? {} : { allowedPorts: ports as number[] }),
      });
      return result.valid
        ? { valid: true, url: result.url }
        : { valid: false, reason: result.reason };
    }
    case "reserved-addresses":
      return isReservedAddress(field(input, "hostname") as string);
    case "agent-card-binding": {
      const cardUrl = field(input, "card_url");
      const version = field(input, "protocol_version");
      try {
        const client = new A2AClient(field(input, "card") as Record<string, unknown>, {
          ...(cardUrl === null ? {} : { cardUrl: cardUrl as string }),
          allowedHosts: field(input, "allowed_hosts") as string[],
          allowHttp: field(input, "allow_http") as boolean,
          allowReservedAddresses: field(input, "allow_reserved_addresses") as boolean,
          ...(version === null ? {} : { protocolVersion: version as "1.0" | "0.3" }),
        });
        return { endpoint: client.endpoint, protocol_version: client.protocolVersion };
      } catch (error) {
        if (error instanceof AgentProtocolError && error.reason === "agent_card") return null;
        throw error;
      }
    }
    case "webhook-payload-extraction": {
      const payload = field(input, "payload");
      const format = field(input, "format");
      return {
        detected_format: detectWebhookFormat(payload),
        data: extractAdcpResponseFromWebhook(
          payload,
          format === null ? undefined : format as never,
        ),
      };
    }
    case "retry-decisions": {
      const decision = decideRecovery(field(input, "error") as never, {
        attempt: field(input, "attempt") as number,
        elapsedSeconds: field(input, "elapsed_seconds") as number,
        policy: { ...(options ?? {}), random: () => 0.5 },
      });
      return decisionReply(decision);
    }
  }
}

/**
 * The reply code of a thrown error: a signing error's spec code (`signingErrorCode`: a
 * `SignatureVerificationError` or `TargetUriMalformedError` of `@adcp-wire/signing`), else the
 * error's string `code`, else "exception".
 */
function errorCode(error: unknown): string {
  const signing = signingErrorCode(error);
  if (signing !== undefined) return signing;
  return isObject(error) && typeof error.code === "string" ? error.code : "exception";
}

/**
 * Answers one request; a thrown error (or rejected promise) becomes `{error: {code}}` (see
 * {@link errorCode}), and a suite this implementation does not know is skipped.
 */
export async function handleRequest(request: VectorRequest): Promise<VectorReply> {
  if (!(SUITE_NAMES as readonly string[]).includes(request.suite)) {
    return { skip: `no such suite here: ${JSON.stringify(request.suite)}` };
  }
  try {
    return { result: await answer(request) };
  } catch (error) {
    return { error: { code: errorCode(error) } };
  }
}
