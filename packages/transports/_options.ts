// The option-key check shared by every part of the package (the value readers are
// `@adcp-wire/internal`'s).
import { checkOptionKeys, notShown, type OptionKeys } from "@adcp-wire/internal";

/**
 * Refuses an own key of the options object `value` that is not in `keys`: a `TypeError` of
 * `checkOptionKeys` (`@adcp-wire/internal`) under `action`, naming the key as `<name>.<key>` and
 * the nearest known option (among `keys` and the keys of the nested objects `nested` names, so
 * `{ timeoutMs }` finds `options.agentLimits.timeoutMs`). A string value is shown by its size
 * only: a misplaced option may be a credential (an `authorization` meant for `headers`). A value
 * that is not a plain object is left to the option's own type check; symbol and inherited keys are
 * not options. Nothing is allocated unless a key is refused, so it is cheap enough for every call.
 *
 * @throws {TypeError} When `value` has an unknown key.
 */
export function checkKeys(
  action: string,
  name: string,
  value: unknown,
  keys: OptionKeys,
  nested?: Readonly<Record<string, OptionKeys>>,
): void {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return;
  for (const key in value) {
    if (keys.has(key) || !Object.hasOwn(value, key)) continue;
    const shown = notShown((value as Record<string, unknown>)[key]);
    // A computed key defines an own property, `__proto__` included.
    checkOptionKeys(action, name, { [key]: shown }, keys, nested);
  }
}
