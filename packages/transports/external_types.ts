// Names of the other @adcp-wire packages that this package's public API uses, re-exported so its
// documentation is complete on its own. Error classes are re-exported as values, so `instanceof`
// works with them.
export {
  type A2AResponseOutcome,
  AdcpCoreError,
  type AdcpErrorFieldName,
  type ExtractedAdcpError,
  type McpResponseOutcome,
  UnexpectedPartCountError,
  WrapperDetectedError,
} from "@adcp-wire/core";
export type {
  ClassifyRecoveryOptions,
  EscalateRetryCountDecision,
  EscalateRetryTimeDecision,
  EscalateTerminalDecision,
  EscalateToHumanDecision,
  GenericErrorDecision,
  RecoveryClass,
  RecoveryDecision,
  RetryDecision,
  RetryPolicy,
  RetryPolicyOptions,
  SurfaceToCallerDecision,
} from "@adcp-wire/recovery";
export type { SellerUrlRejection } from "@adcp-wire/security";
