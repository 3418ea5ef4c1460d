// Unknown option keys of the seller helpers, refused in the one option-error style.
import { checkOptionKeys, notShown, type OptionKeys } from "@adcp-wire/internal";

/**
 * Refuses an own key of `options` that is not in `keys`, naming it as `options.<key>` with the
 * nearest known one (`checkOptionKeys`); a string value is shown by its size only, since it may be
 * seller text or an internal service name. A value that is not a plain object is left to the
 * helper's own check. Nothing is allocated unless a key is refused.
 *
 * @throws {TypeError} When `options` has an unknown key.
 */
export function checkSellerOptionKeys(action: string, options: unknown, keys: OptionKeys): void {
  if (typeof options !== "object" || options === null || Array.isArray(options)) return;
  for (const key in options) {
    if (!Object.hasOwn(options, key) || keys.has(key)) continue;
    const value = (options as Record<string, unknown>)[key];
    // A computed key defines an own property, `__proto__` included.
    checkOptionKeys(action, "options", { [key]: notShown(value) }, keys);
  }
}
