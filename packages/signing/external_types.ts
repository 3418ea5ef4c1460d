// Names of the other @adcp-wire packages that this package's public API uses, re-exported so its
// documentation is complete on its own. The root error class is re-exported as a value, so
// `instanceof` works with it.
export { AdcpWireError } from "@adcp-wire/internal";
