// Types of the other @adcp-wire packages that this package's public API names, re-exported so its
// documentation is complete on its own.
export type {
  A2AResponseOutcome,
  AdcpCoreError,
  AdcpError,
  AdcpErrorFieldName,
  AdcpErrorSchema,
  McpResponseOutcome,
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
