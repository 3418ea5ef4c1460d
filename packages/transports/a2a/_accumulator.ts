// Accumulation of a streamed A2A task: the latest snapshot and status, and every artifact with its
// parts, under the call's item caps.
import { isJsonObject as isObject, type JsonRecord, own } from "@adcp-wire/internal";
import type { ResolvedClientLimits } from "../client/limits.ts";
import { AgentProtocolError, ItemLimitError } from "../errors.ts";

/**
 * Accumulates a streamed task: the latest task snapshot and status, and every artifact with its
 * parts (appended in place, so many small chunks cost linear time).
 */
export class Accumulator {
  #task: JsonRecord | undefined;
  #status: unknown;
  #message: JsonRecord | undefined;
  /** Artifacts in arrival order, and by `artifactId` (O(1) per frame whatever the count). */
  readonly #artifacts: { base: JsonRecord; parts: unknown[] }[] = [];
  readonly #byId = new Map<unknown, { base: JsonRecord; parts: unknown[] }>();
  readonly #maxArtifacts: number;
  readonly #maxParts: number;
  #parts = 0;

  constructor(limits: ResolvedClientLimits) {
    this.#maxArtifacts = limits.maxArtifacts;
    this.#maxParts = limits.maxParts;
  }

  /** Records an out-of-band Message. */
  message(frame: JsonRecord): void {
    this.#message = frame;
  }

  /** The last Message, when no task frame of any kind has arrived; else `undefined`. */
  messageOnly(): JsonRecord | undefined {
    return this.#task === undefined && this.#status === undefined && this.#artifacts.length === 0
      ? this.#message
      : undefined;
  }

  task(frame: JsonRecord): void {
    this.#task = frame;
    this.#status = own(frame, "status");
    const artifacts = own(frame, "artifacts");
    if (Array.isArray(artifacts) && artifacts.length > 0) {
      this.#artifacts.length = 0;
      this.#byId.clear();
      this.#parts = 0;
      for (const artifact of artifacts) if (isObject(artifact)) this.#add(artifact);
    }
  }

  status(frame: JsonRecord): void {
    this.#status = own(frame, "status");
    this.#task ??= {
      id: own(frame, "taskId"),
      contextId: own(frame, "contextId"),
    };
  }

  artifact(frame: JsonRecord): void {
    const artifact = own(frame, "artifact");
    if (!isObject(artifact)) {
      throw new AgentProtocolError("invalid_message", "an artifactUpdate with an artifact", "none");
    }
    this.#task ??= { id: own(frame, "taskId"), contextId: own(frame, "contextId") };
    const id = own(artifact, "artifactId");
    const existing = id === undefined ? undefined : this.#byId.get(id);
    if (existing !== undefined && own(frame, "append") === true) {
      const parts = own(artifact, "parts");
      if (Array.isArray(parts)) {
        this.#countParts(parts.length);
        for (const part of parts) existing.parts.push(part);
      }
      return;
    }
    if (existing !== undefined) {
      const parts = partsOf(artifact);
      this.#countParts(parts.length - existing.parts.length);
      existing.base = artifact;
      existing.parts = parts;
      return;
    }
    this.#add(artifact);
  }

  /** The accumulated task: the latest snapshot, the latest status, the accumulated artifacts. */
  build(): JsonRecord {
    const task: JsonRecord = { ...this.#task };
    if (this.#status !== undefined) task.status = this.#status;
    if (this.#artifacts.length > 0) {
      task.artifacts = this.#artifacts.map((entry) => ({ ...entry.base, parts: entry.parts }));
    }
    return task;
  }

  #add(artifact: JsonRecord): void {
    if (this.#artifacts.length >= this.#maxArtifacts) {
      throw new ItemLimitError("artifacts", this.#maxArtifacts, this.#artifacts.length + 1);
    }
    const entry = { base: artifact, parts: partsOf(artifact) };
    this.#countParts(entry.parts.length);
    this.#artifacts.push(entry);
    const id = own(artifact, "artifactId");
    // Keyed by primitive ids only: an object id never matches (as with `===` before).
    if (id !== undefined && (typeof id !== "object" || id === null) && !this.#byId.has(id)) {
      this.#byId.set(id, entry);
    }
  }

  #countParts(added: number): void {
    const parts = this.#parts += added;
    if (parts > this.#maxParts) throw new ItemLimitError("parts", this.#maxParts, parts);
  }
}

function partsOf(artifact: JsonRecord): unknown[] {
  const parts = own(artifact, "parts");
  return Array.isArray(parts) ? [...parts] : [];
}
