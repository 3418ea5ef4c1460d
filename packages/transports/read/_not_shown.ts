// What an option error shows for a value it must not echo: seller text, internal service names.

/**
 * `value` as an option error may show it: a string becomes a placeholder giving only its size (its
 * length in UTF-16 code units unless `size` says otherwise), so seller text and internal names stay
 * out of messages and logs; any other value is kept, as `describe` shows it by kind or as written.
 */
export function notShown(value: unknown, size?: string): unknown {
  if (typeof value !== "string") return value;
  return `(${size ?? `${value.length} character${value.length === 1 ? "" : "s"}`}, not shown)`;
}
