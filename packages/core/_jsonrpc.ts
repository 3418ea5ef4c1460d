// JSON-RPC error internals (Transport Error Mapping, "Transport-Level Errors").

import { isJsonObject, own, ownObject } from "@adcp-wire/internal";
import { carriesAdcpError } from "./_json.ts";

/**
 * The raw `adcp_error` carried by a JSON-RPC error, before validation (Transport Error Mapping,
 * "Client Detection Order" step 4, `error.data.adcp_error`). A value with an own `error` key is a
 * JSON-RPC response and only its `error` object is read; otherwise, when `acceptBare` is true,
 * the value itself is read as a JSON-RPC error object (`{ code, message, data }`) or SDK error.
 */
export function jsonRpcErrorCandidate(
  value: unknown,
  acceptBare: boolean,
): { readonly value: unknown } | undefined {
  if (!isJsonObject(value)) return undefined;
  let errorObject = value;
  if (Object.hasOwn(value, "error")) {
    const inner = own(value, "error");
    if (!isJsonObject(inner)) return undefined;
    errorObject = inner;
  } else if (!acceptBare) {
    return undefined;
  }
  const data = ownObject(errorObject, "data");
  if (data === undefined || !carriesAdcpError(data)) return undefined;
  return { value: own(data, "adcp_error") };
}
