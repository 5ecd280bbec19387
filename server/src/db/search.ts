/** An ILIKE pattern matching `s` anywhere, with `%`, `_` and `\` in it taken literally. */
export const containing = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
