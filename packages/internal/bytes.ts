// Byte and object helpers shared by every package that reads a body or hands out parsed data.

/**
 * One array of the first `total` bytes of `chunks`, in order: the chunk itself when there is only
 * one (no copy), else a new array. `total` must be the sum of the chunks' lengths, as the bounded
 * readers count it while reading.
 *
 * @param chunks The chunks read, in order.
 * @param total Their summed length in bytes.
 * @returns The bytes in one array.
 *
 * @example Usage
 * ```ts
 * import { concatBytes } from "@adcp-wire/internal";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const bytes = concatBytes([new Uint8Array([1, 2]), new Uint8Array([3])], 3);
 * deepStrictEqual(bytes, new Uint8Array([1, 2, 3]));
 * ```
 */
export function concatBytes(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * Freezes `root` and every object reachable from it through own enumerable string keys, without
 * recursion (no depth can overflow the stack) and visiting each object once (a cycle ends).
 *
 * @param root The value to freeze; anything but an object is returned as it is.
 * @returns `root`, frozen.
 *
 * @example Usage
 * ```ts
 * import { deepFreeze } from "@adcp-wire/internal";
 * import { ok } from "node:assert/strict";
 *
 * const value = deepFreeze({ a: { b: [1] } });
 * ok(Object.isFrozen(value.a.b));
 * ```
 */
export function deepFreeze<T>(root: T): T {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== "object" || value === null || Object.isFrozen(value)) continue;
    Object.freeze(value);
    for (const key of Object.keys(value)) stack.push((value as Record<string, unknown>)[key]);
  }
  return root;
}
