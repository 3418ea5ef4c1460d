// Names of the other @adcp-wire packages that this package's public API uses, re-exported so its
// documentation is complete on its own. The limit errors every validation function throws are
// re-exported as values, so `instanceof` works with them.
export {
  type JsonArray,
  JsonDepthLimitError,
  type JsonLimits,
  JsonNodeLimitError,
  type JsonObject,
  type JsonPrimitive,
  type JsonValue,
} from "@adcp-wire/security";
