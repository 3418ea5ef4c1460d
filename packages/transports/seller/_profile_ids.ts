// The A2A ids the profile response helpers take.
import { isPlainObject, optionError, own } from "@adcp-wire/internal";

/**
 * The `id` and `contextId` of `ids`, non-empty strings.
 *
 * @throws {TypeError} Naming the one that is not.
 */
export function checkIds(
  ids: unknown,
  action: string,
): { readonly id: string; readonly contextId: string } {
  if (!isPlainObject(ids)) throw optionError(TypeError, action, "ids", "an object", ids);
  const id = own(ids, "id");
  const contextId = own(ids, "contextId");
  for (const [name, value] of [["ids.id", id], ["ids.contextId", contextId]] as const) {
    if (typeof value !== "string" || value === "") {
      throw optionError(TypeError, action, name, "a non-empty string", value);
    }
  }
  return { id: id as string, contextId: contextId as string };
}
